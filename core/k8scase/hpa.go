package k8scase

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/controller"
	"converge/core/controller/podautoscaler"
	"converge/core/labels"
	"converge/core/store"
)

// HPACase is one input of the HPA differential test: an autoscaling/v2
// HorizontalPodAutoscaler "web" scaling the Deployment "web", the pods its
// selector (app=web) matches, and a run of syncs, each with the metrics
// the resource metrics API returns then. Times are whole seconds relative
// to the first sync (0). Both sides run their HPA controller's reconcile
// once per sync, in order, keeping what the controller remembers between
// syncs (recommendations, scale events), and read back the HPA's status,
// the target's replicas and the events after each.
type HPACase struct {
	Name string `json:"name,omitempty"`
	// Replicas and StatusReplicas are the target's scale before the first sync.
	Replicas       int32  `json:"replicas"`
	StatusReplicas int32  `json:"statusReplicas"`
	MinReplicas    *int32 `json:"minReplicas,omitempty"`
	MaxReplicas    int32  `json:"maxReplicas"`
	// Metrics are the HPA's Resource metrics (none: the default, cpu at 80%).
	Metrics  []HPAMetric                          `json:"metrics,omitempty"`
	Behavior *api.HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
	Pods     []HPAPod                             `json:"pods,omitempty"`
	Syncs    []HPASync                            `json:"syncs"`
	// Second, when set, is a second HPA "api" scaling the Deployment
	// "api", whose scale's selector may select some of the same pods:
	// each HPA then finds them controlled by both (AmbiguousSelector).
	Second *HPASecond `json:"second,omitempty"`
}

// HPASecond is the second HPA of a case: its target's selector ("app=web",
// "tier=front" or "app=api"), scale and maxReplicas (metrics: the default,
// cpu at 80%), and whether it is reconciled before "web" in each sync.
type HPASecond struct {
	Selector    string `json:"selector"`
	Replicas    int32  `json:"replicas"`
	MaxReplicas int32  `json:"maxReplicas"`
	First       bool   `json:"first,omitempty"`
}

// HPAEdit is the HPA "web"'s spec as the user edits it before a sync.
type HPAEdit struct {
	MinReplicas *int32                               `json:"minReplicas,omitempty"`
	MaxReplicas int32                                `json:"maxReplicas"`
	Metrics     []HPAMetric                          `json:"metrics,omitempty"`
	Behavior    *api.HorizontalPodAutoscalerBehavior `json:"behavior,omitempty"`
}

// HPAMetric is one Resource metric: cpu or memory, with a Utilization
// target or an AverageValue one (a quantity).
type HPAMetric struct {
	Resource     string `json:"resource"`
	Utilization  *int32 `json:"utilization,omitempty"`
	AverageValue string `json:"averageValue,omitempty"`
}

// HPAPod is one pod: its single container's requests ("" for none), its
// phase, its Ready condition ("True", "False" or "" for none) and when it
// last changed, its start time (nil for none) and whether it is being
// deleted.
type HPAPod struct {
	Name       string `json:"name"`
	CPU        string `json:"cpu,omitempty"`
	Memory     string `json:"memory,omitempty"`
	Phase      string `json:"phase"`
	Ready      string `json:"ready,omitempty"`
	ReadySince int64  `json:"readySince,omitempty"`
	Start      *int64 `json:"start,omitempty"`
	Deleting   bool   `json:"deleting,omitempty"`
	// Tier adds the label tier=front.
	Tier bool `json:"tier,omitempty"`
}

// HPASync is one sync: when, the target's spec.replicas set just before
// (as a kubectl scale would), and the metrics API's answer.
type HPASync struct {
	At       int64          `json:"at"`
	Replicas *int32         `json:"replicas,omitempty"`
	Metrics  []HPAPodMetric `json:"metrics,omitempty"`
	// Edit is the HPA's spec edited just before the sync; AddPods are
	// pods that appear just before it (a rescale's new pods).
	Edit    *HPAEdit `json:"edit,omitempty"`
	AddPods []HPAPod `json:"addPods,omitempty"`
}

