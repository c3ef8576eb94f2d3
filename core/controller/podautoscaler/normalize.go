package podautoscaler

import (
	"math"
	"slices"
	"time"

	"converge/core/api"
)

// Upstream's constants of the rules without a behavior (horizontal.go):
// a sync may at most double the replicas, or go to 4 when that is more.
const (
	scaleUpLimitFactor  = 2.0
	scaleUpLimitMinimum = 4.0
)

// Recommendation is a timestamped recommendation (timestampedRecommendation).
type Recommendation struct {
	Replicas int32
	At       time.Time
}

// ScaleEvent is a timestamped change of the replicas (timestampedScaleEvent):
// its size, never negative, and whether it left every policy's period.
type ScaleEvent struct {
	Change   int32
	At       time.Time
	Outdated bool
}

// History is what the controller remembers of one HPA between syncs:
// its recommendations (for the stabilization windows) and its scale-up and
// scale-down events (for the rate policies). Kubernetes keeps it in the
// controller's memory, so a restart of kube-controller-manager forgets it.
type History struct {
	Recommendations []Recommendation
	ScaleUpEvents   []ScaleEvent
	ScaleDownEvents []ScaleEvent
}

// clone returns a copy that shares nothing with h.
func (h *History) clone() *History {
	return &History{Recommendations: slices.Clone(h.Recommendations), ScaleUpEvents: slices.Clone(h.ScaleUpEvents),
		ScaleDownEvents: slices.Clone(h.ScaleDownEvents)}
}

// RecordInitialRecommendation is recordInitialRecommendation: the first
// sync remembers the current count, so that no scale-down happens within
// the stabilization window after the controller first sees the HPA.
func (h *History) RecordInitialRecommendation(current int32, now time.Time) {
	if h.Recommendations == nil {
		h.Recommendations = []Recommendation{{current, now}}
	}
}

// Limit is the outcome of a normalization: the replicas, and the reason
// and message of the ScalingLimited condition (and AbleToScale's, for the
// stabilization).
type Limit struct {
	Replicas                         int32
	StabilizedReason, StabilizedText string // "" when the recommendation was not stabilized
	LimitReason, LimitText           string
	Limited                          bool // the count differs from the stabilized recommendation
}

// NormalizeDesiredReplicas is normalizeDesiredReplicas, for an HPA
// without behavior: the highest recommendation of the downscale
// stabilization window, then convertDesiredReplicasWithRules (minReplicas,
// maxReplicas, and at most max(2 x current, 4) up per sync).
func (h *History) NormalizeDesiredReplicas(current, desired, minReplicas, maxReplicas int32, window time.Duration, now time.Time) Limit {
	stabilized := h.stabilizeRecommendation(desired, window, now)
	var l Limit
	if stabilized != desired {
		l.StabilizedReason, l.StabilizedText = "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation"
	}
	l.Replicas, l.LimitReason, l.LimitText = convertDesiredReplicasWithRules(current, stabilized, minReplicas, maxReplicas)
	l.Limited = l.Replicas != stabilized
	return l
}

// stabilizeRecommendation replaces the oldest recommendation outside the
// window with this one (or appends it) and returns the window's highest.
func (h *History) stabilizeRecommendation(desired int32, window time.Duration, now time.Time) int32 {
	maxRec := desired
	found, oldIdx := false, 0
	cutoff := now.Add(-window)
	for i, r := range h.Recommendations {
		if r.At.Before(cutoff) {
			found, oldIdx = true, i
		} else if r.Replicas > maxRec {
			maxRec = r.Replicas
		}
	}
	if found {
		h.Recommendations[oldIdx] = Recommendation{desired, now}
	} else {
		h.Recommendations = append(h.Recommendations, Recommendation{desired, now})
	}
	return maxRec
}

// convertDesiredReplicasWithRules is upstream's of that name.
func convertDesiredReplicasWithRules(current, desired, minReplicas, maxReplicas int32) (int32, string, string) {
	scaleUpLimit := calculateScaleUpLimit(current)
	var maxAllowed int32
	var reason, text string
	if maxReplicas > scaleUpLimit {
		maxAllowed, reason, text = scaleUpLimit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"
	} else {
		maxAllowed, reason, text = maxReplicas, "TooManyReplicas", "the desired replica count is more than the maximum replica count"
	}
	if desired < minReplicas {
		return minReplicas, "TooFewReplicas", "the desired replica count is less than the minimum replica count"
	} else if desired > maxAllowed {
		return maxAllowed, reason, text
	}
	return desired, "DesiredWithinRange", "the desired count is within the acceptable range"
}

