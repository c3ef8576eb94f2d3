package podautoscaler

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// rec is a recommendation ago before testNow.
func rec(replicas int32, ago time.Duration) Recommendation {
	return Recommendation{Replicas: replicas, At: testNow.Add(-ago)}
}

// TestConvertDesiredReplicasWithRules ports horizontal_test.go's table of
// that name (the rules without a behavior).
func TestConvertDesiredReplicasWithRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                       string
		current, desired, min, max int32
		wantReplicas               int32
		wantCondition              string
	}{
		{"prenormalized desired replicas within range", 5, 7, 3, 8, 7, "DesiredWithinRange"},
		{"prenormalized desired replicas < minReplicas", 3, 1, 2, 8, 2, "TooFewReplicas"},
		{"prenormalized desired zeroed replicas within range", 1, 0, 0, 10, 0, "DesiredWithinRange"},
		{"maxReplicas is the limit because maxReplicas < scaleUpLimit", 20, 1000, 1, 10, 10, "TooManyReplicas"},
		{"scaleUpLimit is the limit because scaleUpLimit < maxReplicas", 3, 1000, 1, 2000, calculateScaleUpLimit(3), "ScaleUpLimit"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, cond, _ := convertDesiredReplicasWithRules(tc.current, tc.desired, tc.min, tc.max)
			assert.Equal(t, tc.wantReplicas, got)
			assert.Equal(t, tc.wantCondition, cond)
		})
	}
	assert.Equal(t, int32(6), calculateScaleUpLimit(3), "the larger of 2x and 4")
	assert.Equal(t, int32(4), calculateScaleUpLimit(1))
}

// TestCalculateScaleLimitsWithMinPolicy ports
// TestCalculateScaleUpLimitWithScalingRules and
// TestCalculateScaleDownLimitWithBehaviors: selectPolicy Min picks the
// smaller change.
func TestCalculateScaleLimitsWithMinPolicy(t *testing.T) {
	t.Parallel()
	minPolicy := api.MinChangePolicySelect
	rules := &api.HPAScalingRules{StabilizationWindowSeconds: api.Int32(300), SelectPolicy: &minPolicy, Policies: []api.HPAScalingPolicy{
		{Type: api.PodsScalingPolicy, Value: 2, PeriodSeconds: 60}, {Type: api.PercentScalingPolicy, Value: 50, PeriodSeconds: 60}}}
	assert.Equal(t, int32(2), calculateScaleUpLimitWithScalingRules(1, nil, nil, rules, testNow))
	assert.Equal(t, int32(3), calculateScaleDownLimitWithBehaviors(5, nil, nil, rules, testNow))
	disabled := api.DisabledPolicySelect
	rules.SelectPolicy = &disabled
	assert.Equal(t, int32(5), calculateScaleUpLimitWithScalingRules(5, nil, nil, rules, testNow), "Disabled keeps the count")
	assert.Equal(t, int32(5), calculateScaleDownLimitWithBehaviors(5, nil, nil, rules, testNow))
}

// TestNormalizeDesiredReplicas ports horizontal_test.go's table of that
// name: the highest recommendation of the 5 minute window; an old entry is
// reused for the new recommendation.
func TestNormalizeDesiredReplicas(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name          string
		recs          []Recommendation
		desired, want int32
		wantLen       int
	}{
		{"empty log", nil, 5, 5, 1},
		{"stabilize", []Recommendation{rec(4, 2*time.Minute), rec(5, time.Minute)}, 3, 5, 3},
		{"no stabilize", []Recommendation{rec(1, 2*time.Minute), rec(2, time.Minute)}, 3, 3, 3},
		{"no stabilize - old recommendations", []Recommendation{rec(10, 10*time.Minute), rec(9, 9*time.Minute)}, 3, 3, 2},
		{"stabilize - old recommendations", []Recommendation{rec(10, 10*time.Minute), rec(4, time.Minute), rec(5, 2*time.Minute),
			rec(9, 9*time.Minute)}, 3, 5, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &History{Recommendations: append([]Recommendation(nil), tc.recs...)}
			assert.Equal(t, tc.want, h.stabilizeRecommendation(tc.desired, DefaultDownscaleStabilization, testNow))
			assert.Len(t, h.Recommendations, tc.wantLen)
		})
	}
}

