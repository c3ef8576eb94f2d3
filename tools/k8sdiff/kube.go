package k8sdiff

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	podutil "k8s.io/kubernetes/pkg/api/pod"
	internalapps "k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install" // the apps/v1 <-> internal conversions validation needs
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/utils/ptr"

	"converge/core/api"
	"converge/core/k8scase"
)

// kube is one run of Kubernetes' controller on a case: a fake clientset
// holding the case's objects, informers whose caches hold the same objects
// (never started: the caches are filled by hand), and the events recorded.
type kube struct {
	c      *k8scase.Case
	base   time.Time // the case's "now": the bubble's clock at the start
	uids   map[string]string
	client *fake.Clientset
	inf    informers.SharedInformerFactory
	rec    *record.FakeRecorder
	// creates counts pod creates, for CreateLimit.
	creates int
	// rv is the last resourceVersion handed out.
	rv int
	// exp, when set, is the ReplicaSet controller's expectations, kept
	// across syncs (TestDiffExpectations); otherwise each sync starts
	// with none.
	exp *controller.UIDTrackingControllerExpectations
}

// runKube runs one sync of Kubernetes' controller on the case, with the
// objects carrying the uids Converge gave them, and returns the outcome as
// a State read back from the fake API server. It must run in a synctest
// bubble: the controllers read the wall clock (metav1.Now, time.Now), and
// the bubble's clock stands still while nothing sleeps, so "now" is
// exactly the case's now.
func runKube(c *k8scase.Case, uids map[string]string) (*k8scase.Outcome, error) {
	k := &kube{c: c, base: time.Now().UTC(), uids: uids, rec: record.NewFakeRecorder(10000)}
	if msg := k.setup(); msg != "" {
		return &k8scase.Outcome{Rejected: msg}, nil
	}
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer cancel()
	var err error
	switch c.Controller {
	case k8scase.DeploymentController:
		err = k.syncDeployment(ctx)
	case k8scase.ReplicaSetController:
		err = k.syncReplicaSets(ctx)
	default:
		err = fmt.Errorf("unknown controller %q", c.Controller)
	}
	if err != nil && !isSyncError(err) {
		return nil, err
	}
	if now := time.Now(); !now.Equal(k.base) {
		return nil, fmt.Errorf("the bubble's clock moved during the sync (%v)", now.Sub(k.base))
	}
	out := &k8scase.Outcome{}
	out.After, err = k.state()
	if err != nil {
		return nil, err
	}
	out.Events = k.events()
	return out, nil
}

// setup builds the fake API server holding the case's objects and the
// informer factory over it; it returns the API server's refusal of an
// invalid Deployment.
func (k *kube) setup() string {
	c := k.c
	d := k.deployment()
	if msg := validate(d); msg != "" {
		return msg
	}
	objs := []runtime.Object{d}
	for _, i := range c.ReplicaSetOrder() {
		objs = append(objs, k.replicaSet(&c.ReplicaSets[i], d))
	}
	for _, i := range c.PodOrder() {
		objs = append(objs, k.pod(&c.Pods[i]))
	}
	for _, o := range objs {
		o.(metav1.Object).SetResourceVersion("1")
	}
	k.rv = 1
	k.client = fake.NewSimpleClientset(objs...)
	k.client.PrependReactor("*", "*", k.versioned)
	k.client.PrependReactor("create", "pods", k.createPod)
	k.inf = informers.NewSharedInformerFactory(k.client, 0)
	return ""
}

// syncError marks an error a sync returned: the controller would retry
// the key, and what it wrote before failing stands.
type syncError struct{ error }

func isSyncError(err error) bool { _, ok := err.(syncError); return ok }

