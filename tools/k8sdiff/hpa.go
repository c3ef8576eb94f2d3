package k8sdiff

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unsafe"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta/testrestmapper"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	scalefake "k8s.io/client-go/scale/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/autoscaling/install" // the scale and HPA kinds of the REST mapper
	autoscalingv2defaults "k8s.io/kubernetes/pkg/apis/autoscaling/v2"
	"k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
	"k8s.io/kubernetes/pkg/controller/podautoscaler/monitor"
	"k8s.io/kubernetes/pkg/controller/util/selectors"
	"k8s.io/utils/ptr"

	"converge/core/k8scase"
)

// hpaKube is one run of Kubernetes' HPA controller on an HPA case: a
// HorizontalController put together field by field (its constructor starts
// an event broadcaster that would outlive the bubble), a fake clientset
// holding the HPA, a fake scale client holding the target's scale, a pod
// lister and a metrics client answering from the case.
type hpaKube struct {
	c        *k8scase.HPACase
	base     time.Time
	replicas int32 // the target's spec.replicas
	second   int32 // the second target's spec.replicas
	sync     int   // the current sync
	client   *fake.Clientset
	rec      *record.FakeRecorder
}

// runKubeHPA runs the case's syncs with Kubernetes' controller (in a
// synctest bubble, whose clock the harness advances between syncs by
// sleeping) and returns the outcome of each.
func runKubeHPA(c *k8scase.HPACase) ([]k8scase.HPAOutcome, error) {
	k := &hpaKube{c: c, base: time.Now().UTC(), replicas: c.Replicas, rec: record.NewFakeRecorder(1000)}
	objs := []runtime.Object{k.hpa()}
	names := []string{"web"}
	if c.Second != nil {
		k.second = c.Second.Replicas
		objs = append(objs, k.secondHPA())
		names = append(names, "api")
		if c.Second.First {
			names = []string{"api", "web"}
		}
	}
	k.client = fake.NewSimpleClientset(objs...)
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, p := range c.Pods {
		if err := pods.Add(k.pod(p)); err != nil {
			return nil, err
		}
	}
	scales := &scalefake.FakeScaleClient{}
	scales.AddReactor("get", "deployments", func(a clienttesting.Action) (bool, runtime.Object, error) {
		name := a.(clienttesting.GetAction).GetName()
		sc := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: k8scase.Namespace},
			Spec:   autoscalingv1.ScaleSpec{Replicas: k.replicas},
			Status: autoscalingv1.ScaleStatus{Replicas: c.StatusReplicas, Selector: "app=web"}}
		if name == "api" {
			sc.Spec.Replicas, sc.Status.Replicas, sc.Status.Selector = k.second, c.Second.Replicas, c.Second.Selector
		}
		return true, sc, nil
	})
	scales.AddReactor("update", "deployments", func(a clienttesting.Action) (bool, runtime.Object, error) {
		s := a.(clienttesting.UpdateAction).GetObject().(*autoscalingv1.Scale)
		if s.Name == "api" {
			k.second = s.Spec.Replicas
		} else {
			k.replicas = s.Spec.Replicas
		}
		return true, s, nil
	})

	a := &podautoscaler.HorizontalController{}
	setField(a, "eventRecorder", record.EventRecorder(k.rec))
	setField(a, "scaleNamespacer", any(scales))
	setField(a, "hpaNamespacer", any(k.client.AutoscalingV2()))
	setField(a, "mapper", testrestmapper.TestOnlyStaticRESTMapper(legacyscheme.Scheme))
	setField(a, "tolerance", 0.1)
	setField(a, "downscaleStabilisationWindow", 5*time.Minute)
	setField(a, "monitor", monitor.New())
	podLister := corelisters.NewPodLister(pods)
	setField(a, "podLister", podLister)
	setField(a, "replicaCalc", podautoscaler.NewReplicaCalculator(metricsFromCase{k}, podLister, 5*time.Minute, 30*time.Second))
	setRecommendations(a)
	sel := selectors.NewBiMultimap()
	for _, name := range names {
		sel.PutSelector(selectors.Key{Name: name, Namespace: k8scase.Namespace}, labels.Nothing()) // as enqueueHPA does
	}
	setField(a, "hpaSelectors", sel)

	var out []k8scase.HPAOutcome
	for i, sy := range c.Syncs {
		k.sync = i
		if d := k.base.Add(time.Duration(sy.At) * time.Second).Sub(time.Now()); d > 0 {
			time.Sleep(d)
		}
		if sy.Replicas != nil {
			k.replicas = *sy.Replicas
		}
		hpas := k.client.AutoscalingV2().HorizontalPodAutoscalers(k8scase.Namespace)
		if sy.Edit != nil {
			cur, err := hpas.Get(context.Background(), "web", metav1.GetOptions{})
			if err != nil {
				return nil, err
			}
			cur.Spec = k.spec("web", sy.Edit).Spec
			if _, err := hpas.Update(context.Background(), cur, metav1.UpdateOptions{}); err != nil {
				return nil, err
			}
		}
		for _, p := range sy.AddPods {
			if err := pods.Add(k.pod(p)); err != nil {
				return nil, err
			}
		}
		outcomes := map[string]*k8scase.HPAOutcome{}
		for _, name := range names {
			cur, err := hpas.Get(context.Background(), name, metav1.GetOptions{})
			if err != nil {
				return nil, err
			}
			_ = reconcileAutoscaler(a, context.Background(), cur, k8scase.Namespace+"/"+name)
			after, err := hpas.Get(context.Background(), name, metav1.GetOptions{})
			if err != nil {
				return nil, err
			}
			outcomes[name] = &k8scase.HPAOutcome{Status: k.status(&after.Status), Events: k.events()}
		}
		o := outcomes["web"]
		o.Replicas = k.replicas
		if s := outcomes["api"]; s != nil {
			s.Replicas = k.second
			o.Second = s
		}
		out = append(out, *o)
	}
	return out, nil
}