// rules is generateScalingRules: Pods and Percent policies (0 leaves one
// out), selectPolicy Max.
func rules(pods, podsPeriod, percent, percentPeriod, window int32) *api.HPAScalingRules {
	max := api.MaxChangePolicySelect
	r := &api.HPAScalingRules{StabilizationWindowSeconds: api.Int32(window), SelectPolicy: &max}
	if pods != 0 {
		r.Policies = append(r.Policies, api.HPAScalingPolicy{Type: api.PodsScalingPolicy, Value: pods, PeriodSeconds: podsPeriod})
	}
	if percent != 0 {
		r.Policies = append(r.Policies, api.HPAScalingPolicy{Type: api.PercentScalingPolicy, Value: percent, PeriodSeconds: percentPeriod})
	}
	return r
}

// uniform is generateEventsUniformDistribution: the events spread over the
// last period seconds, each in the middle of its segment.
func uniform(changes []int32, periodSeconds int) []ScaleEvent {
	out := make([]ScaleEvent, len(changes))
	seg := float64(periodSeconds) / float64(len(changes))
	for i, c := range changes {
		boundary := time.Duration(float64(periodSeconds) - seg*float64(i+1) + seg/2)
		out[i] = ScaleEvent{Change: c, At: testNow.Add(-time.Second * boundary)}
	}
	return out
}

