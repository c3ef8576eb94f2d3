package kubectl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"converge/core/api"
)

// kubectl autoscale's texts (kubectl 1.35, pkg/cmd/autoscale).
const (
	msgAutoscaleMax          = "--max=MAXPODS is required and must be at least 1, max: %d"
	msgAutoscaleMaxBelowMin  = "--max=MAXPODS must be larger or equal to --min=MINPODS, max: %d, min: %d"
	msgAutoscaleCPUExclusive = "--cpu-percent and --cpu are mutually exclusive"
	msgAutoscaleNoObjects    = "no objects passed to autoscale"
	msgAutoscaleNoScale      = "cannot autoscale a %s: could not find scale subresource for %s, Resource=%s in discovery information"
	msgAutoscaleNoV1         = "failed to create autoscaling/v2 HPA and the configuration is incompatible with autoscaling/v1: %v"
	msgCPUPercentDeprecated  = "Flag --cpu-percent has been deprecated, Use --cpu with percentage or resource quantity format " +
		"(e.g., '70%' for utilization or '500m' for milliCPU).\n"
)

// autoscaleOpts are kubectl autoscale's AutoscaleOptions.
type autoscaleOpts struct {
	name            string
	min, max, cpuPc int32
	cpu, memory     string
}

// validate is AutoscaleOptions.Validate.
func (o autoscaleOpts) validate() error {
	if o.max < 1 {
		return &plainError{msg: fmt.Sprintf(msgAutoscaleMax, o.max)}
	}
	if o.max < o.min {
		return &plainError{msg: fmt.Sprintf(msgAutoscaleMaxBelowMin, o.max, o.min)}
	}
	if o.cpuPc > 0 && o.cpu != "" {
		return &plainError{msg: msgAutoscaleCPUExclusive}
	}
	if o.cpu != "" {
		if _, err := parseResourceTarget(o.cpu, api.ResourceCPU); err != nil {
			return &plainError{msg: err.Error()}
		}
	}
	if o.memory != "" {
		if _, err := parseResourceTarget(o.memory, api.ResourceMemory); err != nil {
			return &plainError{msg: err.Error()}
		}
	}
	return nil
}

// parseResourceTarget is autoscale's parseResourceInput: "70%" is a
// Utilization target, a quantity ("500m", "2Gi") an AverageValue one and a
// bare number a quantity in millicores (cpu) or mebibytes (memory).
func parseResourceTarget(input, resource string) (api.MetricTarget, error) {
	input = strings.TrimSpace(input)
	if input == "" {
		return api.MetricTarget{}, errors.New("empty input")
	}
	if trimmed, ok := strings.CutSuffix(input, "%"); ok {
		v, err := strconv.ParseInt(trimmed, 10, 32)
		if err != nil || v < 0 {
			return api.MetricTarget{}, fmt.Errorf("invalid percentage value: %s", trimmed)
		}
		return api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(int32(v))}, nil
	}
	if f, err := strconv.ParseFloat(input, 64); err == nil {
		unit := "m"
		if resource == api.ResourceMemory {
			unit = "Mi"
		}
		q, err := api.ParseQuantity(strconv.FormatFloat(f, 'g', -1, 64) + unit)
		if err != nil {
			return api.MetricTarget{}, err
		}
		return api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: &q}, nil
	}
	q, err := api.ParseQuantity(input)
	if err != nil {
		return api.MetricTarget{}, fmt.Errorf("invalid resource %s value: %s", resource, input)
	}
	return api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: &q}, nil
}

// hpaV2 is createHorizontalPodAutoscalerV2: no minReplicas unless --min is
// positive and no metrics unless one is given (the API server then
// defaults both: 1 and cpu at 80%).
func (o autoscaleOpts) hpaV2(rt *resourceType, ref string) *api.HorizontalPodAutoscaler {
	h := o.hpaBase(rt, ref)
	if o.cpuPc > 0 {
		h.Spec.Metrics = append(h.Spec.Metrics, resourceMetric(api.ResourceCPU,
			api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(o.cpuPc)}))
	}
	for _, m := range []struct{ name, value string }{{api.ResourceCPU, o.cpu}, {api.ResourceMemory, o.memory}} {
		if m.value == "" {
			continue
		}
		target, _ := parseResourceTarget(m.value, m.name) // validate checked it
		h.Spec.Metrics = append(h.Spec.Metrics, resourceMetric(m.name, target))
	}
	return h
}

// hpaV1 is createHorizontalPodAutoscalerV1 as the API server stores it:
// targetCPUUtilizationPercentage from --cpu-percent only (not --cpu).
func (o autoscaleOpts) hpaV1(rt *resourceType, ref string) *api.HorizontalPodAutoscaler {
	h := o.hpaBase(rt, ref)
	if o.cpuPc >= 0 {
		h.Spec.Metrics = []api.MetricSpec{resourceMetric(api.ResourceCPU,
			api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(o.cpuPc)})}
	}
	return h
}