// HPAPodMetric is one pod's sample: usage in milli-units, measured over
// Window seconds ending Age seconds before the sync.
type HPAPodMetric struct {
	Pod    string `json:"pod"`
	CPU    int64  `json:"cpu"`
	Memory int64  `json:"memory"`
	Age    int64  `json:"age,omitempty"`
	Window int64  `json:"window"`
}

// HPAOutcome is what one sync left: the target's spec.replicas, the HPA's
// status and the sync's events.
type HPAOutcome struct {
	Replicas int32     `json:"replicas"`
	Status   HPAStatus `json:"status"`
	Events   []Event   `json:"events,omitempty"`
	// Second is the second HPA's outcome of the same sync.
	Second *HPAOutcome `json:"second,omitempty"`
}

// HPAStatus is the HPA's status, normalized: metrics rendered as text,
// times relative to the first sync.
type HPAStatus struct {
	CurrentReplicas int32       `json:"currentReplicas"`
	DesiredReplicas int32       `json:"desiredReplicas"`
	LastScale       *int64      `json:"lastScale,omitempty"`
	Metrics         []string    `json:"metrics,omitempty"`
	Conditions      []Condition `json:"conditions,omitempty"`
}

// HPAObject is the case's HPA as Converge's API types have it (before
// defaulting).
func (c *HPACase) HPAObject() *api.HorizontalPodAutoscaler {
	h := &api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: Namespace}}
	h.Spec.ScaleTargetRef = api.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: api.KindDeployment, Name: "web"}
	c.apply(&HPAEdit{MinReplicas: c.MinReplicas, MaxReplicas: c.MaxReplicas, Metrics: c.Metrics, Behavior: c.Behavior}, &h.Spec)
	return h
}

// SecondObject is the second HPA, "api" (nil without one).
func (c *HPACase) SecondObject() *api.HorizontalPodAutoscaler {
	if c.Second == nil {
		return nil
	}
	h := &api.HorizontalPodAutoscaler{ObjectMeta: api.ObjectMeta{Name: "api", Namespace: Namespace}}
	h.Spec.ScaleTargetRef = api.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: api.KindDeployment, Name: "api"}
	h.Spec.MaxReplicas = c.Second.MaxReplicas
	return h
}

// apply sets the spec an edit describes.
func (c *HPACase) apply(e *HPAEdit, spec *api.HorizontalPodAutoscalerSpec) {
	spec.MinReplicas = e.MinReplicas
	spec.MaxReplicas = e.MaxReplicas
	spec.Metrics = nil
	spec.Behavior = nil
	for _, m := range e.Metrics {
		t := api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: m.Utilization}
		if m.AverageValue != "" {
			q := api.MustQuantity(m.AverageValue)
			t = api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: &q}
		}
		spec.Metrics = append(spec.Metrics, api.MetricSpec{Type: api.ResourceMetricSourceType,
			Resource: &api.ResourceMetricSource{Name: m.Resource, Target: t}})
	}
	if e.Behavior != nil {
		spec.Behavior = &api.HorizontalPodAutoscalerBehavior{ScaleUp: e.Behavior.ScaleUp.DeepCopy(), ScaleDown: e.Behavior.ScaleDown.DeepCopy()}
	}
}

