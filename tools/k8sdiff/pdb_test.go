package k8sdiff

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	"github.com/go-logr/logr"
	apps "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	policyclient "k8s.io/client-go/kubernetes/typed/policy/v1"
	"k8s.io/client-go/scale"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	coreapi "k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install" // the v1 <-> internal pod conversions
	policyapi "k8s.io/kubernetes/pkg/apis/policy"
	"k8s.io/kubernetes/pkg/controller/disruption"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
	clocktesting "k8s.io/utils/clock/testing"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/controller"
	cdisruption "converge/core/controller/disruption"
	"converge/core/store"
)

// The disruption controller's sync (pkg/controller/disruption: trySync,
// getExpectedPodCount, countHealthyPods, buildDisruptedPodMap, failSafe,
// updatePdbStatus) and the eviction subresource's decision
// (pkg/registry/core/pod/storage/eviction.go, EvictionREST.Create with
// checkAndDecrement), both unexported, reached by name as the controllers'
// syncs are (see linkname.go); pinned to k8s.io/kubernetes v1.35.4.

//go:linkname disruptionSync k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).sync
func disruptionSync(dc *disruption.DisruptionController, ctx context.Context, key string) error

//go:linkname newEvictionStorage k8s.io/kubernetes/pkg/registry/core/pod/storage.newEvictionStorage
func newEvictionStorage(store rest.StandardStorage, podDisruptionBudgetClient policyclient.PodDisruptionBudgetsGetter) *podstorage.EvictionREST

// TestDiffPDB builds a Deployment's pods in every state (Ready, not Ready,
// Pending, finished, terminating, without a controller, of a standalone
// ReplicaSet, of a ReplicaSet whose Deployment is gone), one or two
// PodDisruptionBudgets (minAvailable or maxUnavailable, integer or
// percentage, the unhealthy-pod eviction policy, pods evicted earlier in
// status.disruptedPods), runs one sync of each budget on both sides and
// compares the statuses and events, then evicts one pod on both sides and
// compares the answer (error text, code and cause), whether the pod went,
// and the budget's status after.
func TestDiffPDB(t *testing.T) {
	t.Parallel()
	f := newFamily("disruption controller sync and pods/eviction against Converge's")
	seed := uint64(setting("K8SDIFF_SEED", 1))
	for i := range setting("K8SDIFF_PDB_CASES", 1500) {
		g := newGen(seed^0x706462, uint64(i)) // "pdb"
		c := g.pdbCase()
		d, notes, err := runPDBCase(c)
		if err != nil {
			t.Fatalf("pdb-seed%d-case%d: %v", seed, i, err)
		}
		if d != "" {
			d = fmt.Sprintf("pdb-seed%d-case%d %s:%s", seed, i, c, d)
		}
		f.add(d, notes...)
	}
	f.finish(t)
}

// pdbPod is one pod of a case.
type pdbPod struct {
	owner                          string // "", a ReplicaSet name
	phase                          string
	ready, terminating, solo, gone bool
	disruptedAgo                   int // seconds; 0: not in disruptedPods
}

type pdbBudget struct {
	name           string
	soloSelector   bool // tier=solo rather than app=web
	min, maxUnav   *api.IntOrString
	policy         string
	generationBump bool // spec edited after the sync: the status is stale
}

type pdbCase struct {
	replicas, rsReplicas, soloReplicas int32
	orphanRS                           bool // the ReplicaSet's Deployment is gone
	pods                               []pdbPod
	budgets                            []pdbBudget
	evict                              int
}

func (c *pdbCase) String() string { b, _ := json.Marshal(c); return string(b) }

func (g *gen) intOrPercent() *api.IntOrString {
	if g.chance(0.5) {
		v := api.FromInt(int32(g.n(0, 6)))
		return &v
	}
	v := api.FromString(g.pick("0%", "10%", "25%", "33%", "50%", "51%", "66%", "75%", "90%", "100%"))
	return &v
}

