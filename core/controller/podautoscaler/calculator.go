package podautoscaler

import (
	"errors"
	"fmt"
	"math"
	"time"

	"converge/core/api"
)

// PodMetric is one pod's metric: its value in milli-units, and when and
// over which window it was measured (metricsclient.PodMetric).
type PodMetric struct {
	Timestamp time.Time
	Window    time.Duration
	Value     int64
}

// PodMetricsInfo are the metrics of the pods, by pod name.
type PodMetricsInfo map[string]PodMetric

// Tolerances are the usage ratio tolerances of each direction: no scaling
// while 1-scaleDown <= ratio <= 1+scaleUp.
type Tolerances struct {
	ScaleDown, ScaleUp float64
}

func (t Tolerances) isWithin(ratio float64) bool {
	return (1.0-t.ScaleDown) <= ratio && ratio <= (1.0+t.ScaleUp)
}

// Calculator is the ReplicaCalculator: how long a pod's CPU is suspect
// after it starts (cpuInitializationPeriod, 5 min) and how long after its
// start a readiness change still counts as the initial one
// (delayOfInitialReadinessStatus, 30 s).
type Calculator struct {
	CPUInitializationPeriod       time.Duration
	DelayOfInitialReadinessStatus time.Duration
}

// DefaultCalculator has kube-controller-manager's defaults
// (--horizontal-pod-autoscaler-cpu-initialization-period and
// --horizontal-pod-autoscaler-initial-readiness-delay).
func DefaultCalculator() Calculator {
	return Calculator{CPUInitializationPeriod: 5 * time.Minute, DelayOfInitialReadinessStatus: 30 * time.Second}
}

// ResourceInput is what GetResourceReplicas works on: the target's pods
// (those its scale's selector matches), their metrics, and the time.
type ResourceInput struct {
	CurrentReplicas int32
	Resource        string
	Tolerances      Tolerances
	Pods            []*api.Pod
	Metrics         PodMetricsInfo
	Now             time.Time
}

// GetResourceReplicas is ReplicaCalculator.GetResourceReplicas for a
// Utilization target: it returns the desired replica count, the current
// utilization (percent of the pods' requests) and the average raw usage.
//
// Worked example (replica_calculator_test.go TestReplicaCalcScaleUp): 3 pods
// requesting 1 cpu each use 300m, 500m and 700m; target 30%. Utilization is
// 1500m/3000m = 50%, the ratio 50/30 = 1.67, outside the 0.1 tolerance, so
// the count is ceil(1.67 x 3) = 5. With unready or metric-less pods the
// ratio is recomputed as if they used nothing (scaling up) or, for missing
// metrics, their whole request (scaling down), and the count stays when
// that would reverse the direction or fall within the tolerance.
func (c Calculator) GetResourceReplicas(in ResourceInput, targetUtilization int32) (replicas, utilization int32, rawUtilization int64, err error) {
	metrics := copyMetrics(in.Metrics)
	if len(in.Pods) == 0 {
		return 0, 0, 0, errors.New("no pods returned by selector while calculating replica count")
	}
	readyPodCount, unready, missing, ignored := c.groupPods(in.Pods, metrics, in.Resource, in.Now)
	removeMetrics(metrics, ignored)
	removeMetrics(metrics, unready)
	if len(metrics) == 0 {
		return 0, 0, 0, errors.New("did not receive metrics for targeted pods (pods might be unready)")
	}
	requests, err := calculateRequests(in.Pods, in.Resource)
	if err != nil {
		return 0, 0, 0, err
	}
	usageRatio, utilization, rawUtilization, err := resourceUtilizationRatio(metrics, requests, targetUtilization)
	if err != nil {
		return 0, 0, 0, err
	}
	scaleUpWithUnready := len(unready) > 0 && usageRatio > 1.0
	if !scaleUpWithUnready && len(missing) == 0 {
		if in.Tolerances.isWithin(usageRatio) {
			return in.CurrentReplicas, utilization, rawUtilization, nil
		}
		return int32(math.Ceil(usageRatio * float64(readyPodCount))), utilization, rawUtilization, nil
	}
	if len(missing) > 0 {
		if usageRatio < 1.0 {
			// On a scale-down, missing pods use 100% of their request (or the target, when above 100%).
			fallback := int64(max(100, targetUtilization))
			for name := range missing {
				metrics[name] = PodMetric{Value: requests[name] * fallback / 100}
			}
		} else if usageRatio > 1.0 {
			for name := range missing {
				metrics[name] = PodMetric{Value: 0}
			}
		}
	}
	if scaleUpWithUnready {
		for name := range unready {
			metrics[name] = PodMetric{Value: 0}
		}
	}
	newRatio, _, _, err := resourceUtilizationRatio(metrics, requests, targetUtilization)
	if err != nil {
		return 0, utilization, rawUtilization, err
	}
	if in.Tolerances.isWithin(newRatio) || (usageRatio < 1.0 && newRatio > 1.0) || (usageRatio > 1.0 && newRatio < 1.0) {
		return in.CurrentReplicas, utilization, rawUtilization, nil
	}
	newReplicas := int32(math.Ceil(newRatio * float64(len(metrics))))
	if (newRatio < 1.0 && newReplicas > in.CurrentReplicas) || (newRatio > 1.0 && newReplicas < in.CurrentReplicas) {
		return in.CurrentReplicas, utilization, rawUtilization, nil
	}
	return newReplicas, utilization, rawUtilization, nil
}

