package outcome_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/outcome"
	"converge/core/sim"
	"converge/core/simtest/simrun"
)

// strategyScenario is 10 replicas whose image changes at 10s, with the
// strategy given (YAML of spec.strategy, or "" for the defaults).
func strategyScenario(strategy string) string {
	if strategy != "" {
		strategy = "    strategy: " + strategy + "\n"
	}
	return `name: strategy
duration: 90s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 10
` + strategy + `    selector:
      matchLabels: {app: web}
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - {name: web, image: myrepo/web:1.0}
steps:
- at: 10s
  kubectl: set image deployment/web web=myrepo/web:2.0
`
}

// runToEnd simulates src to its end and returns the history and the end.
func runToEnd(t *testing.T, src string) ([]sim.Sample, int64) {
	t.Helper()
	s := simrun.Load(t, src)
	end := int64(s.Duration().Seconds())
	s.SeekTo(end)
	return s.History(), end
}

func only(t *testing.T, ds []outcome.Deployment) outcome.Deployment {
	t.Helper()
	require.Len(t, ds, 1)
	return ds[0]
}

// TestOutcomesOfTheStrategies pins what each strategy costs a Deployment of
// 10 replicas: the bounds Kubernetes documents for a rolling update ("at
// least 75% of the desired number of Pods are up (25% max unavailable)",
// "at most 125% of the desired number of Pods are up (25% max surge)",
// kubernetes.io/docs/concepts/workloads/controllers/deployment/, with the
// rounding of ResolveFenceposts: surge 2.5 → 3 up, unavailable 2.5 → 2
// down), and Recreate's all-down-then-all-up.
func TestOutcomesOfTheStrategies(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, strategy          string
		minAvailable, maxReplic int32
		minPercent              int32
	}{
		{"defaults 25% and 25%: never below 8 available, never above 13 replicas", "", 8, 13, 80},
		{"maxSurge 0, maxUnavailable 1: 9 and 10", "{rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}", 9, 10, 90},
		{"maxSurge 1, maxUnavailable 0: 10 and 11", "{rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}", 10, 11, 100},
		{"Recreate: 0 and 10", "{type: Recreate}", 0, 10, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			hist, end := runToEnd(t, strategyScenario(tc.strategy))
			d := only(t, outcome.Of(hist, end))
			assert.Equal(t, "web", d.Name)
			require.NotNil(t, d.RolloutStart)
			assert.Equal(t, int64(10), *d.RolloutStart)
			require.NotNil(t, d.RolloutSeconds, "the rollout completes")
			assert.Positive(t, *d.RolloutSeconds)
			assert.Equal(t, tc.minAvailable, *d.MinAvailable)
			assert.Equal(t, tc.minPercent, *d.MinAvailablePercent)
			assert.Equal(t, tc.maxReplic, *d.MaxReplicas)
			assert.GreaterOrEqual(t, *d.MaxPods, *d.MaxReplicas, "pods that exist include Terminating ones")
			assert.Equal(t, int32(10), *d.PodsCreated, "one new pod per replica")
			assert.False(t, d.ProgressDeadlineExceeded)
		})
	}
}

func TestRolloutSecondsIsUntilKubectlRolloutStatusSaysDone(t *testing.T) {
	t.Parallel()
	hist, end := runToEnd(t, strategyScenario(""))
	d := only(t, outcome.Of(hist, end))
	done := *d.RolloutStart + *d.RolloutSeconds
	for ts := *d.RolloutStart; ts < done; ts++ {
		assert.False(t, hist[ts].Deployments[0].Complete, "second %d", ts)
	}
	assert.True(t, hist[done].Deployments[0].Complete)
	ds := hist[done].Deployments[0]
	assert.Equal(t, []int32{10, 10, 10}, []int32{ds.Updated, ds.Available, ds.Total})
}

func TestOutcomesSoFar(t *testing.T) {
	t.Parallel()
	hist, _ := runToEnd(t, strategyScenario(""))
	assert.Nil(t, only(t, outcome.Of(hist, 9)).RolloutStart, "before the step there is no rollout")
	d := only(t, outcome.Of(hist, 12))
	require.NotNil(t, d.RolloutStart)
	assert.Nil(t, d.RolloutSeconds, "not complete yet at 12s")
	assert.Nil(t, outcome.Of(hist, -1))
	assert.Equal(t, outcome.Of(hist, 90), outcome.Of(hist, 1000), "upTo is clamped to the history")
}