func (g *gen) pdbCase() *pdbCase {
	c := &pdbCase{replicas: g.n32(0, 6), rsReplicas: g.n32(0, 6), soloReplicas: g.n32(0, 3), orphanRS: g.chance(0.05)}
	for i := range g.n(0, 8) {
		p := pdbPod{owner: "web-5d9c7b8f4", phase: "Running", ready: g.chance(0.7)}
		switch {
		case g.chance(0.1):
			p.owner = ""
		case g.chance(0.15):
			p.owner, p.solo = "solo", true
		}
		switch {
		case g.chance(0.1):
			p.phase, p.ready = "Pending", false
		case g.chance(0.05):
			p.phase, p.ready = g.pick("Succeeded", "Failed"), false
		}
		p.terminating = g.chance(0.1)
		if g.chance(0.15) {
			p.disruptedAgo = g.pick2(1, 60, 119, 120, 121, 300)
		}
		_ = i
		c.pods = append(c.pods, p)
	}
	for i := range 1 + b2i(g.chance(0.2)) {
		b := pdbBudget{name: fmt.Sprintf("budget-%c", 'a'+i), soloSelector: i == 1 && g.chance(0.5)}
		if g.chance(0.5) {
			b.min = g.intOrPercent()
		} else {
			b.maxUnav = g.intOrPercent()
		}
		b.policy = g.pick("", "", api.IfHealthyBudget, api.AlwaysAllow)
		b.generationBump = g.chance(0.08)
		c.budgets = append(c.budgets, b)
	}
	c.evict = g.r.IntN(max(1, len(c.pods)))
	return c
}

func (g *gen) pick2(vs ...int) int { return vs[g.r.IntN(len(vs))] }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// convergePDB builds the case in a store; the other side is built from its
// objects (so that uids and times agree).
func convergePDB(c *pdbCase) (*store.Store, error) {
	clk := clock.New(api.Epoch)
	clk.Advance(1000 * time.Second)
	s := store.New(store.Options{Clock: clk})
	must := func(o api.Object, err error) api.Object {
		if err != nil {
			panic(err)
		}
		return o
	}
	sel := func(m map[string]string) *api.LabelSelector { return &api.LabelSelector{MatchLabels: m} }
	tmpl := func(l map[string]string) api.PodTemplateSpec {
		return api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: l}, Spec: api.PodSpec{Containers: []api.Container{{Name: "app", Image: "nginx"}}}}
	}
	web := map[string]string{"app": "web"}
	d := must(s.Create(&api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: api.DeploymentSpec{Replicas: &c.replicas, Selector: sel(web), Template: tmpl(web)}})).(*api.Deployment)
	rsLabels := map[string]string{"app": "web", api.DefaultDeploymentUniqueLabelKey: "5d9c7b8f4"}
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-5d9c7b8f4", Namespace: "default", Labels: rsLabels,
		OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: d.UID, Controller: ptrTrue(), BlockOwnerDeletion: ptrTrue()}}},
		Spec: api.ReplicaSetSpec{Replicas: &c.rsReplicas, Selector: sel(rsLabels), Template: tmpl(rsLabels)}}
	if c.orphanRS {
		rs.OwnerReferences[0].UID = "gone-deployment-uid"
		rs.OwnerReferences[0].Name = "old-web"
	}
	rs = must(s.Create(rs)).(*api.ReplicaSet)
	soloLabels := map[string]string{"app": "web", "tier": "solo"}
	solo := must(s.Create(&api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "solo", Namespace: "default", Labels: soloLabels},
		Spec: api.ReplicaSetSpec{Replicas: &c.soloReplicas, Selector: sel(soloLabels), Template: tmpl(soloLabels)}})).(*api.ReplicaSet)
	now := api.NewTime(clk.Now())
	for i, cp := range c.pods {
		labels := map[string]string{"app": "web", api.DefaultDeploymentUniqueLabelKey: "5d9c7b8f4"}
		var refs []api.OwnerReference
		switch {
		case cp.solo:
			labels = soloLabels
			refs = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "solo", UID: solo.UID, Controller: ptrTrue(), BlockOwnerDeletion: ptrTrue()}}
		case cp.owner != "":
			refs = []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: ptrTrue(), BlockOwnerDeletion: ptrTrue()}}
		}
		p := must(s.Create(&api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pod-%d", i), Namespace: "default", Labels: labels, OwnerReferences: refs},
			Spec: api.PodSpec{NodeName: "node-1", Containers: []api.Container{{Name: "app", Image: "nginx"}}}})).(*api.Pod)
		p = p.DeepCopy()
		p.Status.Phase = cp.phase
		st := api.ConditionFalse
		if cp.ready {
			st = api.ConditionTrue
		}
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: st, LastTransitionTime: now}}
		must(s.UpdateStatus(p))
		if cp.terminating {
			if err := s.Delete(api.KindPod, "default", p.Name, store.DeleteOptions{}); err != nil {
				return nil, err
			}
		}
	}
	for _, b := range c.budgets {
		l := web
		if b.soloSelector {
			l = map[string]string{"tier": "solo"}
		}
		pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: b.name, Namespace: "default"},
			Spec: api.PodDisruptionBudgetSpec{Selector: sel(l), MinAvailable: b.min, MaxUnavailable: b.maxUnav}}
		if b.policy != "" {
			pol := b.policy
			pdb.Spec.UnhealthyPodEvictionPolicy = &pol
		}
		pdb = must(s.Create(pdb)).(*api.PodDisruptionBudget)
		disrupted := map[string]api.Time{}
		for i, cp := range c.pods {
			if cp.disruptedAgo > 0 {
				disrupted[fmt.Sprintf("pod-%d", i)] = api.NewTime(clk.Now().Add(-time.Duration(cp.disruptedAgo) * time.Second))
			}
		}
		if len(disrupted) > 0 {
			pdb = pdb.DeepCopy()
			pdb.Status.DisruptedPods = disrupted
			must(s.UpdateStatus(pdb))
		}
	}
	return s, nil
}

