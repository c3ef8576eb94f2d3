package podautoscaler

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/labels"
)

// calcCase is replica_calculator_test.go's replicaCalcTestCase for the
// resource metrics: pods test-pod-0.. with two containers, each requesting
// requests[i]; the metrics of the first len(levels) pods (both containers
// use levels[i], as makePodMetricLevels does); readiness, phase, start
// time and deletion per pod.
type calcCase struct {
	name                  string
	current, want         int32
	wantErr               string
	tolerances            *Tolerances
	requests              []string
	levels                []int64
	podNames              []string // names of the metrics, when not the pods'
	ready                 []string
	phase                 []string
	start                 []time.Duration // since now (negative); zero: the zero time
	deleting              []bool
	target, wantUtil      int32
	wantRaw               int64
	averageValue, wantAvg int64 // for GetRawResourceReplicas
}

const numContainersPerPod = 2

// The upstream tests' periods (defaultTestingCPUInitializationPeriod, defaultTestingDelayOfInitialReadinessStatus).
var testCalculator = Calculator{CPUInitializationPeriod: 2 * time.Minute, DelayOfInitialReadinessStatus: 10 * time.Second}

var testNow = time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)

// hot and cool are hotCPUCreationTime (now) and coolCPUCreationTime (3 minutes ago).
const (
	hot  = time.Duration(1)
	cool = -3 * time.Minute
)

func (tc calcCase) input() ResourceInput {
	n := int(tc.current)
	n = max(n, len(tc.phase))
	in := ResourceInput{CurrentReplicas: tc.current, Resource: api.ResourceCPU, Now: testNow, Metrics: PodMetricsInfo{},
		Tolerances: Tolerances{DefaultTolerance, DefaultTolerance}}
	if tc.tolerances != nil {
		in.Tolerances = *tc.tolerances
	}
	for i := 0; i < n; i++ {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("test-pod-%d", i), Namespace: "test-namespace"}}
		p.Status.Phase = api.PodRunning
		if i < len(tc.phase) {
			p.Status.Phase = tc.phase[i]
		}
		ready := api.ConditionTrue
		if i < len(tc.ready) {
			ready = tc.ready[i]
		}
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: ready}}
		start := api.Time{}
		if i < len(tc.start) {
			switch tc.start[i] {
			case hot:
				start = api.NewTime(testNow)
			default:
				start = api.NewTime(testNow.Add(tc.start[i]))
			}
		}
		p.Status.StartTime = &start
		if i < len(tc.deleting) && tc.deleting[i] {
			p.DeletionTimestamp = api.NewTimePtr(testNow)
		}
		p.Spec.Containers = []api.Container{{Name: "container1"}, {Name: "container2"}}
		if i < len(tc.requests) {
			for j := range p.Spec.Containers {
				p.Spec.Containers[j].Resources.Requests = api.ResourceList{api.ResourceCPU: api.MustQuantity(tc.requests[i])}
			}
		}
		in.Pods = append(in.Pods, p)
	}
	for i, l := range tc.levels {
		name := fmt.Sprintf("test-pod-%d", i)
		if i < len(tc.podNames) {
			name = tc.podNames[i]
		}
		in.Metrics[name] = PodMetric{Timestamp: time.Time{}, Window: time.Minute, Value: l * numContainersPerPod}
	}
	return in
}

func ones(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "1.0"
	}
	return out
}

const (
	T = api.ConditionTrue
	F = api.ConditionFalse
)