func TestNoRolloutMeasuresNothing(t *testing.T) {
	t.Parallel()
	hist, end := runToEnd(t, `name: scale
duration: 40s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: a}]}
steps:
- at: 10s
  kubectl: scale deployment/web --replicas=5
- at: 20s
  apply:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: late}
    spec:
      selector: {matchLabels: {app: late}}
      template:
        metadata: {labels: {app: late}}
        spec: {containers: [{name: late, image: a}]}
`)
	ds := outcome.Of(hist, end)
	require.Len(t, ds, 2)
	assert.Equal(t, outcome.Deployment{Name: "late"}, ds[0], "created by a step: a creation, not a rollout")
	assert.Equal(t, outcome.Deployment{Name: "web"}, ds[1], "a scale does not change the pod template")
}

func TestRolloutStartIsTheFirstTemplateChange(t *testing.T) {
	t.Parallel()
	hist, end := runToEnd(t, `name: two
duration: 80s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 3
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: a}]}
steps:
- at: 5s
  kubectl: scale deployment/web --replicas=4
- at: 15s
  kubectl: rollout restart deployment/web
- at: 40s
  kubectl: set env deployment/web MODE=fast
`)
	assert.Equal(t, int64(15), outcome.RolloutStart(hist, "web"), "rollout restart changes the template (an annotation)")
	d := only(t, outcome.Of(hist, end))
	assert.Equal(t, int64(15), *d.RolloutStart)
	assert.Equal(t, int32(8), *d.PodsCreated, "both rollouts' pods count, from the first one's start")
	ros := outcome.Rollouts(hist, "web", end)
	require.Len(t, ros, 2)
	assert.Equal(t, []int64{15, 40}, []int64{ros[0].Start, ros[1].Start})
	assert.Equal(t, []string{"2", "3"}, []string{ros[0].Revision, ros[1].Revision})
}

func TestAStuckRolloutExceedsItsDeadline(t *testing.T) {
	t.Parallel()
	hist, end := runToEnd(t, `name: stuck
duration: 90s
cluster:
  images:
    myrepo/web:bad: {pull: fail}
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 4
    progressDeadlineSeconds: 30
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: myrepo/web:1.0}]}
steps:
- at: 10s
  kubectl: set image deployment/web web=myrepo/web:bad
`)
	d := only(t, outcome.Of(hist, end))
	assert.Nil(t, d.RolloutSeconds, "never complete")
	assert.True(t, d.ProgressDeadlineExceeded)
	assert.Equal(t, int32(3), *d.MinAvailable, "maxUnavailable 25% of 4 = 1")

	ros := outcome.Rollouts(hist, "web", 25)
	require.Len(t, ros, 1)
	r := ros[0]
	assert.Equal(t, outcome.StateInProgress, r.State)
	assert.Equal(t, "ImagePullBackOff", r.Stuck)
	assert.Equal(t, int64(15), r.Seconds())
	assert.Equal(t, outcome.Deadline{Limit: 30, WithoutProgress: 15, Counting: true}, r.Deadline)
	assert.Equal(t, int64(15), r.Deadline.Left())

	r = outcome.Rollouts(hist, "web", end)[0]
	assert.True(t, r.Deadline.Exceeded)
	assert.Equal(t, int64(41), r.Deadline.ExceededAt, "more than 30s without progress after the step at 10s")
	assert.Equal(t, int64(80), r.Deadline.WithoutProgress)
	assert.Zero(t, r.Deadline.Left())
}

func TestTheBreakdownAddsUpToTheRollout(t *testing.T) {
	t.Parallel()
	for _, name := range simrun.BuiltinNames(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := simrun.New(t, simrun.Builtin(t, name))
			end := int64(s.Duration().Seconds())
			s.SeekTo(end)
			for _, d := range outcome.Of(s.History(), end) {
				for _, r := range outcome.Rollouts(s.History(), d.Name, end) {
					var sum int64
					for _, p := range r.Parts {
						assert.Positive(t, p.Seconds, "empty parts are left out")
						assert.Contains(t, outcome.PartKeys, p.Key)
						sum += p.Seconds
					}
					assert.Equal(t, r.Seconds(), sum, "%s rollout at %ds: %+v", d.Name, r.Start, r.Parts)
					from := r.Start
					for _, sp := range r.Spans {
						assert.Equal(t, from, sp.From, "spans follow one another")
						assert.Greater(t, sp.To, sp.From)
						from = sp.To
					}
					assert.Equal(t, r.End, from, "spans cover the rollout")
				}
			}
		})
	}
}