func ptrTrue() *bool { v := true; return &v }

// toV1 converts a Converge object to its Kubernetes type by its JSON.
func toV1[T any](o api.Object) *T {
	b, err := json.Marshal(o)
	if err != nil {
		panic(err)
	}
	out := new(T)
	if err := json.Unmarshal(b, out); err != nil {
		panic(err)
	}
	return out
}

// pdbLines is the budgets' statuses, one line each, without condition
// times (upstream's come from the wall clock).
func pdbLines(pdbs []policyv1.PodDisruptionBudget, base time.Time) []string {
	var out []string
	for _, p := range pdbs {
		st := p.Status
		var dis []string
		for name, at := range st.DisruptedPods {
			dis = append(dis, fmt.Sprintf("%s@%ds", name, int(at.Sub(base).Seconds())))
		}
		slices.Sort(dis)
		var conds []string
		for _, c := range st.Conditions {
			conds = append(conds, fmt.Sprintf("%s=%s/%s/%q/og%d", c.Type, c.Status, c.Reason, c.Message, c.ObservedGeneration))
		}
		out = append(out, fmt.Sprintf("%s gen=%d observed=%d healthy=%d desired=%d expected=%d allowed=%d disrupted=%v conditions=%v",
			p.Name, p.Generation, st.ObservedGeneration, st.CurrentHealthy, st.DesiredHealthy, st.ExpectedPods, st.DisruptionsAllowed, dis, conds))
	}
	slices.Sort(out)
	return out
}

// fakeScales is the scale subresource of the fake API server's
// ReplicaSets and Deployments (getScaleController's last resort).
type fakeScales struct{ client *fake.Clientset }

func (f fakeScales) Scales(ns string) scale.ScaleInterface { return fakeScale{f.client, ns} }

type fakeScale struct {
	client *fake.Clientset
	ns     string
}