// TestGetResourceReplicas ports the resource rows of
// pkg/controller/podautoscaler/replica_calculator_test.go (v1.35.4), each
// named after its upstream test.
func TestGetResourceReplicas(t *testing.T) {
	t.Parallel()
	cases := []calcCase{
		{name: "TestReplicaCalcDisjointResourcesMetrics", current: 1, wantErr: "no metrics returned matched known pods",
			requests: []string{"1.0"}, levels: []int64{100}, podNames: []string{"an-older-pod-name"}, target: 100},
		{name: "TestReplicaCalcScaleUp", current: 3, want: 5, requests: ones(3), levels: []int64{300, 500, 700}, target: 30,
			wantUtil: 50, wantRaw: numContainersPerPod * 500},
		{name: "TestReplicaCalcScaleUpUnreadyLessScale", current: 3, want: 4, ready: []string{F, T, T}, requests: ones(3),
			levels: []int64{300, 500, 700}, target: 30, wantUtil: 60, wantRaw: numContainersPerPod * 600},
		{name: "TestReplicaCalcScaleUpHotCpuLessScale", current: 3, want: 4, start: []time.Duration{hot, cool, cool}, requests: ones(3),
			levels: []int64{300, 500, 700}, target: 30, wantUtil: 60, wantRaw: numContainersPerPod * 600},
		{name: "TestReplicaCalcScaleUpUnreadyNoScale", current: 3, want: 3, ready: []string{T, F, F}, requests: ones(3),
			levels: []int64{400, 500, 700}, target: 30, wantUtil: 40, wantRaw: numContainersPerPod * 400},
		{name: "TestReplicaCalcScaleHotCpuNoScale", current: 3, want: 3, ready: []string{T, F, F}, start: []time.Duration{cool, hot, hot},
			requests: ones(3), levels: []int64{400, 500, 700}, target: 30, wantUtil: 40, wantRaw: numContainersPerPod * 400},
		{name: "TestReplicaCalcScaleUpIgnoresFailedPods", current: 2, want: 4, ready: []string{T, T, F, F},
			phase: []string{api.PodRunning, api.PodRunning, api.PodFailed, api.PodFailed}, requests: ones(4), levels: []int64{500, 700},
			target: 30, wantUtil: 60, wantRaw: numContainersPerPod * 600},
		{name: "TestReplicaCalcScaleUpIgnoresDeletionPods", current: 2, want: 4, ready: []string{T, T, F, F},
			phase: []string{api.PodRunning, api.PodRunning, api.PodRunning, api.PodRunning}, deleting: []bool{false, false, true, true},
			requests: ones(4), levels: []int64{500, 700}, target: 30, wantUtil: 60, wantRaw: numContainersPerPod * 600},
		{name: "TestReplicaCalcScaleDown", current: 5, want: 3, requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, target: 50,
			wantUtil: 28, wantRaw: numContainersPerPod * 280},
		{name: "TestReplicaCalcScaleDownExcludeUnreadyPods", current: 5, want: 2, ready: []string{T, T, T, F, F}, requests: ones(5),
			levels: []int64{100, 300, 500, 250, 250}, target: 50, wantUtil: 30, wantRaw: numContainersPerPod * 300},
		{name: "TestReplicaCalcScaleDownExcludeUnscheduledPods", current: 5, want: 1, ready: []string{T, F, F, F, F},
			phase: []string{api.PodRunning, api.PodPending, api.PodPending, api.PodPending, api.PodPending}, requests: ones(5),
			levels: []int64{100}, target: 50, wantUtil: 10, wantRaw: numContainersPerPod * 100},
		{name: "TestReplicaCalcScaleDownIgnoreHotCpuPods", current: 5, want: 2, start: []time.Duration{cool, cool, cool, hot, hot},
			requests: ones(5), levels: []int64{100, 300, 500, 250, 250}, target: 50, wantUtil: 30, wantRaw: numContainersPerPod * 300},
		{name: "TestReplicaCalcScaleDownIgnoresFailedPods", current: 5, want: 3, ready: []string{T, T, T, T, T, F, F},
			phase:    []string{api.PodRunning, api.PodRunning, api.PodRunning, api.PodRunning, api.PodRunning, api.PodFailed, api.PodFailed},
			requests: ones(7), levels: []int64{100, 300, 500, 250, 250}, target: 50, wantUtil: 28, wantRaw: numContainersPerPod * 280},
		{name: "TestReplicaCalcScaleDownIgnoresDeletionPods", current: 5, want: 3, ready: []string{T, T, T, T, T, F, F},
			phase:    []string{api.PodRunning, api.PodRunning, api.PodRunning, api.PodRunning, api.PodRunning, api.PodRunning, api.PodRunning},
			deleting: []bool{false, false, false, false, false, true, true}, requests: ones(7), levels: []int64{100, 300, 500, 250, 250},
			target: 50, wantUtil: 28, wantRaw: numContainersPerPod * 280},
		{name: "TestReplicaCalcTolerance", current: 3, want: 3, requests: []string{"0.9", "1.0", "1.1"}, levels: []int64{1010, 1030, 1020},
			target: 100, wantUtil: 102, wantRaw: numContainersPerPod * 1020},
		{name: "TestReplicaCalcConfigurableTolerance/Outside of a 0% tolerance", current: 3, want: 4, tolerances: &Tolerances{0, 0},
			requests: []string{"0.9", "1.0", "1.1"}, levels: []int64{909, 1010, 1111}, target: 100, wantUtil: 101, wantRaw: numContainersPerPod * 1010},
		{name: "TestReplicaCalcConfigurableTolerance/Within a 200% scale-up tolerance", current: 3, want: 3,
			tolerances: &Tolerances{ScaleDown: DefaultTolerance, ScaleUp: 2}, requests: []string{"0.9", "1.0", "1.1"},
			levels: []int64{1890, 1910, 1900}, target: 100, wantUtil: 190, wantRaw: numContainersPerPod * 1900},
		{name: "TestReplicaCalcConfigurableTolerance/Outside 8% scale-up tolerance", current: 3, want: 4,
			tolerances: &Tolerances{ScaleDown: 2, ScaleUp: .08}, requests: []string{"0.9", "1.0", "1.1"}, levels: []int64{1100, 1080, 1090},
			target: 100, wantUtil: 109, wantRaw: numContainersPerPod * 1090},
		{name: "TestReplicaCalcConfigurableTolerance/Within a 36% scale-down tolerance", current: 3, want: 3,
			tolerances: &Tolerances{ScaleDown: .36, ScaleUp: DefaultTolerance}, requests: []string{"0.9", "1.0", "1.1"},
			levels: []int64{660, 640, 650}, target: 100, wantUtil: 65, wantRaw: numContainersPerPod * 650},
		{name: "TestReplicaCalcConfigurableTolerance/Outside a 34% scale-down tolerance", current: 3, want: 2,
			tolerances: &Tolerances{ScaleDown: .34, ScaleUp: DefaultTolerance}, requests: []string{"0.9", "1.0", "1.1"},
			levels: []int64{660, 640, 650}, target: 100, wantUtil: 65, wantRaw: numContainersPerPod * 650},
		{name: "TestReplicaCalcSuperfluousMetrics", current: 4, want: 24, requests: ones(4), levels: []int64{4000, 9500, 3000, 7000, 3200, 2000},
			target: 100, wantUtil: 587, wantRaw: numContainersPerPod * 5875},
		{name: "TestReplicaCalcMissingMetrics", current: 4, want: 3, requests: ones(4), levels: []int64{400, 95}, target: 100, wantUtil: 24,
			wantRaw: 495},
		{name: "TestReplicaCalcEmptyCPURequest", current: 1, wantErr: "missing request for", requests: []string{}, levels: []int64{200},
			target: 100},
		{name: "TestReplicaCalcMissingMetricsNoChangeEq", current: 2, want: 2, requests: ones(2), levels: []int64{1000}, target: 100,
			wantUtil: 100, wantRaw: numContainersPerPod * 1000},
		{name: "TestReplicaCalcMissingMetricsNoChangeGt", current: 2, want: 2, requests: ones(2), levels: []int64{1900}, target: 100,
			wantUtil: 190, wantRaw: numContainersPerPod * 1900},
		{name: "TestReplicaCalcMissingMetricsNoChangeLt", current: 2, want: 2, requests: ones(2), levels: []int64{600}, target: 100,
			wantUtil: 60, wantRaw: numContainersPerPod * 600},
		{name: "TestReplicaCalcMissingMetricsUnreadyChange", current: 3, want: 3, ready: []string{F, T, T}, requests: ones(3),
			levels: []int64{100, 450}, target: 50, wantUtil: 45, wantRaw: numContainersPerPod * 450},
		{name: "TestReplicaCalcMissingMetricsHotCpuNoChange", current: 3, want: 3, start: []time.Duration{hot, cool, cool}, requests: ones(3),
			levels: []int64{100, 450}, target: 50, wantUtil: 45, wantRaw: numContainersPerPod * 450},
		{name: "TestReplicaCalcMissingMetricsUnreadyScaleUp", current: 3, want: 4, ready: []string{F, T, T}, requests: ones(3),
			levels: []int64{100, 2000}, target: 50, wantUtil: 200, wantRaw: numContainersPerPod * 2000},
		{name: "TestReplicaCalcMissingMetricsHotCpuScaleUp", current: 3, want: 4, ready: []string{F, T, T}, start: []time.Duration{hot, cool, cool},
			requests: ones(3), levels: []int64{100, 2000}, target: 50, wantUtil: 200, wantRaw: numContainersPerPod * 2000},
		{name: "TestReplicaCalcMissingMetricsUnreadyScaleDown", current: 4, want: 3, ready: []string{F, T, T, T}, requests: ones(4),
			levels: []int64{100, 100, 100}, target: 50, wantUtil: 10, wantRaw: numContainersPerPod * 100},
		{name: "TestReplicaCalcMissingMetricsScaleDownTargetOver100", current: 4, want: 2, ready: []string{F, T, T, T},
			requests: []string{"1.0", "1.0", "2.0", "2.0"}, levels: []int64{200, 100, 100}, target: 300, wantUtil: 6,
			wantRaw: numContainersPerPod * 100},
		{name: "TestReplicaCalcDuringRollingUpdateWithMaxSurge", current: 2, want: 2, phase: []string{api.PodRunning, api.PodRunning, api.PodRunning},
			requests: ones(3), levels: []int64{100, 100}, target: 50, wantUtil: 10, wantRaw: numContainersPerPod * 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, util, raw, err := testCalculator.GetResourceReplicas(tc.input(), tc.target)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "replicas")
			assert.Equal(t, tc.wantUtil, util, "utilization")
			assert.Equal(t, tc.wantRaw, raw, "raw value")
		})
	}
}