// validate runs the API server's create validation of the Deployment and
// returns its error text, or "".
func validate(d *apps.Deployment) string {
	var internal internalapps.Deployment
	if err := legacyscheme.Scheme.Convert(d, &internal, nil); err != nil {
		return "convert: " + err.Error()
	}
	opts := podutil.GetValidationOptionsFromPodTemplate(&internal.Spec.Template, nil)
	errs := appsvalidation.ValidateDeployment(&internal, opts)
	if len(errs) == 0 {
		return ""
	}
	return apierrors.NewInvalid(schema.GroupKind{Group: "apps", Kind: "Deployment"}, d.Name, errs).Error()
}

func (k *kube) at(rel int64) metav1.Time { return metav1.NewTime(k8scase.At(k.base, rel)) }

func (k *kube) rel(t metav1.Time) int64 { return k8scase.Rel(k.base, t.Time) }

func (k *kube) deployment() *apps.Deployment {
	cd := k.c.Deployment
	d := &apps.Deployment{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: metav1.ObjectMeta{Name: cd.Name, Namespace: k8scase.Namespace, UID: types.UID(k.uids["deployment/"+cd.Name]),
			CreationTimestamp: k.at(cd.Created), Generation: max(cd.Generation, 1), Annotations: copyMap(cd.Annotations)},
		Spec: apps.DeploymentSpec{
			Replicas: ptr.To(cd.Replicas),
			Selector: &metav1.LabelSelector{MatchLabels: cd.Selector()},
			Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: cd.Selector()},
				Spec: v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: cd.Image}}}},
			Strategy:                apps.DeploymentStrategy{Type: apps.DeploymentStrategyType(cd.Strategy)},
			MinReadySeconds:         cd.MinReadySeconds,
			RevisionHistoryLimit:    copyInt32(cd.RevisionHistoryLimit),
			Paused:                  cd.Paused,
			ProgressDeadlineSeconds: copyInt32(cd.ProgressDeadlineSeconds),
		},
	}
	if cd.MaxSurge != nil || cd.MaxUnavailable != nil {
		d.Spec.Strategy.RollingUpdate = &apps.RollingUpdateDeployment{MaxSurge: intOrString(cd.MaxSurge), MaxUnavailable: intOrString(cd.MaxUnavailable)}
	}
	applyTemplate(cd.Template, &d.Spec.Template) // kube_template.go
	appsv1defaults.SetObjectDefaults_Deployment(d)
	st := &cd.Status
	d.Status = apps.DeploymentStatus{ObservedGeneration: st.ObservedGeneration, Replicas: st.Replicas,
		UpdatedReplicas: st.UpdatedReplicas, ReadyReplicas: st.ReadyReplicas, AvailableReplicas: st.AvailableReplicas,
		UnavailableReplicas: st.UnavailableReplicas, TerminatingReplicas: copyInt32(st.TerminatingReplicas),
		CollisionCount: copyInt32(st.CollisionCount)}
	for _, c := range st.Conditions {
		d.Status.Conditions = append(d.Status.Conditions, apps.DeploymentCondition{Type: apps.DeploymentConditionType(c.Type),
			Status: v1.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message,
			LastUpdateTime: k.at(c.LastUpdate), LastTransitionTime: k.at(c.LastTransition)})
	}
	return d
}