// parts renders a breakdown as "creating 1, readiness 2, surge 7".
func parts(r outcome.Rollout) string {
	out := ""
	for i, p := range r.Parts {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%s %d", p.Key, p.Seconds)
	}
	return out
}

func TestWhereTheTimeGoes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scenario, deployment string
		want                 []string
	}{
		// Surge 3 of 10: the new ReplicaSet waits at the cap while each
		// batch starts, then the last batch creates and readies its pods.
		{"rolling-update", "web", []string{"20..29 complete: creating 2, surge 6, old-pods 1"}},
		// Paused at 15s; three template changes are one rollout, resumed at 40s.
		{"pause-resume", "web", []string{"20..48 complete: creating 3, surge 4, paused 20, old-pods 1"}},
		// The probe and minReadySeconds 10 take most of the time.
		{"readiness-gating", "api", []string{"45..87 complete: creating 3, readiness 18, surge 21"}},
		// Recreate: the old pods go first, then the new ones start.
		{"recreate", "worker", []string{"20..25 complete: creating 3, old-pods 1, status 1"}},
		// The bad image's pods back off until the deadline and the undo.
		{"stuck-bad-image", "web", []string{"20..160 replaced: surge 2, failing 138", "160..160 complete: "}},
		{"stuck-no-capacity", "batch", []string{"20..100 replaced: failing 80", "100..100 complete: "}},
	}
	for _, tc := range tests {
		t.Run(tc.scenario, func(t *testing.T) {
			t.Parallel()
			s := simrun.New(t, simrun.Builtin(t, tc.scenario))
			end := int64(s.Duration().Seconds())
			s.SeekTo(end)
			var got []string
			for _, r := range outcome.Rollouts(s.History(), tc.deployment, end) {
				got = append(got, fmt.Sprintf("%d..%d %s: %s", r.Start, r.End, r.State, parts(r)))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	ds := func(ro sim.RolloutSample) *sim.DeploymentSample {
		return &sim.DeploymentSample{Desired: 10, Rollout: &ro}
	}
	tests := []struct {
		name string
		ds   *sim.DeploymentSample
		want string
	}{
		{"complete", &sim.DeploymentSample{Desired: 10, Complete: true}, outcome.PartStatus},
		{"paused wins over everything", ds(sim.RolloutSample{Paused: true, Stuck: "ImagePullBackOff", Creating: 3}), outcome.PartPaused},
		{"a stuck pod wins over a budget", ds(sim.RolloutSample{Stuck: "CrashLoopBackOff", Blocking: "surge", NewDesired: 3}), outcome.PartFailing},
		{"surge while the new ReplicaSet is short", ds(sim.RolloutSample{Blocking: "surge", NewDesired: 3, Creating: 3}), outcome.PartSurge},
		{"unavailable while the new ReplicaSet is short", ds(sim.RolloutSample{Blocking: "unavailable", NewDesired: 5, NotReady: 2}), outcome.PartUnavailable},
		{"a budget with the new ReplicaSet at full size: its pods", ds(sim.RolloutSample{Blocking: "unavailable", NewDesired: 10, Creating: 2}), outcome.PartCreating},
		{"pending pods are being created", ds(sim.RolloutSample{NewDesired: 10, Pending: 1, NotReady: 4}), outcome.PartCreating},
		{"running, not ready", ds(sim.RolloutSample{NewDesired: 10, NotReady: 1}), outcome.PartReadiness},
		{"ready, minReadySeconds not over", ds(sim.RolloutSample{NewDesired: 10, Ready: 1}), outcome.PartReadiness},
		{"only old pods left", ds(sim.RolloutSample{NewDesired: 10, OldPods: 2}), outcome.PartOldPods},
		{"nothing left but the status", ds(sim.RolloutSample{NewDesired: 10}), outcome.PartStatus},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, outcome.Classify(tc.ds))
		})
	}
}

func TestPartLabels(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, k := range outcome.PartKeys {
		l := outcome.PartLabel(k)
		assert.NotEmpty(t, l)
		assert.False(t, seen[l], "every part has its own words")
		seen[l] = true
	}
	assert.Equal(t, "paced by maxUnavailable", outcome.PartLabel(outcome.PartUnavailable))
	assert.Equal(t, "nope", outcome.PartLabel("nope"))
}