// setRecommendations gives the controller its empty memories, as its
// constructor does.
func setRecommendations(a *podautoscaler.HorizontalController) {
	for _, name := range []string{"recommendations", "scaleUpEvents", "scaleDownEvents"} {
		f := fieldOf(a, name)
		f.Set(reflectMakeMap(f.Type()))
	}
}

// hpa is the case's HPA in Kubernetes' types, defaulted as the API server
// would (SetObjectDefaults_HorizontalPodAutoscaler).
func (k *hpaKube) hpa() *autoscalingv2.HorizontalPodAutoscaler {
	c := k.c
	return k.spec("web", &k8scase.HPAEdit{MinReplicas: c.MinReplicas, MaxReplicas: c.MaxReplicas, Metrics: c.Metrics, Behavior: c.Behavior})
}

// secondHPA is the case's second HPA, "api", defaulted.
func (k *hpaKube) secondHPA() *autoscalingv2.HorizontalPodAutoscaler {
	return k.spec("api", &k8scase.HPAEdit{MaxReplicas: k.c.Second.MaxReplicas})
}

// spec is an HPA named name scaling the Deployment of the same name with
// the spec e describes, defaulted.
func (k *hpaKube) spec(name string, c *k8scase.HPAEdit) *autoscalingv2.HorizontalPodAutoscaler {
	h := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: k8scase.Namespace, UID: types.UID(name + "-uid"),
		CreationTimestamp: metav1.NewTime(k.base)}}
	h.Spec.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: name}
	h.Spec.MinReplicas = c.MinReplicas
	h.Spec.MaxReplicas = c.MaxReplicas
	for _, m := range c.Metrics {
		t := autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: m.Utilization}
		if m.AverageValue != "" {
			q := resource.MustParse(m.AverageValue)
			t = autoscalingv2.MetricTarget{Type: autoscalingv2.AverageValueMetricType, AverageValue: &q}
		}
		h.Spec.Metrics = append(h.Spec.Metrics, autoscalingv2.MetricSpec{Type: autoscalingv2.ResourceMetricSourceType,
			Resource: &autoscalingv2.ResourceMetricSource{Name: v1.ResourceName(m.Resource), Target: t}})
	}
	if c.Behavior != nil {
		// Converge's types have Kubernetes' JSON shape.
		b, _ := json.Marshal(c.Behavior)
		h.Spec.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{}
		_ = json.Unmarshal(b, h.Spec.Behavior)
	}
	autoscalingv2defaults.SetObjectDefaults_HorizontalPodAutoscaler(h)
	return h
}

func (k *hpaKube) at(rel int64) metav1.Time {
	return metav1.NewTime(k.base.Add(time.Duration(rel) * time.Second))
}