func (k *kube) replicaSet(crs *k8scase.ReplicaSet, d *apps.Deployment) *apps.ReplicaSet {
	rs := &apps.ReplicaSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "ReplicaSet"},
		ObjectMeta: metav1.ObjectMeta{Name: crs.Name, Namespace: k8scase.Namespace, UID: types.UID(k.uids["replicaset/"+crs.Name]),
			CreationTimestamp: k.at(crs.Created), Generation: max(crs.Generation, 1),
			Labels: k.c.RSMetaLabels(crs), Annotations: copyMap(crs.Annotations)},
		Spec: apps.ReplicaSetSpec{
			Replicas:        ptr.To(crs.Replicas),
			MinReadySeconds: crs.MinReadySeconds,
			Selector:        &metav1.LabelSelector{MatchLabels: k.c.RSLabels(crs.Hash)},
			Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: k.c.RSLabels(crs.Hash)},
				Spec: v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: crs.Image}}}},
		},
	}
	if !crs.Orphan {
		rs.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(d, apps.SchemeGroupVersion.WithKind("Deployment"))}
	}
	applyTemplate(crs.Template, &rs.Spec.Template)
	appsv1defaults.SetObjectDefaults_ReplicaSet(rs)
	st := &crs.Status
	rs.Status = apps.ReplicaSetStatus{Replicas: st.Replicas, FullyLabeledReplicas: st.FullyLabeledReplicas,
		ReadyReplicas: st.ReadyReplicas, AvailableReplicas: st.AvailableReplicas,
		TerminatingReplicas: copyInt32(st.TerminatingReplicas), ObservedGeneration: st.ObservedGeneration}
	for _, c := range st.Conditions {
		rs.Status.Conditions = append(rs.Status.Conditions, apps.ReplicaSetCondition{Type: apps.ReplicaSetConditionType(c.Type),
			Status: v1.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message, LastTransitionTime: k.at(c.LastTransition)})
	}
	return rs
}

func (k *kube) pod(cp *k8scase.Pod) *v1.Pod {
	p := &v1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: cp.Name, Namespace: k8scase.Namespace, UID: types.UID(k.uids["pod/"+cp.Name]),
			CreationTimestamp: k.at(cp.Created), Labels: k.c.RSLabels(cp.Hash)},
		Spec: v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: cp.Image}}, NodeName: cp.Node},
	}
	if cp.Owner != "" {
		ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: cp.Owner,
			UID: types.UID(k.uids["replicaset/"+cp.Owner]), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}
		p.OwnerReferences = []metav1.OwnerReference{ref}
	}
	if cp.DeletionCost != nil {
		p.Annotations = map[string]string{"controller.kubernetes.io/pod-deletion-cost": *cp.DeletionCost}
	}
	if cp.Terminating {
		t := k.at(k8scase.TerminationGraceSeconds)
		p.DeletionTimestamp = &t
		p.DeletionGracePeriodSeconds = ptr.To(int64(k8scase.TerminationGraceSeconds))
	}
	ready := v1.PodCondition{Type: v1.PodReady, Status: v1.ConditionFalse}
	if cp.Ready {
		ready.Status = v1.ConditionTrue
	}
	if cp.ReadySince != nil {
		ready.LastTransitionTime = k.at(*cp.ReadySince)
	}
	p.Status = v1.PodStatus{Phase: v1.PodPhase(cp.Phase), Conditions: []v1.PodCondition{ready},
		ContainerStatuses: []v1.ContainerStatus{{Name: "app", Image: cp.Image, Ready: cp.Ready, RestartCount: cp.Restarts}}}
	return p
}

// createPod is the API server's part of a pod create: it generates the
// name (the fake clientset does not), and refuses creates beyond the
// case's CreateLimit.
func (k *kube) createPod(action clienttesting.Action) (bool, runtime.Object, error) {
	p := action.(clienttesting.CreateAction).GetObject().(*v1.Pod)
	k.creates++
	if l := k.c.CreateLimit; l != nil && k.creates > *l {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, p.GenerateName, fmt.Errorf("exceeded quota"))
	}
	if p.Name == "" {
		p.Name = fmt.Sprintf("%sk8s%02d", p.GenerateName, k.creates)
	}
	return false, nil, nil
}