// canV1 is canCreateHPAV1, with its quirk: without --cpu the parse of ""
// fails and the fallback is refused with "empty input".
func (o autoscaleOpts) canV1() (bool, error) {
	target, err := parseResourceTarget(o.cpu, api.ResourceCPU)
	if err != nil {
		return false, err
	}
	return (o.cpuPc >= 0 && o.memory == "") || (o.memory == "" && target.Type == api.UtilizationMetricType), nil
}

func (o autoscaleOpts) hpaBase(rt *resourceType, ref string) *api.HorizontalPodAutoscaler {
	name := o.name
	if name == "" {
		name = ref
	}
	apiVersion := rt.Version
	if rt.Group != "" {
		apiVersion = rt.Group + "/" + rt.Version
	}
	h := &api.HorizontalPodAutoscaler{TypeMeta: api.TypeMeta{APIVersion: api.GroupVersionAutoscaling, Kind: api.KindHorizontalPodAutoscaler}}
	h.Name = name
	h.Spec.ScaleTargetRef = api.CrossVersionObjectReference{APIVersion: apiVersion, Kind: rt.Kind, Name: ref}
	h.Spec.MaxReplicas = o.max
	if o.min > 0 {
		h.Spec.MinReplicas = api.Int32(o.min)
	}
	return h
}

func resourceMetric(name string, target api.MetricTarget) api.MetricSpec {
	return api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: name, Target: target}}
}

// runAutoscale is `kubectl autoscale TYPE NAME --max=N [--min=N]
// [--cpu=50%|500m] [--memory=70%|200Mi]`: an autoscaling/v2
// HorizontalPodAutoscaler for each Deployment or ReplicaSet named, printed
// "horizontalpodautoscaler.autoscaling/NAME autoscaled". When the v2 create
// fails kubectl tries autoscaling/v1, as 1.35 does (Run and handleHPA).
func runAutoscale(x *execCtx) error {
	c := x.cmd
	if c.changed("cpu-percent") {
		x.errText(msgCPUPercentDeprecated)
	}
	o := autoscaleOpts{name: c.str("name"), min: int32(c.integer("min")), max: int32(c.integer("max")),
		cpuPc: int32(c.integer("cpu-percent")), cpu: c.str("cpu"), memory: c.str("memory")}
	if err := o.validate(); err != nil {
		return err
	}
	if err := checkOutput(c.str("output"), false); err != nil {
		return err
	}
	targets, named, err := x.targetsFromArgsOrFiles(c.Args)
	if err != nil {
		return err
	}
	if !named {
		return &plainError{msg: msgNoNameSpecified}
	}
	infos, errs := x.visit(targets, everything(), false)
	if len(errs) > 0 {
		return errs[0]
	}
	count := 0
	for _, in := range infos {
		switch in.rt.Kind {
		case api.KindDeployment, api.KindReplicaSet:
		default:
			return &plainError{msg: fmt.Sprintf(msgAutoscaleNoScale, in.rt.Kind, groupVersion(in.rt), in.rt.Plural)}
		}
		if err := x.autoscaleOne(o, in); err != nil {
			return err
		}
		count++
	}
	if count == 0 {
		return &plainError{msg: msgAutoscaleNoObjects}
	}
	return nil
}

// groupVersion is schema.GroupVersionResource's "group/version" part
// ("/v1" for the core group).
func groupVersion(rt *resourceType) string { return rt.Group + "/" + rt.Version }

func (x *execCtx) autoscaleOne(o autoscaleOpts, in info) error {
	h := o.hpaV2(in.rt, in.name())
	if err := x.createHPA(h); err == nil {
		return nil
	}
	if ok, err := o.canV1(); !ok {
		return &plainError{msg: fmt.Sprintf(msgAutoscaleNoV1, err)}
	}
	return x.createHPA(o.hpaV1(in.rt, in.name()))
}

// createHPA is handleHPA: with --dry-run=client the object is only
// printed ("created (dry run)"), else created and printed "autoscaled".
func (x *execCtx) createHPA(h *api.HorizontalPodAutoscaler) error {
	rt := api.ResourceOf(h)
	if x.cmd.boolean("save-config") {
		if err := saveConfig(h); err != nil {
			return err
		}
	}
	if x.cmd.changed("namespace") {
		h.Namespace = x.ns
	}
	if x.dry == "client" {
		x.printObject(rt, h, "created")
		return nil
	}
	if h.Namespace == "" {
		h.Namespace = x.ns
	}
	created, err := x.st.Create(h)
	if err != nil {
		return err
	}
	x.printObject(rt, created, "autoscaled")
	return nil
}