// GetRawResourceReplicas is ReplicaCalculator.GetRawResourceReplicas (and
// calcPlainMetricReplicas) for an AverageValue target in milli-units: it
// returns the desired count and the average usage per pod.
func (c Calculator) GetRawResourceReplicas(in ResourceInput, targetUsage int64) (replicas int32, usage int64, err error) {
	metrics := copyMetrics(in.Metrics)
	if len(in.Pods) == 0 {
		return 0, 0, errors.New("no pods returned by selector while calculating replica count")
	}
	readyPodCount, unready, missing, ignored := c.groupPods(in.Pods, metrics, in.Resource, in.Now)
	removeMetrics(metrics, ignored)
	removeMetrics(metrics, unready)
	if len(metrics) == 0 {
		return 0, 0, errors.New("did not receive metrics for targeted pods (pods might be unready)")
	}
	usageRatio, usage := metricUsageRatio(metrics, targetUsage)
	scaleUpWithUnready := len(unready) > 0 && usageRatio > 1.0
	if !scaleUpWithUnready && len(missing) == 0 {
		if in.Tolerances.isWithin(usageRatio) {
			return in.CurrentReplicas, usage, nil
		}
		return int32(math.Ceil(usageRatio * float64(readyPodCount))), usage, nil
	}
	if len(missing) > 0 {
		if usageRatio < 1.0 {
			// On a scale-down, missing pods use exactly the target.
			for name := range missing {
				metrics[name] = PodMetric{Value: targetUsage}
			}
		} else if usageRatio > 1.0 {
			for name := range missing {
				metrics[name] = PodMetric{Value: 0}
			}
		}
	}
	if scaleUpWithUnready {
		for name := range unready {
			metrics[name] = PodMetric{Value: 0}
		}
	}
	newRatio, _ := metricUsageRatio(metrics, targetUsage)
	if in.Tolerances.isWithin(newRatio) || (usageRatio < 1.0 && newRatio > 1.0) || (usageRatio > 1.0 && newRatio < 1.0) {
		return in.CurrentReplicas, usage, nil
	}
	newReplicas := int32(math.Ceil(newRatio * float64(len(metrics))))
	if (newRatio < 1.0 && newReplicas > in.CurrentReplicas) || (newRatio > 1.0 && newReplicas < in.CurrentReplicas) {
		return in.CurrentReplicas, usage, nil
	}
	return newReplicas, usage, nil
}

// groupPods is groupPods: pods being deleted or Failed are ignored; Pending
// pods are unready; pods without a metric are missing; for cpu, a pod is
// unready when it has no Ready condition or start time, or, within the cpu
// initialization period of its start, when it is not Ready or its metric's
// window began before it became Ready, or, after that period, when it is
// not Ready and turned so within the initial readiness delay of its start.
func (c Calculator) groupPods(pods []*api.Pod, metrics PodMetricsInfo, resource string, now time.Time) (ready int, unready, missing, ignored map[string]bool) {
	unready, missing, ignored = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed {
			ignored[p.Name] = true
			continue
		}
		if p.Status.Phase == api.PodPending {
			unready[p.Name] = true
			continue
		}
		metric, found := metrics[p.Name]
		if !found {
			missing[p.Name] = true
			continue
		}
		if resource == api.ResourceCPU {
			var isUnready bool
			cond := api.GetPodCondition(&p.Status, api.PodReady)
			switch {
			case cond == nil || p.Status.StartTime == nil:
				isUnready = true
			case p.Status.StartTime.Add(c.CPUInitializationPeriod).After(now):
				isUnready = cond.Status == api.ConditionFalse || metric.Timestamp.Before(cond.LastTransitionTime.Add(metric.Window))
			default:
				isUnready = cond.Status == api.ConditionFalse && p.Status.StartTime.Add(c.DelayOfInitialReadinessStatus).After(cond.LastTransitionTime.Time)
			}
			if isUnready {
				unready[p.Name] = true
				continue
			}
		}
		ready++
	}
	return ready, unready, missing, ignored
}

// calculateRequests is calculatePodRequestsFromContainers for every pod:
// the sum of its containers' requests of the resource; a container
// without one is an error.
func calculateRequests(pods []*api.Pod, resource string) (map[string]int64, error) {
	out := make(map[string]int64, len(pods))
	for _, p := range pods {
		var sum int64
		for _, ct := range p.Spec.Containers {
			q, ok := ct.Resources.Requests[resource]
			if !ok {
				return nil, fmt.Errorf("missing request for %s in container %s of Pod %s", resource, ct.Name, p.Name)
			}
			sum += q.MilliValue()
		}
		out[p.Name] = sum
	}
	return out, nil
}

// resourceUtilizationRatio is metricsclient.GetResourceUtilizationRatio.
func resourceUtilizationRatio(metrics PodMetricsInfo, requests map[string]int64, target int32) (ratio float64, utilization int32, rawAverage int64, err error) {
	var metricsTotal, requestsTotal int64
	n := 0
	for name, m := range metrics {
		r, ok := requests[name]
		if !ok {
			continue
		}
		metricsTotal += m.Value
		requestsTotal += r
		n++
	}
	if requestsTotal == 0 {
		return 0, 0, 0, errors.New("no metrics returned matched known pods")
	}
	utilization = int32((metricsTotal * 100) / requestsTotal)
	return float64(utilization) / float64(target), utilization, metricsTotal / int64(n), nil
}

// metricUsageRatio is metricsclient.GetMetricUsageRatio.
func metricUsageRatio(metrics PodMetricsInfo, target int64) (ratio float64, usage int64) {
	var total int64
	for _, m := range metrics {
		total += m.Value
	}
	usage = total / int64(len(metrics))
	return float64(usage) / float64(target), usage
}

func copyMetrics(m PodMetricsInfo) PodMetricsInfo {
	out := make(PodMetricsInfo, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func removeMetrics(m PodMetricsInfo, pods map[string]bool) {
	for name := range pods {
		delete(m, name)
	}
}
