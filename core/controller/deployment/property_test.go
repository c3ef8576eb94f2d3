package deployment

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// rolloutSpec is one random rollout of the property test.
type rolloutSpec struct {
	replicas                 int32
	recreate                 bool
	maxSurge, maxUnavailable string
	readyAfter               int
	minReadySeconds          int32
	rounds                   int
	rollover                 bool // a second template change in the middle
}

func (s rolloutSpec) String() string {
	st := "Recreate"
	if !s.recreate {
		st = fmt.Sprintf("surge=%s,unavail=%s", s.maxSurge, s.maxUnavailable)
	}
	return fmt.Sprintf("r=%d,%s,ready=%d,minReady=%d,rounds=%d,rollover=%v", s.replicas, st, s.readyAfter, s.minReadySeconds, s.rounds, s.rollover)
}

func randomIntOrPercent(rng *rand.Rand, maxPercent int) string {
	if rng.IntN(2) == 0 {
		return fmt.Sprint(rng.IntN(6))
	}
	return fmt.Sprintf("%d%%", rng.IntN(maxPercent+1))
}

func randomRolloutSpec(rng *rand.Rand) rolloutSpec {
	s := rolloutSpec{
		replicas:   int32(1 + rng.IntN(25)),
		recreate:   rng.IntN(7) == 0,
		readyAfter: 1 + rng.IntN(3),
		rounds:     []int{1, 8}[rng.IntN(2)],
		rollover:   rng.IntN(3) == 0,
	}
	if rng.IntN(4) == 0 {
		s.minReadySeconds = int32(1 + rng.IntN(3))
	}
	for !s.recreate {
		s.maxSurge, s.maxUnavailable = randomIntOrPercent(rng, 150), randomIntOrPercent(rng, 100)
		if isZero(s.maxSurge) && isZero(s.maxUnavailable) {
			continue // validation forbids both being literally 0
		}
		break
	}
	return s
}

func isZero(v string) bool { return strings.TrimSuffix(v, "%") == "0" }

// TestRolloutProperties runs many random rollouts and checks, after every
// controller pass and every ReplicaSet reconcile, the promises a rolling
// update makes when nothing fails:
//   - Σ spec.replicas over the ReplicaSets never exceeds replicas + maxSurge
//     (replicas for Recreate);
//   - available pods never drop below replicas − maxUnavailable (rolling);
//
// and that every rollout completes, leaving one active ReplicaSet.
func TestRolloutProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(20260101, 1))
	for i := 0; i < 150; i++ {
		spec := randomRolloutSpec(rng)
		t.Run(fmt.Sprintf("%03d %s", i, spec), func(t *testing.T) {
			t.Parallel()
			checkRollout(t, spec)
		})
	}
}

func checkRollout(t *testing.T, spec rolloutSpec) {
	opts := []simtest.DeploymentOption{simtest.WithMinReadySeconds(spec.minReadySeconds)}
	if spec.recreate {
		opts = append(opts, simtest.WithRecreate())
	} else {
		opts = append(opts, simtest.WithRollingUpdate(spec.maxSurge, spec.maxUnavailable))
	}
	c := settled(t, spec.replicas, spec.readyAfter, opts...)
	c.rounds = spec.rounds
	d := c.f.getD("web")
	maxTotal := int64(spec.replicas) + int64(MaxSurge(d))
	minAvailable := spec.replicas - MaxUnavailable(d)
	violations := 0
	c.afterPass = func() {
		var total int64
		var available int32
		for _, rs := range c.f.store.ReplicaSets() {
			total += int64(specOf(rs))
			available += rs.Status.AvailableReplicas
		}
		if total > maxTotal || (!spec.recreate && available < minAvailable) {
			violations++
			if violations <= 3 {
				t.Errorf("step %d: Σ spec %d (max %d), available %d (min %d)", c.step, total, maxTotal, available, minAvailable)
			}
		}
	}
	c.setImage("web", "web:2")
	if spec.rollover {
		c.run()
		c.run()
		c.setImage("web", "web:3")
	}
	c.runUntil(600, func() bool { return c.complete("web") })
	c.run()
	final := "web:2"
	if spec.rollover {
		final = "web:3"
	}
	var active []string
	for _, rs := range c.f.store.ReplicaSets() {
		if specOf(rs) > 0 {
			active = append(active, rs.Spec.Template.Spec.Containers[0].Image)
		}
	}
	assert.Equal(t, []string{final}, active)
	assert.True(t, strings.HasSuffix(c.rolloutStatus("web"), "successfully rolled out"))
	got := c.f.getD("web")
	require.NotNil(t, GetDeploymentCondition(&got.Status, api.DeploymentProgressing))
	assert.Equal(t, NewRSAvailableReason, GetDeploymentCondition(&got.Status, api.DeploymentProgressing).Reason)
	assert.Equal(t, api.ConditionTrue, GetDeploymentCondition(&got.Status, api.DeploymentAvailable).Status)
	assert.True(t, c.record("web").InSync)
}