func calculateScaleUpLimit(current int32) int32 {
	return int32(math.Max(scaleUpLimitFactor*float64(current), scaleUpLimitMinimum))
}

// Behavior is the normalization input of an HPA with spec.behavior
// (NormalizationArg); ScaleDown.StabilizationWindowSeconds is filled with
// the controller's window when the HPA leaves it unset.
type Behavior struct {
	ScaleUp, ScaleDown       *api.HPAScalingRules
	MinReplicas, MaxReplicas int32
}

// NormalizeDesiredReplicasWithBehaviors is normalizeDesiredReplicasWithBehaviors:
// the stabilization of both directions (the lowest recommendation of the
// scale-up window, the highest of the scale-down window, the current count
// between them), then the rate policies (convertDesiredReplicasWithBehaviorRate).
//
// Worked example (the default scale-up rules, Pods 4 and Percent 100 per
// 15 s, selectPolicy Max): from 3 replicas with nothing added in the last
// 15 s, the limit is max(3+4, ceil(3 x 2)) = 7, so a recommendation of 10
// becomes 7, ScalingLimited True ScaleUpLimit.
func (h *History) NormalizeDesiredReplicasWithBehaviors(b Behavior, current, desired int32, now time.Time) Limit {
	var l Limit
	stabilized, reason, text := h.stabilizeRecommendationWithBehaviors(b, current, desired, now)
	if stabilized != desired {
		l.StabilizedReason, l.StabilizedText = reason, text
	}
	l.Replicas, l.LimitReason, l.LimitText = h.convertDesiredReplicasWithBehaviorRate(b, current, stabilized, now)
	l.Limited = l.Replicas != stabilized
	return l
}

func (h *History) stabilizeRecommendationWithBehaviors(b Behavior, current, desired int32, now time.Time) (int32, string, string) {
	found, oldIdx := false, 0
	up, down := desired, desired
	upCutoff := now.Add(-time.Second * time.Duration(*b.ScaleUp.StabilizationWindowSeconds))
	downCutoff := now.Add(-time.Second * time.Duration(*b.ScaleDown.StabilizationWindowSeconds))
	for i, r := range h.Recommendations {
		if r.At.After(upCutoff) {
			up = min(r.Replicas, up)
		}
		if r.At.After(downCutoff) {
			down = max(r.Replicas, down)
		}
		if r.At.Before(upCutoff) && r.At.Before(downCutoff) {
			found, oldIdx = true, i
		}
	}
	rec := current
	if rec < up {
		rec = up
	}
	if rec > down {
		rec = down
	}
	if found {
		h.Recommendations[oldIdx] = Recommendation{desired, now}
	} else {
		h.Recommendations = append(h.Recommendations, Recommendation{desired, now})
	}
	if desired >= current {
		return rec, "ScaleUpStabilized", "recent recommendations were lower than current one, applying the lowest recent recommendation"
	}
	return rec, "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation"
}

func (h *History) convertDesiredReplicasWithBehaviorRate(b Behavior, current, desired int32, now time.Time) (int32, string, string) {
	switch {
	case desired > current:
		limit := calculateScaleUpLimitWithScalingRules(current, h.ScaleUpEvents, h.ScaleDownEvents, b.ScaleUp, now)
		if limit < current {
			limit = current
		}
		maxAllowed := b.MaxReplicas
		reason, text := "TooManyReplicas", "the desired replica count is more than the maximum replica count"
		if maxAllowed > limit {
			maxAllowed = limit
			reason, text = "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"
		}
		if desired > maxAllowed {
			return maxAllowed, reason, text
		}
	case desired < current:
		limit := calculateScaleDownLimitWithBehaviors(current, h.ScaleUpEvents, h.ScaleDownEvents, b.ScaleDown, now)
		if limit > current {
			limit = current
		}
		minAllowed := b.MinReplicas
		reason, text := "TooFewReplicas", "the desired replica count is less than the minimum replica count"
		if minAllowed < limit {
			minAllowed = limit
			reason, text = "ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate"
		}
		if desired < minAllowed {
			return minAllowed, reason, text
		}
	}
	return desired, "DesiredWithinRange", "the desired count is within the acceptable range"
}