func (k *hpaKube) pod(cp k8scase.HPAPod) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: cp.Name, Namespace: k8scase.Namespace, Labels: map[string]string{"app": "web"}}}
	if cp.Tier {
		p.Labels["tier"] = "front"
	}
	ct := v1.Container{Name: "app", Image: "app:1", Resources: v1.ResourceRequirements{Requests: v1.ResourceList{}}}
	if cp.CPU != "" {
		ct.Resources.Requests[v1.ResourceCPU] = resource.MustParse(cp.CPU)
	}
	if cp.Memory != "" {
		ct.Resources.Requests[v1.ResourceMemory] = resource.MustParse(cp.Memory)
	}
	p.Spec.Containers = []v1.Container{ct}
	p.Spec.NodeName = "node-1"
	p.Status.Phase = v1.PodPhase(cp.Phase)
	if cp.Ready != "" {
		p.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionStatus(cp.Ready), LastTransitionTime: k.at(cp.ReadySince)}}
	}
	if cp.Start != nil {
		t := k.at(*cp.Start)
		p.Status.StartTime = &t
	}
	if cp.Deleting {
		t := k.at(30)
		p.DeletionTimestamp = &t
		p.DeletionGracePeriodSeconds = ptr.To[int64](30)
	}
	return p
}

// metricsFromCase is the metrics client: the current sync's samples.
type metricsFromCase struct{ k *hpaKube }

var _ metricsclient.MetricsClient = metricsFromCase{}

// GetResourceMetric is the resource metrics client's: the pods' samples
// (summed over containers, here one), or "no metrics returned" when there
// are none; the timestamp is the first sample's.
func (m metricsFromCase) GetResourceMetric(_ context.Context, resource v1.ResourceName, _ string, _ labels.Selector, _ string) (metricsclient.PodMetricsInfo, time.Time, error) {
	sy := m.k.c.Syncs[m.k.sync]
	if len(sy.Metrics) == 0 {
		return nil, time.Time{}, fmt.Errorf("no metrics returned from resource metrics API")
	}
	now := m.k.base.Add(time.Duration(sy.At) * time.Second)
	out := metricsclient.PodMetricsInfo{}
	var first time.Time
	for i, pm := range sy.Metrics {
		ts := now.Add(-time.Duration(pm.Age) * time.Second)
		if i == 0 {
			first = ts
		}
		v := pm.CPU
		if resource == v1.ResourceMemory {
			v = pm.Memory
		}
		out[pm.Pod] = metricsclient.PodMetric{Timestamp: ts, Window: time.Duration(pm.Window) * time.Second, Value: v}
	}
	return out, first, nil
}

func (metricsFromCase) GetRawMetric(string, string, labels.Selector, labels.Selector) (metricsclient.PodMetricsInfo, time.Time, error) {
	return nil, time.Time{}, fmt.Errorf("not simulated")
}

func (metricsFromCase) GetObjectMetric(string, string, *autoscalingv2.CrossVersionObjectReference, labels.Selector) (int64, time.Time, error) {
	return 0, time.Time{}, fmt.Errorf("not simulated")
}

func (metricsFromCase) GetExternalMetric(string, string, labels.Selector) ([]int64, time.Time, error) {
	return nil, time.Time{}, fmt.Errorf("not simulated")
}

// status normalizes the HPA status as k8scase.DumpHPAStatus does.
func (k *hpaKube) status(s *autoscalingv2.HorizontalPodAutoscalerStatus) k8scase.HPAStatus {
	out := k8scase.HPAStatus{CurrentReplicas: s.CurrentReplicas, DesiredReplicas: s.DesiredReplicas}
	if s.LastScaleTime != nil {
		t := int64(s.LastScaleTime.Sub(k.base) / time.Second)
		out.LastScale = &t
	}
	for _, m := range s.CurrentMetrics {
		if m.Resource == nil {
			out.Metrics = append(out.Metrics, string(m.Type))
			continue
		}
		parts := []string{string(m.Resource.Name)}
		if u := m.Resource.Current.AverageUtilization; u != nil {
			parts = append(parts, fmt.Sprintf("util=%d", *u))
		}
		if v := m.Resource.Current.AverageValue; v != nil {
			parts = append(parts, "avg="+v.String())
		}
		out.Metrics = append(out.Metrics, strings.Join(parts, " "))
	}
	for _, c := range s.Conditions {
		out.Conditions = append(out.Conditions, k8scase.Condition{Type: string(c.Type), Status: string(c.Status), Reason: c.Reason,
			Message: c.Message, LastTransition: int64(c.LastTransitionTime.Sub(k.base) / time.Second)})
	}
	sortConditions(out.Conditions)
	return out
}

func sortConditions(cs []k8scase.Condition) {
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].Type < cs[j-1].Type; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
}

// events drains the recorder.
func (k *hpaKube) events() []k8scase.Event {
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

// fieldOf is an unexported field of a controller, settable.
func fieldOf(obj any, name string) reflect.Value {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

func reflectMakeMap(t reflect.Type) reflect.Value { return reflect.MakeMap(t) }