func (f fakeScale) Get(ctx context.Context, gr schema.GroupResource, name string, _ metav1.GetOptions) (*autoscalingv1.Scale, error) {
	switch gr.Resource {
	case "replicasets":
		rs, err := f.client.AppsV1().ReplicaSets(f.ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		return &autoscalingv1.Scale{ObjectMeta: rs.ObjectMeta, Spec: autoscalingv1.ScaleSpec{Replicas: *rs.Spec.Replicas}}, nil
	case "deployments":
		d, err := f.client.AppsV1().Deployments(f.ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil, err
		}
		return &autoscalingv1.Scale{ObjectMeta: d.ObjectMeta, Spec: autoscalingv1.ScaleSpec{Replicas: *d.Spec.Replicas}}, nil
	}
	return nil, apierrors.NewNotFound(gr, name)
}

func (fakeScale) Update(context.Context, schema.GroupResource, *autoscalingv1.Scale, metav1.UpdateOptions) (*autoscalingv1.Scale, error) {
	panic("not used")
}

func (fakeScale) Patch(context.Context, schema.GroupVersionResource, string, types.PatchType, []byte, metav1.PatchOptions) (*autoscalingv1.Scale, error) {
	panic("not used")
}

func appsMapper() apimeta.RESTMapper {
	m := apimeta.NewDefaultRESTMapper([]schema.GroupVersion{apps.SchemeGroupVersion})
	m.Add(apps.SchemeGroupVersion.WithKind("ReplicaSet"), apimeta.RESTScopeNamespace)
	m.Add(apps.SchemeGroupVersion.WithKind("Deployment"), apimeta.RESTScopeNamespace)
	return m
}

// runPDBCase runs one case on both sides.
func runPDBCase(c *pdbCase) (string, []string, error) {
	s, err := convergePDB(c)
	if err != nil {
		return "", nil, err
	}
	base := api.Epoch
	now := s.Clock().Now()

	// Kubernetes' side, from the store's objects before the sync.
	var objs []runtime.Object
	for _, o := range s.List(api.KindDeployment) {
		objs = append(objs, toV1[apps.Deployment](o))
	}
	for _, o := range s.List(api.KindReplicaSet) {
		objs = append(objs, toV1[apps.ReplicaSet](o))
	}
	for _, o := range s.List(api.KindPod) {
		objs = append(objs, toV1[v1.Pod](o))
	}
	for _, o := range s.List(api.KindPodDisruptionBudget) {
		objs = append(objs, toV1[policyv1.PodDisruptionBudget](o))
	}
	client := fake.NewSimpleClientset(objs...)
	inf := informers.NewSharedInformerFactory(client, 0)
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer cancel()
	fc := clocktesting.NewFakeClock(now)
	dc := disruption.NewDisruptionControllerInternal(ctx, inf.Core().V1().Pods(), inf.Policy().V1().PodDisruptionBudgets(),
		inf.Core().V1().ReplicationControllers(), inf.Apps().V1().ReplicaSets(), inf.Apps().V1().Deployments(),
		inf.Apps().V1().StatefulSets(), client, appsMapper(), fakeScales{client}, client.Discovery(), fc, 2*time.Minute)
	rec := record.NewFakeRecorder(1000)
	setField(dc, "recorder", record.EventRecorder(rec))
	defer func() {
		for _, q := range []string{"queue", "recheckQueue", "stalePodDisruptionQueue"} {
			getField(dc, q).(interface{ ShutDown() }).ShutDown()
		}
		getField(dc, "broadcaster").(interface{ Shutdown() }).Shutdown()
	}()
	for _, o := range objs {
		var err error
		switch o.(type) {
		case *apps.Deployment:
			err = inf.Apps().V1().Deployments().Informer().GetIndexer().Add(o)
		case *apps.ReplicaSet:
			err = inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(o)
		case *v1.Pod:
			err = inf.Core().V1().Pods().Informer().GetIndexer().Add(o)
		case *policyv1.PodDisruptionBudget:
			err = inf.Policy().V1().PodDisruptionBudgets().Informer().GetIndexer().Add(o)
		}
		if err != nil {
			return "", nil, err
		}
	}
	for _, b := range c.budgets {
		_ = disruptionSync(dc, ctx, "default/"+b.name)
	}
	var kubeEvents []string
	for len(rec.Events) > 0 {
		kubeEvents = append(kubeEvents, <-rec.Events)
	}
	list, err := client.PolicyV1().PodDisruptionBudgets("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", nil, err
	}
	kubeStatus := pdbLines(list.Items, base)

	// Converge's side.
	cctx := &controller.Context{Store: s, KeepCalls: true}
	cdisruption.New().Sync(cctx)
	var convEvents []string
	for _, e := range cctx.Calls {
		convEvents = append(convEvents, e.Type+" "+e.Reason+" "+e.Message)
	}
	convStatus := pdbLines(convergePDBs(s), base)
	notes := []string{"syncs"}
	if d := lineDiff("kubernetes", kubeStatus, "converge", convStatus); d != "" {
		return "status after the sync:" + d, notes, nil
	}
	if d := lineDiff("kubernetes", kubeEvents, "converge", convEvents); d != "" {
		return "events of the sync:" + d, notes, nil
	}
	for _, l := range kubeStatus {
		switch {
		case strings.Contains(l, "SyncFailed"):
			notes = append(notes, "failed sync")
		case strings.Contains(l, "allowed=0"):
			notes = append(notes, "no disruption allowed")
		default:
			notes = append(notes, "disruptions allowed")
		}
	}

	// The spec edited after the sync: the status is stale.
	for _, b := range c.budgets {
		if !b.generationBump {
			continue
		}
		o, _ := s.Get(api.KindPodDisruptionBudget, "default", b.name)
		pdb := o.(*api.PodDisruptionBudget).DeepCopy()
		pdb.Spec.MinAvailable, pdb.Spec.MaxUnavailable = pdb.Spec.MaxUnavailable, pdb.Spec.MinAvailable
		if pdb.Spec.MinAvailable == nil && pdb.Spec.MaxUnavailable == nil {
			continue
		}
		o, err := s.Update(pdb)
		if err != nil {
			return "", nil, fmt.Errorf("edit %s: %w", b.name, err)
		}
		if _, err := client.PolicyV1().PodDisruptionBudgets("default").Update(ctx, toV1[policyv1.PodDisruptionBudget](o), metav1.UpdateOptions{}); err != nil {
			return "", nil, err
		}
		notes = append(notes, "spec edited after the sync")
	}

	// The eviction, of a pod that is still there (a finished pod's
	// delete is immediate).
	pods := s.Pods()
	if len(pods) == 0 {
		return "", notes, nil
	}
	o := api.Object(pods[c.evict%len(pods)])
	name := o.GetObjectMeta().Name
	var pod coreapi.Pod
	if err := legacyscheme.Scheme.Convert(toV1[v1.Pod](o), &pod, nil); err != nil {
		return "", nil, err
	}
	ms := &evictionStore{pod: &pod}
	ev := newEvictionStorage(ms, client.PolicyV1())
	rctx := genericapirequest.WithNamespace(genericapirequest.NewContext(), "default")
	res, kerr := ev.Create(rctx, name, &policyapi.Eviction{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}, nil, &metav1.CreateOptions{})
	kubeAnswer := evictionAnswer(res, kerr) + fmt.Sprintf(" deleted=%v", ms.deleted)
	list, err = client.PolicyV1().PodDisruptionBudgets("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", nil, err
	}
	kubeAfter := pdbLines(list.Items, base)

	wasTerminating := o.(*api.Pod).DeletionTimestamp != nil
	cerr := s.Evict("default", name, store.DeleteOptions{})
	deleted := false
	if after, err := s.Get(api.KindPod, "default", name); err != nil || (!wasTerminating && after.(*api.Pod).DeletionTimestamp != nil) || wasTerminating {
		deleted = cerr == nil
	}
	convAnswer := convergeAnswer(cerr) + fmt.Sprintf(" deleted=%v", deleted)
	convAfter := pdbLines(convergePDBs(s), base)
	// Upstream's eviction notes the pod in disruptedPods at the wall clock's
	// time: compare the names only.
	strip := func(ls []string) []string {
		out := slices.Clone(ls)
		for i, l := range out {
			out[i] = disruptedAt.ReplaceAllString(l, "")
		}
		return out
	}
	if kubeAnswer != convAnswer {
		return fmt.Sprintf("eviction of %s:\nkubernetes: %s\nconverge:   %s", name, kubeAnswer, convAnswer), notes, nil
	}
	if d := lineDiff("kubernetes", strip(kubeAfter), "converge", strip(convAfter)); d != "" {
		return fmt.Sprintf("budgets after the eviction of %s (%s):%s", name, kubeAnswer, d), notes, nil
	}
	notes = append(notes, "eviction "+strings.SplitN(kubeAnswer, ":", 2)[0])
	return "", notes, nil
}

// disruptedAt is the time of a disruptedPods entry in pdbLines.
var disruptedAt = regexp.MustCompile(`@-?[0-9]+s`)

func convergePDBs(s *store.Store) []policyv1.PodDisruptionBudget {
	var out []policyv1.PodDisruptionBudget
	for _, p := range s.PodDisruptionBudgets() {
		out = append(out, *toV1[policyv1.PodDisruptionBudget](p))
	}
	return out
}

// evictionAnswer is what the eviction answered: its code, message and
// causes.
func evictionAnswer(res runtime.Object, err error) string {
	if err != nil {
		if se, ok := err.(apierrors.APIStatus); ok {
			st := se.Status()
			var causes []string
			retry := int32(0)
			if st.Details != nil {
				retry = st.Details.RetryAfterSeconds
				for _, c := range st.Details.Causes {
					causes = append(causes, string(c.Type)+": "+c.Message)
				}
			}
			return fmt.Sprintf("%s: %s %v retryAfter=%d", st.Reason, st.Message, causes, retry)
		}
		return "error: " + err.Error()
	}
	if st, ok := res.(*metav1.Status); ok && st.Status != metav1.StatusSuccess {
		return fmt.Sprintf("InternalError(%d): %s [] retryAfter=0", st.Code, st.Message)
	}
	return "evicted"
}

func convergeAnswer(err error) string {
	if err == nil {
		return "evicted"
	}
	se, ok := err.(*store.StatusError)
	if !ok {
		return "error: " + err.Error()
	}
	var causes []string
	for _, c := range se.Causes {
		causes = append(causes, string(c.Type)+": "+c.Message)
	}
	reason := string(se.Reason)
	if se.Reason == store.ReasonInternalError {
		reason = "InternalError(500)"
	}
	return fmt.Sprintf("%s: %s %v retryAfter=%d", reason, se.Message, causes, se.RetryAfterSeconds)
}

// evictionStore is the pod storage the eviction subresource writes through
// (upstream's tests use a mockStore the same way): it holds one pod and
// applies the update (the DisruptionTarget condition) and the delete.
type evictionStore struct {
	rest.StandardStorage
	pod     *coreapi.Pod
	deleted bool
}

func (m *evictionStore) Get(context.Context, string, *metav1.GetOptions) (runtime.Object, error) {
	return m.pod.DeepCopy(), nil
}

func (m *evictionStore) Update(ctx context.Context, _ string, objInfo rest.UpdatedObjectInfo, _ rest.ValidateObjectFunc, _ rest.ValidateObjectUpdateFunc, _ bool, _ *metav1.UpdateOptions) (runtime.Object, bool, error) {
	obj, err := objInfo.UpdatedObject(ctx, m.pod.DeepCopy())
	if err != nil {
		return nil, false, err
	}
	m.pod = obj.(*coreapi.Pod)
	return m.pod, false, nil
}

func (m *evictionStore) Delete(context.Context, string, rest.ValidateObjectFunc, *metav1.DeleteOptions) (runtime.Object, bool, error) {
	m.deleted = true
	return m.pod, true, nil
}

func (m *evictionStore) Watch(context.Context, *metainternalversion.ListOptions) (watch.Interface, error) {
	return nil, nil
}