// replicasChangePerPeriod is getReplicasChangePerPeriod.
func replicasChangePerPeriod(periodSeconds int32, events []ScaleEvent, now time.Time) int32 {
	cutoff := now.Add(-time.Second * time.Duration(periodSeconds))
	var n int32
	for _, e := range events {
		if e.At.After(cutoff) {
			n += e.Change
		}
	}
	return n
}

// calculateScaleUpLimitWithScalingRules is upstream's: per policy, the
// count at the start of its period plus its allowance; Max picks the
// largest, Min the smallest, Disabled keeps the current count.
func calculateScaleUpLimitWithScalingRules(current int32, ups, downs []ScaleEvent, rules *api.HPAScalingRules, now time.Time) int32 {
	var result int32
	var pick func(a, b int32) int32
	switch rules.SelectPolicyOf() {
	case api.DisabledPolicySelect:
		return current
	case api.MinChangePolicySelect:
		result, pick = math.MaxInt32, minInt32
	default:
		result, pick = math.MinInt32, maxInt32
	}
	for _, p := range rules.Policies {
		start := current - replicasChangePerPeriod(p.PeriodSeconds, ups, now) + replicasChangePerPeriod(p.PeriodSeconds, downs, now)
		var proposed int32
		switch p.Type {
		case api.PodsScalingPolicy:
			proposed = start + p.Value
		case api.PercentScalingPolicy:
			proposed = int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
		}
		result = pick(result, proposed)
	}
	return result
}

// calculateScaleDownLimitWithBehaviors is upstream's, for scaling down.
func calculateScaleDownLimitWithBehaviors(current int32, ups, downs []ScaleEvent, rules *api.HPAScalingRules, now time.Time) int32 {
	var result int32
	var pick func(a, b int32) int32
	switch rules.SelectPolicyOf() {
	case api.DisabledPolicySelect:
		return current
	case api.MinChangePolicySelect:
		result, pick = math.MinInt32, maxInt32
	default:
		result, pick = math.MaxInt32, minInt32
	}
	for _, p := range rules.Policies {
		start := current - replicasChangePerPeriod(p.PeriodSeconds, ups, now) + replicasChangePerPeriod(p.PeriodSeconds, downs, now)
		var proposed int32
		switch p.Type {
		case api.PodsScalingPolicy:
			proposed = start - p.Value
		case api.PercentScalingPolicy:
			proposed = int32(float64(start) * (1 - float64(p.Value)/100))
		}
		result = pick(result, proposed)
	}
	return result
}

// StoreScaleEvent is storeScaleEvent: after a rescale of an HPA with a
// behavior, the change joins the events of its direction, taking the place
// of one that left the longest policy period.
func (h *History) StoreScaleEvent(b *api.HorizontalPodAutoscalerBehavior, prev, next int32, now time.Time) {
	if b == nil {
		return
	}
	events, rules, change := &h.ScaleUpEvents, b.ScaleUp, next-prev
	if next <= prev {
		events, rules, change = &h.ScaleDownEvents, b.ScaleDown, prev-next
	}
	cutoff := now.Add(-time.Second * time.Duration(longestPolicyPeriod(rules)))
	found, oldIdx := false, 0
	for i := range *events {
		if (*events)[i].At.Before(cutoff) {
			(*events)[i].Outdated = true
		}
		if (*events)[i].Outdated {
			found, oldIdx = true, i
		}
	}
	e := ScaleEvent{Change: change, At: now}
	if found {
		(*events)[oldIdx] = e
	} else {
		*events = append(*events, e)
	}
}

func longestPolicyPeriod(rules *api.HPAScalingRules) int32 {
	var n int32
	if rules == nil {
		return 0
	}
	for _, p := range rules.Policies {
		n = max(n, p.PeriodSeconds)
	}
	return n
}

func minInt32(a, b int32) int32 { return min(a, b) }
func maxInt32(a, b int32) int32 { return max(a, b) }