// versioned gives the fake API server resourceVersions, which it lacks:
// every write gets a new one. A real API server refuses an update that
// names an older resourceVersion (a Conflict), and the controller retries
// the key at once, writing the same change on the fresh object. Within one
// sync the only thing that can have changed under the controller is what
// it wrote itself from another copy: the ownerReferences of an object it
// just adopted or released, and the status it wrote a moment before. So
// the harness applies such a stale update as the retry would: rebased on
// the stored object's ownerReferences. (Applying it as sent would drop an
// adoption; refusing it would leave the rest of the sync to a second
// sync, which Converge does within its one.)
func (k *kube) versioned(action clienttesting.Action) (bool, runtime.Object, error) {
	next := func() string { k.rv++; return strconv.Itoa(k.rv) }
	switch action.GetVerb() { // by verb: CreateAction and UpdateAction are the same interface
	case "create":
		action.(clienttesting.CreateAction).GetObject().(metav1.Object).SetResourceVersion(next())
	case "update":
		a := action.(clienttesting.UpdateAction)
		obj := a.GetObject().(metav1.Object)
		stored, err := k.client.Tracker().Get(a.GetResource(), a.GetNamespace(), obj.GetName())
		if err == nil && obj.GetResourceVersion() != stored.(metav1.Object).GetResourceVersion() {
			obj.SetOwnerReferences(stored.(metav1.Object).GetOwnerReferences())
		}
		obj.SetResourceVersion(next())
	case "patch":
		a := action.(clienttesting.PatchAction)
		handled, out, err := clienttesting.ObjectReaction(k.client.Tracker())(action)
		if err != nil || !handled {
			return handled, out, err
		}
		out.(metav1.Object).SetResourceVersion(next())
		return true, out, k.client.Tracker().Update(a.GetResource(), out, a.GetNamespace())
	}
	return false, nil, nil
}

// fill puts every object of the fake API server into the informers'
// caches, as informers that are up to date would hold them.
func (k *kube) fill() error {
	ns := k8scase.Namespace
	ds, err := k.client.Tracker().List(apps.SchemeGroupVersion.WithResource("deployments"), apps.SchemeGroupVersion.WithKind("Deployment"), ns)
	if err != nil {
		return err
	}
	rss, err := k.client.Tracker().List(apps.SchemeGroupVersion.WithResource("replicasets"), apps.SchemeGroupVersion.WithKind("ReplicaSet"), ns)
	if err != nil {
		return err
	}
	pods, err := k.client.Tracker().List(v1.SchemeGroupVersion.WithResource("pods"), v1.SchemeGroupVersion.WithKind("Pod"), ns)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		list    runtime.Object
		indexer cache.Indexer
	}{
		{ds, k.inf.Apps().V1().Deployments().Informer().GetIndexer()},
		{rss, k.inf.Apps().V1().ReplicaSets().Informer().GetIndexer()},
		{pods, k.inf.Core().V1().Pods().Informer().GetIndexer()},
	} {
		items, err := listItems(f.list)
		if err != nil {
			return err
		}
		if err := f.indexer.Replace(items, ""); err != nil {
			return err
		}
	}
	return nil
}

func listItems(list runtime.Object) ([]interface{}, error) {
	var out []interface{}
	switch l := list.(type) {
	case *apps.DeploymentList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	case *apps.ReplicaSetList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	case *v1.PodList:
		for i := range l.Items {
			out = append(out, &l.Items[i])
		}
	default:
		return nil, fmt.Errorf("unexpected list %T", list)
	}
	return out, nil
}

// syncDeployment runs one syncDeployment of the case's Deployment.
func (k *kube) syncDeployment(ctx context.Context) error {
	i := k.inf.Apps().V1()
	dc, err := deployment.NewDeploymentController(ctx, i.Deployments(), i.ReplicaSets(), k.inf.Core().V1().Pods(), k.client)
	if err != nil {
		return err
	}
	setField(dc, "eventRecorder", record.EventRecorder(k.rec))
	defer shutDown(dc)
	if err := k.fill(); err != nil {
		return err
	}
	if err := syncDeployment(dc, ctx, k8scase.Namespace+"/"+k.c.Deployment.Name); err != nil {
		return syncError{err}
	}
	return nil
}