// RunHPA runs the case's syncs with Converge's HPA controller and returns
// the outcome of each; an HPA the API server refuses is the error.
func RunHPA(c *HPACase) ([]HPAOutcome, error) {
	base := api.Epoch.Add(time.Hour)
	clk := clock.New(base)
	st := store.New(store.Options{Clock: clk, Seed: 1})
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: Namespace}}
	d.Spec.Replicas = api.Int32(c.Replicas)
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "app", Image: "app:1"}}
	created, err := st.Create(d)
	if err != nil {
		return nil, err
	}
	dep := created.(*api.Deployment).DeepCopy()
	dep.Status.Replicas = c.StatusReplicas
	if _, err := st.UpdateStatus(dep); err != nil {
		return nil, err
	}
	if c.Second != nil {
		if err := createSecondTarget(st, c.Second); err != nil {
			return nil, err
		}
	}
	for _, cp := range c.Pods {
		if err := createHPAPod(st, cp, base); err != nil {
			return nil, err
		}
	}
	names := []string{"web"}
	for _, h := range []*api.HorizontalPodAutoscaler{c.HPAObject(), c.SecondObject()} {
		if h == nil {
			continue
		}
		if _, err := st.Create(h); err != nil {
			return nil, err
		}
	}
	if c.Second != nil {
		names = append(names, "api")
		if c.Second.First {
			names = []string{"api", "web"}
		}
	}
	ctl := podautoscaler.New()
	var out []HPAOutcome
	for _, sy := range c.Syncs {
		clk.Advance(At(base, sy.At).Sub(clk.Now()))
		if sy.Replicas != nil {
			if _, err := st.UpdateScale(api.KindDeployment, Namespace, "web", *sy.Replicas, ""); err != nil {
				return nil, err
			}
		}
		if sy.Edit != nil {
			h, err := st.GetHorizontalPodAutoscaler(Namespace, "web")
			if err != nil {
				return nil, err
			}
			h = h.DeepCopy()
			c.apply(sy.Edit, &h.Spec)
			if _, err := st.Update(h); err != nil {
				return nil, err
			}
		}
		for _, cp := range sy.AddPods {
			if err := createHPAPod(st, cp, base); err != nil {
				return nil, err
			}
		}
		outcomes := map[string]*HPAOutcome{}
		for _, name := range names {
			ctx := &controller.Context{Store: st, Log: &controller.SyncLog{}, Metrics: caseMetrics{sync: sy, base: base}, KeepCalls: true}
			h, err := st.GetHorizontalPodAutoscaler(Namespace, name)
			if err != nil {
				return nil, err
			}
			ctl.SyncNow(ctx, h)
			o := &HPAOutcome{}
			h, _ = st.GetHorizontalPodAutoscaler(Namespace, name)
			o.Status = DumpHPAStatus(&h.Status, base)
			for _, e := range ctx.Calls { // as the controller asked, before the recorder's correlation
				if e.Source == podautoscaler.Component {
					o.Events = append(o.Events, Event{Type: e.Type, Reason: e.Reason, Message: e.Message})
				}
			}
			outcomes[name] = o
		}
		for name, o := range outcomes {
			dd, _ := st.GetDeployment(Namespace, name)
			o.Replicas = api.Deref(dd.Spec.Replicas, 1)
		}
		o := outcomes["web"]
		o.Second = outcomes["api"]
		out = append(out, *o)
	}
	return out, nil
}

// createSecondTarget creates the Deployment "api" whose selector is the
// second HPA's.
func createSecondTarget(st *store.Store, s *HPASecond) error {
	k, v, _ := strings.Cut(s.Selector, "=")
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "api", Namespace: Namespace}}
	d.Spec.Replicas = api.Int32(s.Replicas)
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{k: v}}
	d.Spec.Template.Labels = map[string]string{k: v}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "app", Image: "app:1"}}
	created, err := st.Create(d)
	if err != nil {
		return err
	}
	dep := created.(*api.Deployment).DeepCopy()
	dep.Status.Replicas = s.Replicas
	_, err = st.UpdateStatus(dep)
	return err
}

func createHPAPod(st *store.Store, cp HPAPod, base time.Time) error {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: cp.Name, Namespace: Namespace, Labels: map[string]string{"app": "web"}}}
	if cp.Tier {
		p.Labels["tier"] = "front"
	}
	p.Spec.NodeName = "node-1"
	ct := api.Container{Name: "app", Image: "app:1"}
	for res, q := range map[string]string{api.ResourceCPU: cp.CPU, api.ResourceMemory: cp.Memory} {
		if q != "" {
			if ct.Resources.Requests == nil {
				ct.Resources.Requests = api.ResourceList{}
			}
			ct.Resources.Requests[res] = api.MustQuantity(q)
		}
	}
	p.Spec.Containers = []api.Container{ct}
	p.Status.Phase = cp.Phase
	if cp.Ready != "" {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: cp.Ready, LastTransitionTime: api.NewTime(At(base, cp.ReadySince))}}
	}
	if cp.Start != nil {
		p.Status.StartTime = api.NewTimePtr(At(base, *cp.Start))
	}
	if _, err := st.Create(p); err != nil {
		return err
	}
	if cp.Deleting {
		return st.Delete(api.KindPod, Namespace, cp.Name, store.DeleteOptions{})
	}
	return nil
}