// TestScalingWithRules ports horizontal_test.go's table of that name:
// convertDesiredReplicasWithBehaviorRate with the policies and the scale
// events of their periods.
func TestScalingWithRules(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                   string
		ups, downs             []ScaleEvent
		min, max               int32
		upRules, downRules     *api.HPAScalingRules
		current, desired, want int32
		wantCondition          string
	}{
		{name: "prenormalized desired replicas within range", current: 5, desired: 7, min: 3, max: 8, want: 7, wantCondition: "DesiredWithinRange"},
		{name: "prenormalized desired replicas < minReplicas", current: 3, desired: 1, min: 2, max: 8, want: 2, wantCondition: "TooFewReplicas"},
		{name: "prenormalized desired replicas within range when minReplicas is 0", current: 1, desired: 0, min: 0, max: 10, want: 0,
			wantCondition: "DesiredWithinRange"},
		{name: "maxReplicas is the limit because maxReplicas < scaleUpLimit", current: 20, desired: 1000, min: 1, max: 10, want: 10,
			wantCondition: "TooManyReplicas"},
		{name: "desired replica count is more than the maximum replica count", current: 100, desired: 1000, min: 100, max: 150, want: 150,
			wantCondition: "TooManyReplicas"},
		{name: "scaleUpLimit is the limit because scaleUpLimit < maxReplicas with user policies", current: 3, desired: 1000, min: 1,
			max: 2000, want: 4, wantCondition: "ScaleUpLimit", upRules: rules(0, 0, 1, 60, 0)},
		{name: "scaleDownLimit is the limit because scaleDownLimit > minReplicas with user defined policies", current: 1000, desired: 3,
			min: 3, max: 2000, downRules: rules(20, 60, 0, 0, 0), want: 980, wantCondition: "ScaleDownLimit"},
		{name: "scaleUp with default behavior", min: 1, max: 1000, current: 10, desired: 50, want: 20, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with pods policy larger than percent policy", min: 1, max: 1000, upRules: rules(100, 60, 100, 60, 0), current: 10,
			desired: 500, want: 110, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with percent policy larger than pods policy", min: 1, max: 1000, upRules: rules(2, 60, 100, 60, 0), current: 10,
			desired: 500, want: 20, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy", min: 1, max: 1000, upRules: rules(100, 60, 0, 0, 0),
			current: 10, desired: 50, want: 50, wantCondition: "DesiredWithinRange"},
		{name: "scaleUp with pod policy limitation", min: 1, max: 1000, upRules: rules(30, 60, 0, 0, 0), current: 10, desired: 50, want: 40,
			wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with percent policy limitation", min: 1, max: 1000, upRules: rules(0, 0, 200, 60, 0), current: 10, desired: 50,
			want: 30, wantCondition: "ScaleUpLimit"},
		{name: "scaleDown with percent policy larger than pod policy", min: 1, max: 1000, downRules: rules(20, 60, 1, 60, 300), current: 100,
			desired: 2, want: 80, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with pod policy larger than percent policy", min: 1, max: 1000, downRules: rules(2, 60, 1, 60, 300), current: 100,
			desired: 2, want: 98, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy", min: 1, max: 1000, downRules: rules(100, 60, 0, 0, 300),
			current: 10, desired: 0, want: 1, wantCondition: "TooFewReplicas"},
		{name: "scaleDown with spec MinReplicas limitation with large percent policy", min: 5, max: 1000, downRules: rules(0, 0, 100, 60, 300),
			current: 10, desired: 2, want: 5, wantCondition: "TooFewReplicas"},
		{name: "scaleDown with pod policy limitation", min: 1, max: 1000, downRules: rules(5, 60, 0, 0, 300), current: 10, desired: 2, want: 5,
			wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with percent policy limitation", min: 1, max: 1000, downRules: rules(0, 0, 50, 60, 300), current: 10, desired: 5,
			want: 5, wantCondition: "DesiredWithinRange"},
		{name: "scaleUp with spec MaxReplicas limitation with large pod policy and events", ups: uniform([]int32{1, 5, 9}, 120), min: 1,
			max: 200, upRules: rules(300, 60, 0, 0, 0), current: 100, desired: 500, want: 200, wantCondition: "TooManyReplicas"},
		{name: "scaleUp with currentReplicas limitation with rate.PeriodSeconds with a lot of recent scale up events",
			ups: uniform([]int32{1, 5, 9}, 120), min: 1, max: 1000, upRules: rules(5, 120, 0, 0, 0), current: 100, desired: 500, want: 100,
			wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with pod policy and previous scale up events", ups: uniform([]int32{1, 5, 9}, 120), min: 1, max: 1000,
			upRules: rules(150, 120, 0, 0, 0), current: 100, desired: 500, want: 235, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with percent policy and previous scale up events", ups: uniform([]int32{1, 5, 9}, 120), min: 1, max: 1000,
			upRules: rules(0, 0, 200, 120, 0), current: 100, desired: 500, want: 255, wantCondition: "ScaleUpLimit"},
		{name: "scaleUp with percent policy and previous scale up and down events", ups: uniform([]int32{4}, 120),
			downs: uniform([]int32{2}, 120), min: 1, max: 1000, upRules: rules(0, 0, 300, 300, 0), current: 6, desired: 24, want: 16,
			wantCondition: "ScaleUpLimit"},
		{name: "scaleDown with default policy and previous events", downs: uniform([]int32{1, 5, 9}, 120), min: 1, max: 1000, current: 10,
			desired: 5, want: 5, wantCondition: "DesiredWithinRange"},
		{name: "scaleDown with spec MinReplicas limitation with large pod policy and previous events", downs: uniform([]int32{1, 5, 9}, 120),
			min: 5, max: 1000, downRules: rules(130, 120, 0, 0, 300), current: 100, desired: 0, want: 5, wantCondition: "TooFewReplicas"},
		{name: "scaleDown with pod policy limitation and previous events", downs: uniform([]int32{1, 5, 9}, 120), min: 1, max: 1000,
			downRules: rules(5, 120, 0, 0, 300), current: 100, desired: 2, want: 100, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with percent policy limitation and previous events", downs: uniform([]int32{2, 4, 6}, 120), min: 1, max: 1000,
			downRules: rules(0, 0, 50, 120, 300), current: 100, desired: 0, want: 56, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with percent policy and previous scale up and down events", ups: uniform([]int32{2}, 120),
			downs: uniform([]int32{4}, 120), min: 1, max: 1000, downRules: rules(0, 0, 50, 180, 0), current: 10, desired: 1, want: 6,
			wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with previous events preventing further scale down", downs: uniform([]int32{10, 10, 10}, 120), min: 1, max: 1000,
			downRules: rules(0, 0, 10, 120, 300), current: 100, desired: 0, want: 100, wantCondition: "ScaleDownLimit"},
		{name: "scaleDown with with previous events still allowing more scale down", downs: uniform([]int32{10, 10, 10}, 120), min: 1,
			max: 1000, downRules: rules(0, 0, 1000, 120, 300), current: 10, desired: 5, want: 5, wantCondition: "DesiredWithinRange"},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for up",
			ups: uniform([]int32{8, 12, 9, 11}, 120), min: 1, max: 1000, upRules: rules(1000, 30, 100, 60, 0), current: 100, desired: 200,
			want: 200, wantCondition: "DesiredWithinRange"},
		{name: "check that events were marked 'outdated' for two different policies in the behavior for down",
			downs: uniform([]int32{8, 12, 9, 11}, 120), min: 1, max: 1000, downRules: rules(1000, 30, 100, 60, 300), current: 100, desired: 5,
			want: 5, wantCondition: "DesiredWithinRange"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &History{ScaleUpEvents: tc.ups, ScaleDownEvents: tc.downs}
			// The rules as the API server defaults them (GenerateHPAScaleUpRules,
			// GenerateHPAScaleDownRules).
			hpa := &api.HorizontalPodAutoscaler{Spec: api.HorizontalPodAutoscalerSpec{
				Behavior: &api.HorizontalPodAutoscalerBehavior{ScaleUp: tc.upRules.DeepCopy(), ScaleDown: tc.downRules.DeepCopy()}}}
			api.SetDefaultsHorizontalPodAutoscaler(hpa)
			b := Behavior{ScaleUp: hpa.Spec.Behavior.ScaleUp, ScaleDown: hpa.Spec.Behavior.ScaleDown,
				MinReplicas: tc.min, MaxReplicas: tc.max}
			got, cond, _ := h.convertDesiredReplicasWithBehaviorRate(b, tc.current, tc.desired, testNow)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.wantCondition, cond)
		})
	}
}

