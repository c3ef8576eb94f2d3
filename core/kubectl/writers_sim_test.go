package kubectl_test

// kubectl's views of the other writers, on library scenarios run by the
// simulation (an external test package: core/sim imports kubectl): get and
// describe of a HorizontalPodAutoscaler, and managedFields shown by
// --show-managed-fields only.

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/kubectl"
	"converge/core/simtest/simrun"
)

func runAt(t *testing.T, scenario string, at int64, line string) string {
	t.Helper()
	s := simrun.New(t, simrun.Builtin(t, scenario))
	s.SeekTo(at)
	r := kubectl.Run(&kubectl.Env{Store: s.Store()}, line)
	require.Empty(t, r.Error, line)
	return r.Output
}

// managedFieldsOf is the managedFields block of `get -o yaml` output.
func managedFieldsOf(out string) string {
	start := strings.Index(out, "  managedFields:\n")
	if start < 0 {
		return ""
	}
	end := strings.Index(out[start:], "\n  name: ")
	return out[start : start+end+1]
}

func TestGetAndDescribeHPA(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, scenario string
		at             int64
		line, want     string
	}{
		{"get while scaling up", "hpa-scale-on-load", 70, "get hpa",
			"NAME   REFERENCE        TARGETS         MINPODS   MAXPODS   REPLICAS   AGE\n" +
				"web    Deployment/web   cpu: 250%/50%   2         10        4          70s"},
		{"get before the first metric", "hpa-scale-on-load", 20, "get hpa web",
			"NAME   REFERENCE        TARGETS              MINPODS   MAXPODS   REPLICAS   AGE\n" +
				"web    Deployment/web   cpu: <unknown>/50%   2         10        2          20s"},
		{"describe while limited by the scale-up rate", "hpa-scale-on-load", 70, "describe hpa web", `Name:                                                  web
Namespace:                                             default
Labels:                                                <none>
Annotations:                                           <none>
CreationTimestamp:                                     Thu, 01 Jan 2026 00:00:00 +0000
Reference:                                             Deployment/web
Metrics:                                               ( current / target )
  resource cpu on pods  (as a percentage of request):  250% (500m) / 50%
Min replicas:                                          2
Max replicas:                                          10
Deployment pods:                                       4 current / 8 desired
Conditions:
  Type            Status  Reason            Message
  ----            ------  ------            -------
  AbleToScale     True    SucceededRescale  the HPA controller was able to update the target scale to 8
  ScalingActive   True    ValidMetricFound  the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)
  ScalingLimited  True    ScaleUpLimit      the desired replica count is increasing faster than the maximum scale rate
Events:
  Type     Reason                        Age                From                       Message
  ----     ------                        ----               ----                       -------
  Warning  FailedGetResourceMetric       40s (x2 over 55s)  horizontal-pod-autoscaler  failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API
  Warning  FailedComputeMetricsReplicas  40s (x2 over 55s)  horizontal-pod-autoscaler  invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API
  Normal   SuccessfulRescale             25s                horizontal-pod-autoscaler  New size: 4; reason: cpu resource utilization (percentage of request) above target
  Normal   SuccessfulRescale             10s                horizontal-pod-autoscaler  New size: 8; reason: cpu resource utilization (percentage of request) above target`},
		{"describe after the scale-down", "hpa-scale-on-load", 600, "describe hpa web", `Name:                                                  web
Namespace:                                             default
Labels:                                                <none>
Annotations:                                           <none>
CreationTimestamp:                                     Thu, 01 Jan 2026 00:00:00 +0000
Reference:                                             Deployment/web
Metrics:                                               ( current / target )
  resource cpu on pods  (as a percentage of request):  50% (100m) / 50%
Min replicas:                                          2
Max replicas:                                          10
Deployment pods:                                       2 current / 2 desired
Conditions:
  Type            Status  Reason              Message
  ----            ------  ------              -------
  AbleToScale     True    ReadyForNewScale    recommended size matches current size
  ScalingActive   True    ValidMetricFound    the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)
  ScalingLimited  False   DesiredWithinRange  the desired count is within the acceptable range
Events:
  Type     Reason                        Age                    From                       Message
  ----     ------                        ----                   ----                       -------
  Warning  FailedGetResourceMetric       9m30s (x2 over 9m45s)  horizontal-pod-autoscaler  failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API
  Warning  FailedComputeMetricsReplicas  9m30s (x2 over 9m45s)  horizontal-pod-autoscaler  invalid metrics (1 invalid out of 1), first error is: failed to get cpu resource metric value: failed to get cpu utilization: unable to get metrics for resource cpu: no metrics returned from resource metrics API
  Normal   SuccessfulRescale             9m15s                  horizontal-pod-autoscaler  New size: 4; reason: cpu resource utilization (percentage of request) above target
  Normal   SuccessfulRescale             9m                     horizontal-pod-autoscaler  New size: 8; reason: cpu resource utilization (percentage of request) above target
  Normal   SuccessfulRescale             8m45s                  horizontal-pod-autoscaler  New size: 10; reason:
  Normal   SuccessfulRescale             30s                    horizontal-pod-autoscaler  New size: 2; reason: All metrics below target`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, runAt(t, tc.scenario, tc.at, tc.line))
		})
	}
}

func TestManagedFieldsShownOnlyWithTheFlag(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, scenario string
		at             int64
		want           string
	}{
		// kubectl scale's Update through the scale subresource takes
		// spec.replicas from the reconciler's Apply entry.
		{"kubectl scale owns replicas", "gitops-undoes-kubectl-scale", 50, `  managedFields:
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:selector: {}
        f:template: {}
    manager: gitops
    operation: Apply
    time: "2026-01-01T00:00:00Z"
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:replicas: {}
    manager: kubectl
    operation: Update
    subresource: scale
    time: "2026-01-01T00:00:40Z"
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:annotations:
          f:deployment.kubernetes.io/revision: {}
      f:status:
        f:availableReplicas: {}
        f:conditions: {}
        f:observedGeneration: {}
        f:readyReplicas: {}
        f:replicas: {}
        f:terminatingReplicas: {}
        f:updatedReplicas: {}
    manager: kube-controller-manager
    operation: Update
    subresource: status
    time: "2026-01-01T00:00:42Z"
`},
		// The sync at 60 s applies Git with force: the Apply entry owns
		// replicas again and kubectl's entry, now empty, is gone.
		{"the sync takes it back", "gitops-undoes-kubectl-scale", 70, `  managedFields:
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:replicas: {}
        f:selector: {}
        f:template: {}
    manager: gitops
    operation: Apply
    time: "2026-01-01T00:01:00Z"
  - apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:metadata:
        f:annotations:
          f:deployment.kubernetes.io/revision: {}
      f:status:
        f:availableReplicas: {}
        f:conditions: {}
        f:observedGeneration: {}
        f:readyReplicas: {}
        f:replicas: {}
        f:terminatingReplicas: {}
        f:updatedReplicas: {}
    manager: kube-controller-manager
    operation: Update
    subresource: status
    time: "2026-01-01T00:01:01Z"
`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, managedFieldsOf(runAt(t, tc.scenario, tc.at, "get deployment web -o yaml --show-managed-fields")))
			assert.NotContains(t, runAt(t, tc.scenario, tc.at, "get deployment web -o yaml"), "managedFields")
			assert.NotContains(t, runAt(t, tc.scenario, tc.at, "get deployment web -o json"), "managedFields")
			assert.Contains(t, runAt(t, tc.scenario, tc.at, "get deployment web -o json --show-managed-fields"), `"managedFields": [`)
		})
	}
}