// TestGetRawResourceReplicas checks the AverageValue path
// (calcPlainMetricReplicas): usage per pod against the target, with the
// missing-pod rule of plain metrics (they use exactly the target when
// scaling down).
func TestGetRawResourceReplicas(t *testing.T) {
	t.Parallel()
	cases := []calcCase{
		{name: "scale up by the average", current: 3, want: 5, requests: ones(3), levels: []int64{300, 500, 700}, averageValue: 600,
			wantAvg: 1000},
		{name: "within the tolerance", current: 3, want: 3, requests: ones(3), levels: []int64{500, 500, 500}, averageValue: 1050,
			wantAvg: 1000},
		{name: "scale down", current: 4, want: 2, requests: ones(4), levels: []int64{200, 200, 200, 200}, averageValue: 800, wantAvg: 400},
		// 400, 400 and two missing at 800: an average of 600 of 800, ceil(0.75 x 4) = 3.
		{name: "missing pods use the target on a scale-down", current: 4, want: 3, requests: ones(4), levels: []int64{200, 200},
			averageValue: 800, wantAvg: 400},
		{name: "an unready pod counts as 0 on a scale-up", current: 3, want: 4, ready: []string{F, T, T}, requests: ones(3),
			levels: []int64{100, 1000, 1000}, averageValue: 1000, wantAvg: 2000},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, avg, err := testCalculator.GetRawResourceReplicas(tc.input(), tc.averageValue)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got, "replicas")
			assert.Equal(t, tc.wantAvg, avg, "average usage")
		})
	}
}

