package podautoscaler

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/humanize"
	"converge/core/labels"
	"converge/core/store"
)

// Component is the HPA controller's name, the one its events carry
// (horizontal.go's event source) and its sync records.
const Component = "horizontal-pod-autoscaler"

// Defaults of kube-controller-manager's HPA flags.
const (
	// DefaultSyncPeriod is --horizontal-pod-autoscaler-sync-period.
	DefaultSyncPeriod = 15 * time.Second
	// DefaultDownscaleStabilization is --horizontal-pod-autoscaler-downscale-stabilization.
	DefaultDownscaleStabilization = 5 * time.Minute
	// DefaultTolerance is --horizontal-pod-autoscaler-tolerance.
	DefaultTolerance = 0.1
)

// Controller is the HorizontalPodAutoscaler controller.
type Controller struct {
	calc Calculator
	// hpas is what the controller keeps per HPA ("namespace/name"), as
	// Kubernetes keeps it in memory: when to sync next, the history of
	// recommendations and scale events, the selector it last used, and the
	// record of its last sync.
	hpas map[string]*hpaState
}

type hpaState struct {
	uid     string
	next    time.Time
	history *History
	// selector is the target's selector as of the last sync (nil before).
	selector *labels.Selector
	// last is the record of the last sync, which the records between
	// syncs repeat.
	last controller.SyncRecord
}

var _ controller.Controller = (*Controller)(nil)

