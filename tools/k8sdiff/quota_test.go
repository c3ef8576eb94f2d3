package k8sdiff

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apiserver/pkg/admission"
	"k8s.io/apiserver/pkg/admission/plugin/resourcequota"
	quotav1 "k8s.io/apiserver/pkg/quota/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	quotacore "k8s.io/kubernetes/pkg/quota/v1/evaluator/core"
	clocktesting "k8s.io/utils/clock/testing"

	"converge/core/api"
	"converge/core/quota"
	"converge/core/store"
)

// TestDiffQuota creates one pod under one to three ResourceQuotas of its
// namespace (and one of another namespace) on both sides: upstream's
// ResourceQuota admission (k8s.io/apiserver's resourcequota.CheckRequest,
// which the plugin's evaluator calls, with the pod evaluator of
// pkg/quota/v1/evaluator/core on a pod defaulted by the v1 scheme) and
// Converge's quota.Admit as the store calls it. The pods vary containers
// and init containers, requests and limits of cpu and memory (zeros,
// limits only, every quantity format), best-effort or not, an
// activeDeadlineSeconds (terminating) and a priority class; the quotas
// vary their hard resources, scopes (as validation allows them), the
// usage already counted, and a status the controller has not synced
// (missing or stale). Compared: allowed or the whole Forbidden text
// ("exceeded quota: ...", "failed quota: ...: must specify ...", "status
// unknown for quota: ..."), and the new status.used of each quota whose
// usage changed, printed as the API server prints quantities.
func TestDiffQuota(t *testing.T) {
	t.Parallel()
	f := newFamily("ResourceQuota admission (CheckRequest, pod evaluator) against core/quota")
	seed := uint64(setting("K8SDIFF_SEED", 1))
	for i := range setting("K8SDIFF_QUOTA_CASES", 3000) {
		g := newGen(seed^0x71756f7461, uint64(i)) // "quota"
		c := g.quotaCase()
		d, notes := runQuotaCase(c)
		if d != "" {
			d = fmt.Sprintf("quota-seed%d-case%d %s:%s", seed, i, c, d)
		}
		f.add(d, notes...)
	}
	f.finish(t)
}

type quotaCase struct {
	Pod    *api.Pod
	Quotas []*api.ResourceQuota
}

func (c *quotaCase) String() string {
	type q struct {
		Name   string
		Scopes []string
		Hard   string
		SHard  string
		Used   string
	}
	var qs []q
	for _, x := range c.Quotas {
		qs = append(qs, q{x.Namespace + "/" + x.Name, x.Spec.Scopes, quota.PrettyPrint(x.Spec.Hard), quota.PrettyPrint(x.Status.Hard), quota.PrettyPrint(x.Status.Used)})
	}
	type ctr struct{ Name, Req, Lim string }
	var cs []ctr
	for _, list := range [][]api.Container{c.Pod.Spec.InitContainers, c.Pod.Spec.Containers} {
		for _, x := range list {
			cs = append(cs, ctr{x.Name, quota.PrettyPrint(x.Resources.Requests), quota.PrettyPrint(x.Resources.Limits)})
		}
	}
	b, _ := json.Marshal(map[string]any{"containers": cs, "deadline": c.Pod.Spec.ActiveDeadlineSeconds,
		"priorityClass": c.Pod.Spec.PriorityClassName, "quotas": qs})
	return string(b)
}

var (
	quotaCPU = []string{"0", "1m", "100m", "250m", "0.5", "500m", "1", "1.5", "2", "1500m", "3"}
	quotaMem = []string{"0", "64Mi", "128Mi", "0.5Gi", "512Mi", "1Gi", "1G", "1e9", "1500M", "2Gi", "3Gi"}
	// quotaCompute are the hard resources a scope other than BestEffort
	// allows (ValidateResourceQuotaSpec: the scope's supported resources).
	quotaCompute = []string{"pods", "count/pods", "cpu", "memory", "requests.cpu", "requests.memory", "limits.cpu", "limits.memory"}
)