// fakeMetrics is a metrics API that returns fixed samples.
type fakeMetrics []controller.PodMetrics

func (f fakeMetrics) PodMetrics(namespace string, sel labels.Selector) []controller.PodMetrics {
	return f
}

// TestReplicaCalcEmptyMetrics is upstream's: no metrics at all is the
// metrics client's error.
func TestReplicaCalcEmptyMetrics(t *testing.T) {
	t.Parallel()
	_, err := resourceMetrics(fakeMetrics(nil), api.ResourceCPU, "test-namespace", labels.Everything())
	require.Error(t, err)
	assert.Equal(t, "unable to get metrics for resource cpu: no metrics returned from resource metrics API",
		fmt.Sprintf("unable to get metrics for resource %s: %v", api.ResourceCPU, err))
	_, err = resourceMetrics(nil, api.ResourceCPU, "test-namespace", labels.Everything())
	assert.ErrorContains(t, err, "the server could not find the requested resource (get pods.metrics.k8s.io)")
}

func TestApproximateFloat64(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want float64
	}{{"0.05", 0.05}, {"50m", 0.05}, {"0.1", 0.1}, {"1", 1}, {"2.5", 2.5}, {"0", 0}, {"0.125", 0.125}} {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, ApproximateFloat64(api.MustQuantity(tc.in)))
		})
	}
}