// New returns the controller with Kubernetes' defaults.
func New() *Controller { return &Controller{calc: DefaultCalculator(), hpas: map[string]*hpaState{}} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller.
func (c *Controller) Clone() controller.Controller {
	out := &Controller{calc: c.calc, hpas: make(map[string]*hpaState, len(c.hpas))}
	for k, s := range c.hpas {
		x := *s
		x.history = s.history.clone()
		out.hpas[k] = &x
	}
	return out
}

// Sync reconciles every HPA that is due, in creation order. An HPA is
// first synced one sync period (15 s) after it was created and then every
// period, as the controller's work queue adds it back with that delay; the
// HPAs that are not due get a record of where their last sync left them.
func (c *Controller) Sync(ctx *controller.Context) {
	now := ctx.Now()
	hpas := ctx.Store.HorizontalPodAutoscalers()
	live := make(map[string]bool, len(hpas))
	for _, h := range hpas {
		key := h.Namespace + "/" + h.Name
		live[key] = true
		st := c.hpas[key]
		if st == nil || st.uid != h.UID {
			st = &hpaState{uid: h.UID, next: h.CreationTimestamp.Add(DefaultSyncPeriod), history: &History{}}
			c.hpas[key] = st
		}
		if now.Before(st.next) {
			ctx.Record(between(st, h, now))
			continue
		}
		st.next = now.Add(DefaultSyncPeriod)
		st.last = c.reconcile(ctx, h, key, st)
		ctx.Record(st.last)
	}
	for _, k := range sortedKeys(c.hpas) {
		if !live[k] {
			delete(c.hpas, k) // reconcileKey forgets a deleted HPA
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// SyncNow reconciles one HPA at once, whether it is due or not, and
// records its sync: the entry point of the differential tests
// (core/k8scase), which decide when syncs happen.
func (c *Controller) SyncNow(ctx *controller.Context, h *api.HorizontalPodAutoscaler) {
	key := h.Namespace + "/" + h.Name
	st := c.hpas[key]
	if st == nil || st.uid != h.UID {
		st = &hpaState{uid: h.UID, history: &History{}}
		c.hpas[key] = st
	}
	st.next = ctx.Now().Add(DefaultSyncPeriod)
	st.last = c.reconcile(ctx, h, key, st)
	ctx.Record(st.last)
}

// between is the record of an HPA between two syncs.
func between(st *hpaState, h *api.HorizontalPodAutoscaler, now time.Time) controller.SyncRecord {
	r := st.last
	if r.Controller == "" {
		r = controller.SyncRecord{Controller: Component, Object: "horizontalpodautoscaler/" + h.Name, Observed: "not synced yet"}
	}
	next := fmt.Sprintf("next sync in %ds", int64(st.next.Sub(now)/time.Second))
	switch {
	case r.Action != "":
		r.Action = ""
		r.InSync = true
		r.Observed = strings.TrimSuffix(r.Observed, ".") + "; scaled at the last sync; " + next
	case r.Waiting != "":
		r.Waiting += "; " + next
	default:
		r.Waiting = ""
		r.InSync = true
		r.Observed = strings.TrimSuffix(r.Observed, ".") + "; " + next
	}
	return r
}

// reconcile is reconcileAutoscaler: get the target's scale, compute the
// desired count from the metrics, normalize it (min, max, behavior or the
// older rules, stabilization), write the scale when it changes, and write
// the status when it changed. It returns the sync's record.
func (c *Controller) reconcile(ctx *controller.Context, shared *api.HorizontalPodAutoscaler, key string, st *hpaState) controller.SyncRecord {
	now := ctx.Now()
	h := shared.DeepCopy()
	orig := h.Status.DeepCopy()
	rec := controller.SyncRecord{Controller: Component, Object: "horizontalpodautoscaler/" + h.Name}
	ref := h.Spec.ScaleTargetRef
	target := ref.Kind + "/" + ref.Name
	scale, err := getScale(ctx.Store, h)
	if err != nil {
		ctx.Event(h, Component, api.EventTypeWarning, "FailedGetScale", err.Error())
		setCondition(h, api.AbleToScale, api.ConditionFalse, "FailedGetScale",
			fmt.Sprintf("the HPA controller was unable to get the target's current scale: %v", err), now)
		c.updateStatusIfNeeded(ctx, orig, h)
		rec.Waiting = "cannot get the scale of " + target + ": " + err.Error()
		return rec
	}
	setCondition(h, api.AbleToScale, api.ConditionTrue, "SucceededGetScale", "the HPA controller was able to get the target's current scale", now)
	current := scale.SpecReplicas
	st.history.RecordInitialRecommendation(current, now)
	minReplicas := api.Deref(h.Spec.MinReplicas, 1)
	rescale := true
	var desired int32
	var reason string
	var statuses []api.MetricStatus
	var limit Limit
	switch {
	case current == 0 && minReplicas != 0:
		rescale = false
		setCondition(h, api.ScalingActive, api.ConditionFalse, "ScalingDisabled", "scaling is disabled since the replica count of the target is zero", now)
	case current > h.Spec.MaxReplicas:
		reason, desired = "Current number of replicas above Spec.MaxReplicas", h.Spec.MaxReplicas
	case current < minReplicas:
		reason, desired = "Current number of replicas below Spec.MinReplicas", minReplicas
	default:
		metricDesired, metricName, sts, err := c.computeReplicasForMetrics(ctx, h, scale, st)
		statuses = sts
		if err != nil && metricDesired == -1 {
			setStatus(h, current, h.Status.DesiredReplicas, statuses, false, now)
			c.updateStatusIfNeeded(ctx, orig, h)
			ctx.Event(h, Component, api.EventTypeWarning, "FailedComputeMetricsReplicas", err.Error())
			rec.Observed = fmt.Sprintf("%s at %s; %s", target, humanize.Count(current, "replica"), metricsText(h))
			rec.Waiting = "cannot compute a replica count: " + err.Error()
			return rec
		}
		if metricDesired > desired {
			desired = metricDesired
		}
		if desired > current {
			reason = metricName + " above target"
		}
		if desired < current {
			reason = "All metrics below target"
		}
		if h.Spec.Behavior == nil {
			limit = st.history.NormalizeDesiredReplicas(current, desired, minReplicas, h.Spec.MaxReplicas, DefaultDownscaleStabilization, now)
		} else {
			limit = st.history.NormalizeDesiredReplicasWithBehaviors(behaviorOf(h, minReplicas), current, desired, now)
		}
		applyLimit(h, limit, now)
		desired = limit.Replicas
		rescale = desired != current
	}
	rec.Observed = fmt.Sprintf("%s at %s; %s", target, humanize.Count(current, "replica"), metricsText(h))
	if rescale {
		if err := c.writeScale(ctx, h, scale, desired, historyReason(h, reason, limit, desired)); err != nil {
			ctx.Event(h, Component, api.EventTypeWarning, "FailedRescale",
				fmt.Sprintf("New size: %d; reason: %s; error: %v", desired, reason, err.Error()))
			setCondition(h, api.AbleToScale, api.ConditionFalse, "FailedUpdateScale",
				fmt.Sprintf("the HPA controller was unable to update the target scale: %v", err), now)
			setStatus(h, current, h.Status.DesiredReplicas, statuses, false, now)
			c.updateStatusIfNeeded(ctx, orig, h)
			rec.Waiting = "cannot scale " + target + ": " + err.Error()
			return rec
		}
		setCondition(h, api.AbleToScale, api.ConditionTrue, "SucceededRescale",
			fmt.Sprintf("the HPA controller was able to update the target scale to %d", desired), now)
		ctx.Event(h, Component, api.EventTypeNormal, "SuccessfulRescale", fmt.Sprintf("New size: %d; reason: %s", desired, reason))
		st.history.StoreScaleEvent(h.Spec.Behavior, current, desired, now)
		rec.Desired = fmt.Sprintf("%d replicas", desired)
		rec.Action = fmt.Sprintf("scale %s from %d to %d", target, current, desired)
		if reason != "" {
			rec.Action += ": " + reason
		}
	} else {
		desired = current
		rec.Desired = fmt.Sprintf("%d replicas", desired)
		switch {
		case limit.StabilizedReason != "":
			rec.Waiting = fmt.Sprintf("%s: %s", limit.StabilizedReason, limit.StabilizedText)
		case limit.Limited:
			rec.Waiting = fmt.Sprintf("%s: %s", limit.LimitReason, limit.LimitText)
		case current == 0 && minReplicas != 0:
			rec.Waiting = "scaling is disabled since the replica count of the target is zero"
		default:
			rec.InSync = true
		}
	}
	setStatus(h, current, desired, statuses, rescale, now)
	c.updateStatusIfNeeded(ctx, orig, h)
	return rec
}

// getScale reads the target's scale subresource, with the errors the
// REST mapper and the scale client give.
func getScale(s *store.Store, h *api.HorizontalPodAutoscaler) (store.Scale, error) {
	ref := h.Spec.ScaleTargetRef
	group, _, ok := strings.Cut(ref.APIVersion, "/")
	if !ok {
		group = ""
	}
	r := api.ResourceFor(ref.Kind)
	if r == nil || r.Group != group {
		return store.Scale{}, fmt.Errorf("no matches for kind %q in group %q", ref.Kind, group)
	}
	if r.Kind != api.KindDeployment && r.Kind != api.KindReplicaSet {
		return store.Scale{}, fmt.Errorf("the server could not find the requested resource")
	}
	return s.GetScale(r.Kind, h.Namespace, ref.Name)
}

// writeScale updates the target's scale subresource as the controller's
// writer, saying for the page's history why.
func (c *Controller) writeScale(ctx *controller.Context, h *api.HorizontalPodAutoscaler, scale store.Scale, desired int32, why string) error {
	w := ctx.Store.CurrentWriter()
	prev := ctx.Store.SetWriter(store.Writer{Manager: w.Manager, By: "the HorizontalPodAutoscaler " + h.Name, Reason: why})
	defer ctx.Store.SetWriter(prev)
	_, err := ctx.Store.UpdateScale(scale.Kind, scale.Namespace, scale.Name, desired, "")
	return err
}

// historyReason is why a rescale happened in a user's words, for the
// page's field history: the metrics ("cpu 20% below target 50%"), or the
// stabilization window when it, not the metrics, set the count.
func historyReason(h *api.HorizontalPodAutoscaler, reason string, l Limit, desired int32) string {
	switch l.StabilizedReason {
	case "ScaleDownStabilized":
		return fmt.Sprintf("its recommendations of the last 5 minutes went up to %d (scale-down stabilization; %s)", desired, whyText(h, "All metrics below target"))
	case "ScaleUpStabilized":
		return fmt.Sprintf("its recommendations of the scale-up window were at least %d (scale-up stabilization)", desired)
	}
	if l.Limited {
		return fmt.Sprintf("%s; limited: %s", whyText(h, reason), l.LimitText)
	}
	return whyText(h, reason)
}

// behaviorOf is the NormalizationArg of an HPA with a behavior, its
// scale-down window filled with the controller's default when unset
// (maybeInitScaleDownStabilizationWindow).
func behaviorOf(h *api.HorizontalPodAutoscaler, minReplicas int32) Behavior {
	b := h.Spec.Behavior
	up, down := b.ScaleUp, b.ScaleDown
	if up == nil {
		up = api.DefaultScaleUpRules()
	}
	if down == nil {
		down = api.DefaultScaleDownRules()
	}
	if down.StabilizationWindowSeconds == nil {
		down = down.DeepCopy()
		down.StabilizationWindowSeconds = api.Int32(int32(DefaultDownscaleStabilization / time.Second))
	}
	if up.StabilizationWindowSeconds == nil {
		up = up.DeepCopy()
		up.StabilizationWindowSeconds = api.Int32(0)
	}
	return Behavior{ScaleUp: up, ScaleDown: down, MinReplicas: minReplicas, MaxReplicas: h.Spec.MaxReplicas}
}

// applyLimit sets the conditions a normalization decides: AbleToScale
// (stabilized or ReadyForNewScale) and ScalingLimited.
func applyLimit(h *api.HorizontalPodAutoscaler, l Limit, now time.Time) {
	if l.StabilizedReason != "" {
		setCondition(h, api.AbleToScale, api.ConditionTrue, l.StabilizedReason, l.StabilizedText, now)
	} else {
		setCondition(h, api.AbleToScale, api.ConditionTrue, "ReadyForNewScale", "recommended size matches current size", now)
	}
	status := api.ConditionFalse
	if l.Limited {
		status = api.ConditionTrue
	}
	setCondition(h, api.ScalingLimited, status, l.LimitReason, l.LimitText, now)
}

func (c *Controller) updateStatusIfNeeded(ctx *controller.Context, orig api.HorizontalPodAutoscalerStatus, h *api.HorizontalPodAutoscaler) {
	if statusEqual(orig, h.Status) {
		return
	}
	if _, err := ctx.Store.UpdateStatus(h); err != nil {
		ctx.Event(h, Component, api.EventTypeWarning, "FailedUpdateStatus", err.Error())
	}
}

// selectorsOf are the selectors of the other HPAs, for the ambiguity check.
func (c *Controller) otherSelectors(key string) map[string]labels.Selector {
	out := map[string]labels.Selector{}
	for k, s := range c.hpas {
		if k != key && s.selector != nil {
			out[k] = *s.selector
		}
	}
	return out
}