// TestStoreScaleEvents ports horizontal_test.go's table of that name, in
// both directions.
func TestStoreScaleEvents(t *testing.T) {
	t.Parallel()
	ev := func(change int32, ago int, outdated bool) ScaleEvent {
		return ScaleEvent{Change: change, At: testNow.Add(-time.Duration(ago) * time.Second), Outdated: outdated}
	}
	cases := []struct {
		name          string
		change        int32
		prev, want    []ScaleEvent
		rules         *api.HPAScalingRules
		wantPerPeriod int32
	}{
		{name: "empty entries with default behavior", change: 5},
		{name: "empty entries with two-policy-behavior", change: 5, want: []ScaleEvent{ev(5, 0, false)}, rules: rules(10, 60, 100, 60, 0)},
		{name: "one outdated entry to be kept untouched without behavior", change: 5, prev: []ScaleEvent{ev(7, 61, false)},
			want: []ScaleEvent{ev(7, 0, false)}},
		{name: "one outdated entry to be replaced with behavior", change: 5, prev: []ScaleEvent{ev(7, 61, false)},
			want: []ScaleEvent{ev(5, 0, false)}, rules: rules(10, 60, 100, 60, 0)},
		{name: "one actual entry to be not touched with behavior", change: 5, prev: []ScaleEvent{ev(7, 58, false)},
			want: []ScaleEvent{ev(7, 0, false), ev(5, 0, false)}, rules: rules(10, 60, 100, 60, 0), wantPerPeriod: 7},
		{name: "two entries, one of them to be replaced", change: 5, prev: []ScaleEvent{ev(7, 61, false), ev(6, 59, false)},
			want: []ScaleEvent{ev(5, 0, false), ev(6, 0, false)}, rules: rules(10, 60, 0, 0, 0), wantPerPeriod: 6},
		{name: "replace one entry, use policies with different periods", change: 5,
			prev: []ScaleEvent{ev(8, 29, false), ev(6, 59, false), ev(7, 61, false), ev(9, 61, false)},
			want: []ScaleEvent{ev(8, 0, false), ev(6, 0, false), ev(7, 0, true), ev(5, 0, false)}, rules: rules(10, 60, 100, 30, 0),
			wantPerPeriod: 14},
		{name: "two entries, both actual", change: 5, prev: []ScaleEvent{ev(7, 58, false), ev(6, 59, false)},
			want: []ScaleEvent{ev(7, 0, false), ev(6, 0, false), ev(5, 0, false)}, rules: rules(10, 120, 100, 30, 0), wantPerPeriod: 13},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, up := range []bool{true, false} {
				h := &History{}
				events := &h.ScaleDownEvents
				var b *api.HorizontalPodAutoscalerBehavior
				if up {
					events = &h.ScaleUpEvents
				}
				*events = append([]ScaleEvent(nil), tc.prev...)
				if tc.rules != nil {
					b = &api.HorizontalPodAutoscalerBehavior{ScaleDown: tc.rules}
					if up {
						b = &api.HorizontalPodAutoscalerBehavior{ScaleUp: tc.rules}
					}
				}
				assert.Equal(t, tc.wantPerPeriod, replicasChangePerPeriod(60, *events, testNow))
				next := 10 - tc.change
				if up {
					next = 10 + tc.change
				}
				h.StoreScaleEvent(b, 10, next, testNow)
				want := tc.want
				if tc.rules == nil {
					want = tc.prev // no behavior: nothing is stored
				}
				require.Len(t, *events, len(want), "up %v", up)
				for i, got := range *events {
					assert.Equal(t, want[i].Change, got.Change, "up %v, event %d", up, i)
					assert.Equal(t, want[i].Outdated, got.Outdated, "up %v, event %d", up, i)
				}
			}
		})
	}
}