// amount returns a quantity of resource r (cpu, memory, or an object
// count) among sizes a pod or quota meets.
func (g *gen) amount(r string, scale int) string {
	switch {
	case strings.HasSuffix(r, "cpu"):
		return quotaCPU[min(len(quotaCPU)-1, g.r.IntN(len(quotaCPU))*scale/2)]
	case strings.HasSuffix(r, "memory"):
		return quotaMem[min(len(quotaMem)-1, g.r.IntN(len(quotaMem))*scale/2)]
	}
	return fmt.Sprint(g.n(0, 3*scale))
}

// container returns a container whose requests are at most its limits,
// as validation requires.
func (g *gen) quotaContainer(name string) api.Container {
	c := api.Container{Name: name, Image: "web:1"}
	complete := g.chance(0.5) // requests and limits of both: no constraint fails
	for _, r := range []string{"cpu", "memory"} {
		vals := quotaCPU
		if r == "memory" {
			vals = quotaMem
		}
		req, lim := -1, -1
		switch k := g.r.IntN(5); {
		case complete || k >= 3:
			req = g.r.IntN(len(vals))
			lim = req + g.r.IntN(len(vals)-req)
		case k == 0: // neither
		case k == 1:
			req = g.r.IntN(len(vals))
		default:
			lim = g.r.IntN(len(vals))
		}
		if req >= 0 {
			c.Resources.Requests = setQ(c.Resources.Requests, r, vals[req])
		}
		if lim >= 0 {
			c.Resources.Limits = setQ(c.Resources.Limits, r, vals[lim])
		}
	}
	return c
}

func setQ(l api.ResourceList, r, v string) api.ResourceList {
	if l == nil {
		l = api.ResourceList{}
	}
	l[r] = api.MustQuantity(v)
	return l
}

func (g *gen) quotaCase() *quotaCase {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "ns"}}
	for i := range g.n(1, 3) {
		p.Spec.Containers = append(p.Spec.Containers, g.quotaContainer(fmt.Sprintf("c%d", i)))
	}
	if g.chance(0.3) {
		for i := range g.n(1, 2) {
			p.Spec.InitContainers = append(p.Spec.InitContainers, g.quotaContainer(fmt.Sprintf("init%d", i)))
		}
	}
	if g.chance(0.3) {
		v := int64(g.n(0, 600))
		p.Spec.ActiveDeadlineSeconds = &v
	}
	if g.chance(0.2) {
		p.Spec.PriorityClassName = "high"
	}
	if g.chance(0.1) { // best effort
		for _, list := range [][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
			for i := range list {
				list[i].Resources = api.ResourceRequirements{}
			}
		}
	}
	api.SetDefaultsPod(p)
	c := &quotaCase{Pod: p}
	for i := range g.n(1, 3) {
		c.Quotas = append(c.Quotas, g.quotaObject(fmt.Sprintf("q%d", i), "ns"))
	}
	if g.chance(0.2) {
		c.Quotas = append(c.Quotas, g.quotaObject("elsewhere", "other"))
	}
	return c
}

func (g *gen) quotaObject(name, ns string) *api.ResourceQuota {
	q := &api.ResourceQuota{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, ResourceVersion: "1"}}
	allowed := append([]string{"configmaps", "services"}, quotaCompute...)
	if g.chance(0.35) {
		switch g.r.IntN(5) {
		case 0:
			q.Spec.Scopes = []string{api.QuotaScopeBestEffort}
			allowed = []string{"pods", "count/pods"}
		case 1:
			q.Spec.Scopes = []string{g.pick(api.QuotaScopeTerminating, api.QuotaScopeNotTerminating)}
		case 2:
			q.Spec.Scopes = []string{api.QuotaScopeNotBestEffort}
		case 3:
			q.Spec.Scopes = []string{api.QuotaScopePriorityClass}
		default:
			q.Spec.Scopes = []string{g.pick(api.QuotaScopeTerminating, api.QuotaScopeNotTerminating), api.QuotaScopeNotBestEffort}
		}
		allowed = slices.DeleteFunc(allowed, func(r string) bool { return r == "configmaps" || r == "services" })
	}
	q.Spec.Hard = api.ResourceList{}
	for range g.n(1, 4) {
		r := allowed[g.r.IntN(len(allowed))]
		q.Spec.Hard[r] = api.MustQuantity(g.amount(r, 2))
	}
	switch {
	case g.chance(0.05): // not synced yet
	case g.chance(0.05): // synced before a change of spec.hard
		q.Status.Hard = api.ResourceList{}
		for r, v := range q.Spec.Hard {
			if g.chance(0.7) {
				q.Status.Hard[r] = v
			}
		}
		q.Status.Hard["requests.cpu"] = api.MustQuantity(g.amount("cpu", 2))
	default:
		q.Status.Hard = q.Spec.Hard.DeepCopy()
	}
	if q.Status.Hard != nil {
		q.Status.Used = api.ResourceList{}
		for r := range q.Status.Hard {
			if g.chance(0.03) {
				continue // the controller has not counted it yet
			}
			q.Status.Used[r] = api.MustQuantity(g.amount(r, 1+g.r.IntN(2)))
		}
	}
	return q
}