// syncReplicaSets runs one syncReplicaSet of every ReplicaSet in creation
// order, as Converge's controller syncs them in one pass, with the caches
// brought up to date between them.
func (k *kube) syncReplicaSets(ctx context.Context) error {
	broadcaster := record.NewBroadcaster(record.WithContext(ctx))
	rsc := replicaset.NewBaseController(klog.FromContext(ctx), k.inf.Apps().V1().ReplicaSets(), k.inf.Core().V1().Pods(), k.client,
		replicaset.BurstReplicas, apps.SchemeGroupVersion.WithKind("ReplicaSet"), "replicaset_controller", "replicaset",
		controller.RealPodControl{KubeClient: k.client, Recorder: k.rec}, broadcaster, replicaset.DefaultReplicaSetControllerFeatures())
	defer shutDown(rsc)
	if k.exp != nil {
		setField(rsc, "expectations", k.exp)
	}
	var firstErr error
	for _, i := range k.c.ReplicaSetOrder() {
		if err := k.fill(); err != nil {
			return err
		}
		err := syncReplicaSet(rsc, ctx, k8scase.Namespace+"/"+k.c.ReplicaSets[i].Name)
		if err != nil && firstErr == nil {
			firstErr = syncError{err}
		}
	}
	return firstErr
}

// shutDown stops a controller that was never run, as Run does when it
// returns: its work queue and event broadcaster are shut down, so that no
// goroutine outlives the case.
func shutDown(ctrl any) {
	getField(ctrl, "queue").(interface{ ShutDown() }).ShutDown()
	getField(ctrl, "eventBroadcaster").(interface{ Shutdown() }).Shutdown()
}

// getField returns an unexported field of a controller.
func getField(obj any, name string) any {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface()
}

// setField sets an unexported field of a controller (its event recorder).
func setField(obj any, name string, value any) {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(value))
}

// events drains the recorder: "Normal ScalingReplicaSet Scaled up ...".
func (k *kube) events() []k8scase.Event {
	var out []k8scase.Event
	for {
		select {
		case e := <-k.rec.Events:
			typ, rest, _ := strings.Cut(e, " ")
			reason, msg, _ := strings.Cut(rest, " ")
			out = append(out, k8scase.Event{Type: typ, Reason: reason, Message: msg})
		default:
			return out
		}
	}
}

// state reads the fake API server back as a State.
func (k *kube) state() (k8scase.State, error) {
	var st k8scase.State
	ctx := context.Background()
	ns := k8scase.Namespace
	if d, err := k.client.AppsV1().Deployments(ns).Get(ctx, k.c.Deployment.Name, metav1.GetOptions{}); err == nil {
		st.Deployment = k.dumpDeployment(d)
	} else if !apierrors.IsNotFound(err) {
		return st, err
	}
	rss, err := k.client.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return st, err
	}
	for i := range rss.Items {
		st.ReplicaSets = append(st.ReplicaSets, k.dumpReplicaSet(&rss.Items[i]))
	}
	pods, err := k.client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return st, err
	}
	for i := range pods.Items {
		st.Pods = append(st.Pods, k.dumpPod(&pods.Items[i]))
	}
	return st, nil
}