// caseMetrics is the metrics API of one sync.
type caseMetrics struct {
	sync HPASync
	base time.Time
}

func (m caseMetrics) PodMetrics(namespace string, sel labels.Selector) []controller.PodMetrics {
	var out []controller.PodMetrics
	now := At(m.base, m.sync.At)
	for _, pm := range m.sync.Metrics {
		out = append(out, controller.PodMetrics{Namespace: namespace, Name: pm.Pod, Timestamp: now.Add(-time.Duration(pm.Age) * time.Second),
			Window: time.Duration(pm.Window) * time.Second, CPU: pm.CPU, Memory: pm.Memory})
	}
	return out
}

// DumpHPAStatus normalizes an HPA status.
func DumpHPAStatus(s *api.HorizontalPodAutoscalerStatus, base time.Time) HPAStatus {
	out := HPAStatus{CurrentReplicas: s.CurrentReplicas, DesiredReplicas: s.DesiredReplicas}
	if s.LastScaleTime != nil {
		t := Rel(base, s.LastScaleTime.Time)
		out.LastScale = &t
	}
	for _, m := range s.CurrentMetrics {
		out.Metrics = append(out.Metrics, MetricText(m.Type, m.Resource))
	}
	for _, c := range s.Conditions {
		out.Conditions = append(out.Conditions, Condition{Type: c.Type, Status: c.Status, Reason: c.Reason, Message: c.Message,
			LastTransition: Rel(base, c.LastTransitionTime.Time)})
	}
	sort.SliceStable(out.Conditions, func(i, j int) bool { return out.Conditions[i].Type < out.Conditions[j].Type })
	return out
}

// MetricText renders one status metric: "" for an empty one (a metric that
// failed), "cpu util=150 avg=150m" otherwise.
func MetricText(typ string, r *api.ResourceMetricStatus) string {
	if r == nil {
		return typ
	}
	parts := []string{r.Name}
	if u := r.Current.AverageUtilization; u != nil {
		parts = append(parts, "util="+strconv.Itoa(int(*u)))
	}
	if v := r.Current.AverageValue; v != nil {
		parts = append(parts, "avg="+v.String())
	}
	return strings.Join(parts, " ")
}

// HPADiff lists the differences of two runs' outcomes, sync by sync.
func HPADiff(converge, kube []HPAOutcome) []string {
	var out []string
	if len(converge) != len(kube) {
		return []string{fmt.Sprintf("syncs: converge %d, kube %d", len(converge), len(kube))}
	}
	for i := range converge {
		a, b := converge[i], kube[i]
		if a.Replicas != b.Replicas {
			out = append(out, fmt.Sprintf("sync %d: replicas: converge %d, kube %d", i, a.Replicas, b.Replicas))
		}
		if x, y := jsonOf(a.Status), jsonOf(b.Status); x != y {
			out = append(out, fmt.Sprintf("sync %d: status:\n    converge %s\n    kube     %s", i, x, y))
		}
		if x, y := jsonOf(a.Events), jsonOf(b.Events); x != y {
			out = append(out, fmt.Sprintf("sync %d: events:\n    converge %s\n    kube     %s", i, x, y))
		}
		if x, y := jsonOf(a.Second), jsonOf(b.Second); x != y {
			out = append(out, fmt.Sprintf("sync %d: the second HPA:\n    converge %s\n    kube     %s", i, x, y))
		}
	}
	return out
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}