var quotaNow = api.Epoch.Add(time.Hour)

func runQuotaCase(c *quotaCase) (string, []string) {
	// Converge: the store's admission, its Forbidden text.
	conv, convChanged := "allowed", map[string]string{}
	changed, err := quota.Admit(c.Quotas, c.Pod.DeepCopy(), quotaNow)
	if err != nil {
		conv = store.NewForbidden(api.KindPod, c.Pod.Name, err.Error()).Error()
	} else {
		for _, q := range changed {
			convChanged[q.Name] = quota.PrettyPrint(q.Status.Used)
		}
	}

	// Kubernetes: the pod as the API server admits it (v1 defaults), the
	// quotas of its namespace.
	pod := toV1[v1.Pod](c.Pod)
	legacyscheme.Scheme.Default(pod)
	var quotas []v1.ResourceQuota
	for _, q := range c.Quotas {
		if q.Namespace == pod.Namespace {
			quotas = append(quotas, *toV1[v1.ResourceQuota](q))
		}
	}
	attrs := admission.NewAttributesRecord(pod, nil, v1.SchemeGroupVersion.WithKind("Pod"), pod.Namespace, pod.Name,
		v1.SchemeGroupVersion.WithResource("pods"), "", admission.Create, &metav1.CreateOptions{}, false, nil)
	ev := quotacore.NewPodEvaluator(nil, clocktesting.NewFakeClock(quotaNow))
	kube, kubeChanged := "allowed", map[string]string{}
	out, err := resourcequota.CheckRequest(quotas, attrs, ev, nil)
	if err != nil {
		kube = err.Error()
	} else {
		for i := range out {
			if !quotav1.Equals(out[i].Status.Used, quotas[i].Status.Used) {
				kubeChanged[out[i].Name] = kubePretty(out[i].Status.Used)
			}
		}
	}

	notes := []string{outcomeNote(kube)}
	if pod.Spec.ActiveDeadlineSeconds != nil {
		notes = append(notes, "terminating pod")
	}
	if api.QOSClass(&c.Pod.Spec) == api.QOSBestEffort {
		notes = append(notes, "best-effort pod")
	}
	for _, q := range c.Quotas {
		if len(q.Spec.Scopes) > 0 {
			notes = append(notes, "scoped quota")
			break
		}
	}
	if kube != conv {
		return fmt.Sprintf("\nkubernetes: %s\nconverge:   %s", kube, conv), notes
	}
	k, cv := fmt.Sprint(kubeChanged), fmt.Sprint(convChanged)
	if k != cv {
		return fmt.Sprintf("\nkubernetes used: %s\nconverge used:   %s", k, cv), notes
	}
	return "", notes
}

func outcomeNote(text string) string {
	for _, s := range []string{"exceeded quota", "must specify", "status unknown", "allowed"} {
		if strings.Contains(text, s) {
			return s
		}
	}
	return "other error"
}

// kubePretty is the admission plugin's prettyPrint.
func kubePretty(l v1.ResourceList) string {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, string(k))
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		v := l[v1.ResourceName(k)]
		parts[i] = k + "=" + v.String()
	}
	return strings.Join(parts, ",")
}