// TestNormalizeDesiredReplicasWithBehavior ports horizontal_test.go's
// table of that name (stabilizeRecommendationWithBehaviors).
func TestNormalizeDesiredReplicasWithBehavior(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name               string
		recs               []Recommendation
		current, desired   int32
		want               int32
		wantRecs           []int32
		upWindow, dnWindow int32
	}{
		{name: "empty recommendations for scaling down", current: 100, desired: 5, want: 5, wantRecs: []int32{5}},
		{name: "simple scale down stabilization", recs: []Recommendation{rec(4, 2*time.Minute), rec(5, time.Minute)}, current: 100, desired: 3,
			want: 5, wantRecs: []int32{4, 5, 3}, dnWindow: 180},
		{name: "simple scale up stabilization", recs: []Recommendation{rec(4, 2*time.Minute), rec(5, time.Minute)}, current: 1, desired: 7,
			want: 4, wantRecs: []int32{4, 5, 7}, upWindow: 300},
		{name: "no scale down stabilization", recs: []Recommendation{rec(1, 2*time.Minute), rec(2, time.Minute)}, current: 100, desired: 3,
			want: 3, wantRecs: []int32{1, 2, 3}, upWindow: 300},
		{name: "no scale up stabilization", recs: []Recommendation{rec(4, 2*time.Minute), rec(5, time.Minute)}, current: 1, desired: 3,
			want: 3, wantRecs: []int32{4, 5, 3}, dnWindow: 300},
		{name: "no scale down stabilization, reuse recommendation element", recs: []Recommendation{rec(10, 10*time.Minute),
			rec(9, 9*time.Minute)}, current: 100, desired: 3, want: 3, wantRecs: []int32{10, 3}},
		{name: "no scale up stabilization, reuse recommendation element", recs: []Recommendation{rec(10, 10*time.Minute),
			rec(9, 9*time.Minute)}, current: 1, desired: 100, want: 100, wantRecs: []int32{10, 100}},
		{name: "scale down stabilization, reuse one of obsolete recommendation element", recs: []Recommendation{rec(10, 10*time.Minute),
			rec(4, time.Minute), rec(5, 2*time.Minute), rec(9, 9*time.Minute)}, current: 100, desired: 3, want: 5,
			wantRecs: []int32{10, 4, 5, 3}, dnWindow: 180},
		{name: "scale up stabilization, reuse one of obsolete recommendation element", recs: []Recommendation{rec(10, 100*time.Minute),
			rec(6, time.Minute), rec(5, 2*time.Minute), rec(9, 3*time.Minute)}, current: 1, desired: 100, want: 5,
			wantRecs: []int32{100, 6, 5, 9}, upWindow: 300},
		{name: "scale up and down stabilization, do not scale up when prenormalized rec goes down", recs: []Recommendation{
			rec(2, 100*time.Minute), rec(3, 3*time.Minute)}, current: 2, desired: 1, want: 2, upWindow: 300, dnWindow: 300},
		{name: "scale up and down stabilization, do not scale down when prenormalized rec goes up", recs: []Recommendation{
			rec(2, 100*time.Minute), rec(1, 3*time.Minute)}, current: 2, desired: 3, want: 2, upWindow: 300, dnWindow: 300},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := &History{Recommendations: append([]Recommendation(nil), tc.recs...)}
			b := Behavior{ScaleUp: &api.HPAScalingRules{StabilizationWindowSeconds: api.Int32(tc.upWindow)},
				ScaleDown: &api.HPAScalingRules{StabilizationWindowSeconds: api.Int32(tc.dnWindow)}}
			got, _, _ := h.stabilizeRecommendationWithBehaviors(b, tc.current, tc.desired, testNow)
			assert.Equal(t, tc.want, got)
			if tc.wantRecs != nil {
				require.Len(t, h.Recommendations, len(tc.wantRecs))
				for i, r := range h.Recommendations {
					assert.Equal(t, tc.wantRecs[i], r.Replicas, "recommendation %d", i)
				}
			}
		})
	}
}