func (k *kube) dumpDeployment(d *apps.Deployment) *k8scase.Deployment {
	out := &k8scase.Deployment{Name: d.Name, Replicas: ptr.Deref(d.Spec.Replicas, 1), Strategy: string(d.Spec.Strategy.Type),
		MinReadySeconds: d.Spec.MinReadySeconds, RevisionHistoryLimit: copyInt32(d.Spec.RevisionHistoryLimit),
		ProgressDeadlineSeconds: copyInt32(d.Spec.ProgressDeadlineSeconds), Paused: d.Spec.Paused,
		Created: k.rel(d.CreationTimestamp), Generation: d.Generation, Annotations: copyMap(d.Annotations)}
	if cs := d.Spec.Template.Spec.Containers; len(cs) > 0 {
		out.Image = cs[0].Image
	}
	out.Template = templateOf(&d.Spec.Template)
	st := &d.Status
	out.Status = k8scase.DeploymentStatus{ObservedGeneration: st.ObservedGeneration, Replicas: st.Replicas,
		UpdatedReplicas: st.UpdatedReplicas, ReadyReplicas: st.ReadyReplicas, AvailableReplicas: st.AvailableReplicas,
		UnavailableReplicas: st.UnavailableReplicas, TerminatingReplicas: copyInt32(st.TerminatingReplicas),
		CollisionCount: copyInt32(st.CollisionCount)}
	for _, c := range st.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, k8scase.Condition{Type: string(c.Type), Status: string(c.Status),
			Reason: c.Reason, Message: c.Message, LastUpdate: k.rel(c.LastUpdateTime), LastTransition: k.rel(c.LastTransitionTime)})
	}
	return out
}

func (k *kube) dumpReplicaSet(rs *apps.ReplicaSet) k8scase.ReplicaSet {
	out := k8scase.ReplicaSet{Name: rs.Name, Hash: rs.Spec.Template.Labels[apps.DefaultDeploymentUniqueLabelKey],
		Replicas: ptr.Deref(rs.Spec.Replicas, 1), MinReadySeconds: rs.Spec.MinReadySeconds, Created: k.rel(rs.CreationTimestamp),
		Orphan: metav1.GetControllerOf(rs) == nil, Unmatched: rs.Labels["app"] != k.c.Deployment.Name,
		Generation: rs.Generation, Annotations: copyMap(rs.Annotations)}
	if cs := rs.Spec.Template.Spec.Containers; len(cs) > 0 {
		out.Image = cs[0].Image
	}
	out.Template = templateOf(&rs.Spec.Template)
	st := &rs.Status
	out.Status = k8scase.ReplicaSetStatus{Replicas: st.Replicas, FullyLabeledReplicas: st.FullyLabeledReplicas,
		ReadyReplicas: st.ReadyReplicas, AvailableReplicas: st.AvailableReplicas,
		TerminatingReplicas: copyInt32(st.TerminatingReplicas), ObservedGeneration: st.ObservedGeneration}
	for _, c := range st.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, k8scase.Condition{Type: string(c.Type), Status: string(c.Status),
			Reason: c.Reason, Message: c.Message, LastTransition: k.rel(c.LastTransitionTime)})
	}
	return out
}

func (k *kube) dumpPod(p *v1.Pod) k8scase.Pod {
	out := k8scase.Pod{Name: p.Name, Hash: p.Labels[apps.DefaultDeploymentUniqueLabelKey], Node: p.Spec.NodeName,
		Phase: string(p.Status.Phase), Created: k.rel(p.CreationTimestamp), Terminating: p.DeletionTimestamp != nil}
	if ref := metav1.GetControllerOf(p); ref != nil {
		out.Owner = ref.Name
	}
	if cs := p.Spec.Containers; len(cs) > 0 {
		out.Image = cs[0].Image
	}
	for _, c := range p.Status.Conditions {
		if c.Type == v1.PodReady {
			out.Ready = c.Status == v1.ConditionTrue
			if !c.LastTransitionTime.IsZero() {
				t := k.rel(c.LastTransitionTime)
				out.ReadySince = &t
			}
		}
	}
	for _, cs := range p.Status.ContainerStatuses {
		out.Restarts = max(out.Restarts, cs.RestartCount)
	}
	if v, ok := p.Annotations["controller.kubernetes.io/pod-deletion-cost"]; ok {
		out.DeletionCost = &v
	}
	return out
}

func intOrString(v *api.IntOrString) *intstr.IntOrString {
	switch {
	case v == nil:
		return nil
	case v.IsString:
		return ptr.To(intstr.FromString(v.StrVal))
	}
	return ptr.To(intstr.FromInt32(v.IntVal))
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copyInt32(p *int32) *int32 {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
