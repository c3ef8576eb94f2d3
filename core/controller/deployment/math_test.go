package deployment

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

// ios parses "25%" or "3" into an IntOrString; "" is nil.
func ios(s string) *api.IntOrString { return simtest.IntOrPercent(s) }

func strPtr(s string) *api.IntOrString { v := api.FromString(s); return &v }

func TestResolveFenceposts(t *testing.T) {
	t.Parallel()
	// TestResolveFenceposts rows (util/deployment_util_test.go).
	tests := []struct {
		name                   string
		maxSurge, maxUnavail   *api.IntOrString
		desired                int32
		wantSurge, wantUnavail int32
		wantErr                bool
	}{
		{"0% and 0% of 0", strPtr("0%"), strPtr("0%"), 0, 0, 1, false},
		{"39% and 39% of 10", strPtr("39%"), strPtr("39%"), 10, 4, 3, false},
		{"malformed surge", strPtr("oops"), strPtr("39%"), 10, 0, 0, true},
		{"malformed unavailable", strPtr("55%"), strPtr("urg"), 10, 0, 0, true},
		{"nil surge", nil, strPtr("39%"), 10, 0, 3, false},
		{"nil unavailable", strPtr("39%"), nil, 10, 4, 0, false},
		{"both nil", nil, nil, 10, 0, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, u, err := ResolveFenceposts(tc.maxSurge, tc.maxUnavail, tc.desired)
			if tc.wantErr {
				require.Error(t, err)
				assert.ErrorIs(t, err, errInvalidIntOrPercent)
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.wantSurge, s, "surge")
			assert.Equal(t, tc.wantUnavail, u, "unavailable")
		})
	}
}

// TestFencepostWorkedTable ports every row of the worked table of
// docs/kubernetes-rules.md §2: raw ResolveFenceposts output, MaxUnavailable,
// minAvailable and maxTotal.
func TestFencepostWorkedTable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		row                              int
		replicas                         int32
		maxSurge, maxUnavail             string // "-" is nil
		rawSurge, rawUnavail, effUnavail int32
		minAvail, maxTotal               int32
		wantErr                          bool
	}{
		{1, 0, "0%", "0%", 0, 1, 0, 0, 0, false},
		{2, 10, "39%", "39%", 4, 3, 3, 7, 14, false},
		{3, 10, "oops", "39%", 0, 0, 0, 0, 0, true},
		{4, 10, "55%", "urg", 0, 0, 0, 0, 0, true},
		{5, 10, "-", "39%", 0, 3, 3, 7, 10, false},
		{6, 10, "39%", "-", 4, 0, 0, 10, 14, false},
		{7, 10, "-", "-", 0, 1, 1, 9, 10, false},
		{8, 10, "25%", "25%", 3, 2, 2, 8, 13, false},
		{9, 3, "25%", "25%", 1, 0, 0, 3, 4, false},
		{10, 1, "25%", "25%", 1, 0, 0, 1, 2, false},
		{11, 4, "25%", "25%", 1, 1, 1, 3, 5, false},
		{12, 5, "25%", "25%", 2, 1, 1, 4, 7, false},
		{13, 2, "1%", "1%", 1, 0, 0, 2, 3, false},
		{14, 100, "1%", "1%", 1, 1, 1, 99, 101, false},
		{15, 10, "100%", "100%", 10, 10, 10, 0, 20, false},
		{16, 10, "0%", "100%", 0, 10, 10, 0, 10, false},
		{17, 10, "0%", "1%", 0, 1, 1, 9, 10, false},
		{18, 3, "0", "10%", 0, 1, 1, 2, 3, false},
		{19, 2, "0%", "1%", 0, 1, 1, 1, 2, false},
		{20, 1, "1%", "25%", 1, 0, 0, 1, 2, false},
		{21, 10, "1", "0", 1, 0, 0, 10, 11, false},
		{22, 10, "150%", "25%", 15, 2, 2, 8, 25, false},
		{23, 3, "1", "5", 1, 5, 3, 0, 4, false},
		{24, 7, "30%", "30%", 3, 2, 2, 5, 10, false},
	}
	parse := func(s string) *api.IntOrString {
		switch {
		case s == "-":
			return nil
		case s[len(s)-1] == '%' || s[0] < '0' || s[0] > '9':
			return strPtr(s)
		}
		return ios(s)
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("row %d", tc.row), func(t *testing.T) {
			t.Parallel()
			ms, mu := parse(tc.maxSurge), parse(tc.maxUnavail)
			s, u, err := ResolveFenceposts(ms, mu, tc.replicas)
			if tc.wantErr {
				assert.Error(t, err)
			} else {
				assert.NoError(t, err)
			}
			assert.Equal(t, tc.rawSurge, s, "raw surge")
			assert.Equal(t, tc.rawUnavail, u, "raw unavailable")
			d := &api.Deployment{Spec: api.DeploymentSpec{Replicas: api.Int32(tc.replicas),
				Strategy: api.DeploymentStrategy{Type: api.RollingUpdateDeploymentStrategyType,
					RollingUpdate: &api.RollingUpdateDeployment{MaxSurge: ms, MaxUnavailable: mu}}}}
			if tc.wantErr {
				return
			}
			assert.Equal(t, tc.effUnavail, MaxUnavailable(d), "MaxUnavailable")
			assert.Equal(t, tc.minAvail, MinAvailable(d), "MinAvailable")
			assert.Equal(t, tc.maxTotal, tc.replicas+MaxSurge(d), "maxTotal")
		})
	}
}

func rollingDeployment(replicas int32, maxSurge, maxUnavailable string) *api.Deployment {
	return simtest.NewDeployment("foo", replicas, "foo:1", simtest.WithRollingUpdate(maxSurge, maxUnavailable))
}

func TestMaxUnavailable(t *testing.T) {
	t.Parallel()
	// TestMaxUnavailable rows, maxSurge 1.
	tests := []struct {
		name       string
		deployment *api.Deployment
		want       int32
	}{
		{"maxUnavailable less than replicas", rollingDeployment(10, "1", "5"), 5},
		{"maxUnavailable equal replicas", rollingDeployment(10, "1", "10"), 10},
		{"maxUnavailable greater than replicas", rollingDeployment(5, "1", "10"), 5},
		{"maxUnavailable with replicas is 0", rollingDeployment(0, "1", "10"), 0},
		{"maxUnavailable with Recreate deployment strategy", simtest.NewDeployment("foo", 10, "foo:1", simtest.WithRecreate()), 0},
		{"maxUnavailable less than replicas with percents", rollingDeployment(10, "1", "50%"), 5},
		{"maxUnavailable equal replicas with percents", rollingDeployment(10, "1", "100%"), 10},
		{"maxUnavailable greater than replicas with percents", rollingDeployment(5, "1", "100%"), 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, MaxUnavailable(tc.deployment))
		})
	}
}

func TestMinAvailable(t *testing.T) {
	t.Parallel()
	// TestMinAvailable rows, maxSurge 1.
	tests := []struct {
		name       string
		deployment *api.Deployment
		want       int32
	}{
		{"replicas greater than maxUnavailable", rollingDeployment(10, "1", "5"), 5},
		{"replicas equal maxUnavailable", rollingDeployment(10, "1", "10"), 0},
		{"replicas less than maxUnavailable", rollingDeployment(5, "1", "10"), 0},
		{"replicas is 0", rollingDeployment(0, "1", "10"), 0},
		{"minAvailable with Recreate deployment strategy", simtest.NewDeployment("foo", 10, "foo:1", simtest.WithRecreate()), 0},
		{"replicas greater than maxUnavailable with percents", rollingDeployment(10, "1", "60%"), 4},
		{"replicas equal maxUnavailable with percents", rollingDeployment(10, "1", "100%"), 0},
		{"replicas less than maxUnavailable with percents", rollingDeployment(5, "1", "100%"), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, MinAvailable(tc.deployment))
		})
	}
}

func TestMaxSurge(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		deployment *api.Deployment
		want       int32
	}{
		{"defaults on 10", rollingDeployment(10, "25%", "25%"), 3},
		{"surge above 100% is not clamped", rollingDeployment(10, "150%", "25%"), 15},
		{"absolute", rollingDeployment(3, "5", "0"), 5},
		{"Recreate", simtest.NewDeployment("foo", 10, "foo:1", simtest.WithRecreate()), 0},
		{"invalid counts as 0", rollingDeployment(10, "x%", "25%"), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, MaxSurge(tc.deployment))
		})
	}
}

func rsOf(spec int32) *api.ReplicaSet {
	return &api.ReplicaSet{Spec: api.ReplicaSetSpec{Replicas: api.Int32(spec)}}
}

func TestNewRSNewReplicas(t *testing.T) {
	t.Parallel()
	// TestNewRSNewReplicas rows: maxUnavailable 1, allRSs = [an RS of 5]; the new RS is not in allRSs.
	tests := []struct {
		name          string
		strategy      string
		depReplicas   int32
		newRSReplicas int32
		maxSurge      int32
		want          int32
	}{
		{"can not scale up - to newRSReplicas", api.RollingUpdateDeploymentStrategyType, 1, 5, 1, 5},
		{"scale up - to depReplicas", api.RollingUpdateDeploymentStrategyType, 6, 2, 10, 6},
		{"recreate - to depReplicas", api.RecreateDeploymentStrategyType, 3, 1, 1, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := simtest.NewDeployment("foo", tc.depReplicas, "foo:1")
			d.Spec.Strategy = api.DeploymentStrategy{Type: tc.strategy}
			if tc.strategy == api.RollingUpdateDeploymentStrategyType {
				d.Spec.Strategy.RollingUpdate = &api.RollingUpdateDeployment{
					MaxSurge: api.IntOrStringPtr(api.FromInt(tc.maxSurge)), MaxUnavailable: api.IntOrStringPtr(api.FromInt(1))}
			}
			got, err := NewRSNewReplicas(d, []*api.ReplicaSet{rsOf(5)}, rsOf(tc.newRSReplicas))
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("unknown strategy is an error", func(t *testing.T) {
		t.Parallel()
		d := simtest.NewDeployment("foo", 3, "foo:1")
		d.Spec.Strategy.Type = "Foo"
		_, err := NewRSNewReplicas(d, nil, rsOf(0))
		assert.EqualError(t, err, "deployment type Foo isn't supported")
	})
	t.Run("invalid maxSurge is an error", func(t *testing.T) {
		t.Parallel()
		_, err := NewRSNewReplicas(rollingDeployment(3, "x%", "1"), nil, rsOf(0))
		assert.ErrorIs(t, err, errInvalidIntOrPercent)
	})
}

func TestGetReplicaSetFraction(t *testing.T) {
	t.Parallel()
	// getReplicaSetFraction rows (newer util/deployment_util_test.go).
	tests := []struct {
		name               string
		deploymentReplicas int32
		statusReplicas     int32
		maxSurge           string
		rsSpec             int32
		annotation         string // "missing" for none
		want               int32
	}{
		{"scaling to zero removes the whole RS", 0, 0, "0", 10, "missing", -10},
		{"missing annotation, status 0", 10, 0, "0", 5, "missing", 0},
		{"annotation 0, status 0", 10, 0, "0", 5, "0", 0},
		{"missing annotation falls back to status", 120, 100, "0", 50, "missing", 10},
		{"annotation 0 falls back to status", 120, 100, "0", 50, "0", 10},
		{"annotation 100", 120, 0, "0", 50, "100", 10},
		{"annotation 110 with surge 10", 120, 0, "10", 50, "110", 9},
		{"scale down 12 -> 10", 10, 0, "0", 6, "12", -1},
		{"scale down 130 -> 110", 100, 0, "10", 50, "130", -8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := rollingDeployment(tc.deploymentReplicas, tc.maxSurge, "1")
			d.Status.Replicas = tc.statusReplicas
			rs := rsOf(tc.rsSpec)
			if tc.annotation != "missing" {
				rs.Annotations = map[string]string{api.MaxReplicasAnnotation: tc.annotation}
			}
			assert.Equal(t, tc.want, getReplicaSetFraction(rs, d))
		})
	}
}

func TestGetProportion(t *testing.T) {
	t.Parallel()
	d := rollingDeployment(10, "0", "1")
	rs := rsOf(3)
	rs.Annotations = map[string]string{api.MaxReplicasAnnotation: "7"}
	tests := []struct {
		name         string
		rs           *api.ReplicaSet
		toAdd, added int32
		want         int32
	}{
		{"nil rs", nil, 3, 0, 0},
		{"empty rs", rsOf(0), 3, 0, 0},
		{"nothing to add", rs, 0, 0, 0},
		{"all distributed", rs, 3, 3, 0},
		{"fraction round(30/7)-3 = 1", rs, 3, 0, 1},
		{"capped by what is left", rs, 3, 2, 1},
		{"no annotation and no status replicas: 0", rsOf(3), -1, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, GetProportion(tc.rs, d, tc.toAdd, tc.added))
		})
	}
	t.Run("scale down capped at what is left to remove", func(t *testing.T) {
		t.Parallel()
		small := rollingDeployment(2, "0", "1")
		big := rsOf(6)
		big.Annotations = map[string]string{api.MaxReplicasAnnotation: "12"}
		assert.Equal(t, int32(-5), getReplicaSetFraction(big, small))
		assert.Equal(t, int32(-2), GetProportion(big, small, -4, -2))
	})
}

func TestRoundDiv(t *testing.T) {
	t.Parallel()
	tests := []struct{ num, den, want int64 }{
		{30, 7, 4}, {20, 7, 3}, {64, 13, 5}, {5, 2, 3}, {-5, 2, -3}, {-4, 3, -1}, {0, 5, 0}, {200, 13, 15},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d/%d", tc.num, tc.den), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, roundDiv(tc.num, tc.den))
		})
	}
}

func statusOf(replicas, updated, ready, available int32) *api.DeploymentStatus {
	return &api.DeploymentStatus{Replicas: replicas, UpdatedReplicas: updated, ReadyReplicas: ready, AvailableReplicas: available}
}

func TestDeploymentComplete(t *testing.T) {
	t.Parallel()
	// TestDeploymentComplete rows: (desired, current, updated, available, maxUnavailable, maxSurge).
	tests := []struct {
		name                                 string
		desired, current, updated, available int32
		maxUnavailable, maxSurge             string
		want                                 bool
	}{
		{"not complete: min but not all pods become available", 5, 5, 5, 4, "1", "0", false},
		{"not complete: min availability is not honored", 5, 5, 5, 3, "1", "0", false},
		{"complete", 5, 5, 5, 5, "0", "0", true},
		{"not complete: all pods are available but not updated", 5, 5, 4, 5, "0", "0", false},
		{"not complete: still running old pods", 1, 2, 1, 1, "0", "1", false},
		{"not complete: one replica deployment never comes up", 1, 1, 1, 0, "1", "1", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := rollingDeployment(tc.desired, tc.maxSurge, tc.maxUnavailable)
			d.Generation = 1
			st := statusOf(tc.current, tc.updated, tc.available, tc.available)
			st.ObservedGeneration = 1
			assert.Equal(t, tc.want, DeploymentComplete(d, st))
		})
	}
	t.Run("generation not observed", func(t *testing.T) {
		t.Parallel()
		d := rollingDeployment(5, "0", "1")
		d.Generation = 2
		st := statusOf(5, 5, 5, 5)
		st.ObservedGeneration = 1
		assert.False(t, DeploymentComplete(d, st))
	})
}

func TestDeploymentProgressing(t *testing.T) {
	t.Parallel()
	// TestDeploymentProgressing rows: (current, updated, ready, available), old → new.
	tests := []struct {
		name     string
		old, new *api.DeploymentStatus
		want     bool
	}{
		{"progressing: updated pods", statusOf(10, 4, 4, 4), statusOf(10, 6, 4, 4), true},
		{"not progressing", statusOf(10, 4, 4, 4), statusOf(10, 4, 4, 4), false},
		{"progressing: old pods removed", statusOf(10, 4, 6, 6), statusOf(8, 4, 6, 6), true},
		{"not progressing: less new pods", statusOf(10, 7, 3, 3), statusOf(10, 6, 3, 3), false},
		{"progressing: less overall but more new pods", statusOf(10, 4, 7, 7), statusOf(8, 8, 5, 5), true},
		{"progressing: more ready pods", statusOf(10, 10, 9, 8), statusOf(10, 10, 10, 8), true},
		{"progressing: more available pods", statusOf(10, 10, 10, 9), statusOf(10, 10, 10, 10), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := rollingDeployment(10, "1", "1")
			d.Status = *tc.old
			assert.Equal(t, tc.want, DeploymentProgressing(d, tc.new))
		})
	}
}

func TestDeploymentTimedOut(t *testing.T) {
	t.Parallel()
	at := func(m, s int) time.Time { return time.Date(2026, 1, 1, 0, m, s, 0, time.UTC) }
	progressing := func(reason string, updated time.Time) *api.DeploymentStatus {
		return &api.DeploymentStatus{Conditions: []api.DeploymentCondition{{Type: api.DeploymentProgressing, Status: api.ConditionTrue,
			Reason: reason, LastUpdateTime: api.NewTime(updated), LastTransitionTime: api.NewTime(updated)}}}
	}
	// TestDeploymentTimedOut rows.
	tests := []struct {
		name     string
		deadline *int32
		status   *api.DeploymentStatus
		now      time.Time
		want     bool
	}{
		{"nil progressDeadlineSeconds specified", nil, progressing(ReplicaSetUpdatedReason, at(1, 9)), at(1, 20), false},
		{"infinite progressDeadlineSeconds specified", api.Int32(api.NoProgressDeadline), progressing(ReplicaSetUpdatedReason, at(1, 9)), at(1, 20), false},
		{"progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s", api.Int32(10), progressing(ReplicaSetUpdatedReason, at(1, 9)), at(1, 20), true},
		{"progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s", api.Int32(10), progressing(ReplicaSetUpdatedReason, at(1, 11)), at(1, 20), false},
		{"exactly at the deadline is not yet timed out", api.Int32(10), progressing(ReplicaSetUpdatedReason, at(1, 10)), at(1, 20), false},
		{"previous status was a complete deployment", api.Int32(10), progressing(NewRSAvailableReason, at(0, 0)), at(1, 20), false},
		{"already timed out", api.Int32(10), progressing(TimedOutReason, at(1, 19)), at(1, 20), true},
		{"no Progressing condition", api.Int32(10), &api.DeploymentStatus{}, at(1, 20), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := rollingDeployment(1, "1", "0")
			d.Spec.ProgressDeadlineSeconds = tc.deadline
			assert.Equal(t, tc.want, DeploymentTimedOut(d, tc.status, tc.now))
		})
	}
}

func TestIsSaturated(t *testing.T) {
	t.Parallel()
	d := rollingDeployment(3, "1", "0")
	mk := func(spec, available int32, desired string) *api.ReplicaSet {
		rs := rsOf(spec)
		rs.Status.AvailableReplicas = available
		if desired != "" {
			rs.Annotations = map[string]string{api.DesiredReplicasAnnotation: desired}
		}
		return rs
	}
	tests := []struct {
		name string
		rs   *api.ReplicaSet
		want bool
	}{
		{"nil", nil, false},
		{"saturated", mk(3, 3, "3"), true},
		{"not all available", mk(3, 2, "3"), false},
		{"annotation differs", mk(3, 3, "2"), false},
		{"annotation missing", mk(3, 3, ""), false},
		{"annotation not a number", mk(3, 3, "x"), false},
		{"size differs", mk(2, 3, "3"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, IsSaturated(d, tc.rs))
		})
	}
}

func TestFindActiveOrLatest(t *testing.T) {
	t.Parallel()
	at := func(sec int, spec int32, name string) *api.ReplicaSet {
		rs := rsOf(spec)
		rs.Name = name
		rs.CreationTimestamp = api.NewTime(api.Epoch.Add(time.Duration(sec) * time.Second))
		return rs
	}
	newRS := at(3, 0, "new")
	tests := []struct {
		name   string
		newRS  *api.ReplicaSet
		oldRSs []*api.ReplicaSet
		want   string
	}{
		{"nothing", nil, nil, ""},
		{"no active: the new one", newRS, []*api.ReplicaSet{at(1, 0, "a"), at(2, 0, "b")}, "new"},
		{"no active and no new: the newest old one", nil, []*api.ReplicaSet{at(1, 0, "a"), at(2, 0, "b")}, "b"},
		{"one active", newRS, []*api.ReplicaSet{at(1, 0, "a"), at(2, 4, "b")}, "b"},
		{"two active: none", at(3, 1, "new"), []*api.ReplicaSet{at(1, 0, "a"), at(2, 4, "b")}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := FindActiveOrLatest(tc.newRS, tc.oldRSs)
			if tc.want == "" {
				assert.Nil(t, got)
				return
			}
			require.NotNil(t, got)
			assert.Equal(t, tc.want, got.Name)
		})
	}
}

func TestHasProgressDeadlineAndRevisionHistoryLimit(t *testing.T) {
	t.Parallel()
	d := rollingDeployment(1, "1", "0")
	assert.True(t, HasProgressDeadline(d))
	assert.True(t, HasRevisionHistoryLimit(d))
	d.Spec.ProgressDeadlineSeconds = api.Int32(api.NoProgressDeadline)
	d.Spec.RevisionHistoryLimit = api.Int32(api.NoProgressDeadline)
	assert.False(t, HasProgressDeadline(d))
	assert.False(t, HasRevisionHistoryLimit(d))
	d.Spec.ProgressDeadlineSeconds, d.Spec.RevisionHistoryLimit = nil, nil
	assert.False(t, HasProgressDeadline(d))
	assert.False(t, HasRevisionHistoryLimit(d))
}

// FuzzResolveFenceposts feeds arbitrary maxSurge/maxUnavailable strings:
// never a panic, an error exactly for malformed percents, results never
// negative, and never both 0.
func FuzzResolveFenceposts(f *testing.F) {
	for _, s := range []struct {
		a, b string
		n    int32
	}{{"25%", "25%", 10}, {"0%", "0%", 0}, {"oops", "1%", 3}, {"150%", "99999999999%", 10000}, {"%", "-1%", 5}} {
		f.Add(s.a, s.b, s.n)
	}
	f.Fuzz(func(t *testing.T, a, b string, n int32) {
		s, u, err := ResolveFenceposts(strPtr(a), strPtr(b), n)
		_, okA := api.ParsePercent(a)
		_, okB := api.ParsePercent(b)
		if !okA || !okB {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		assert.GreaterOrEqual(t, s, int32(0))
		assert.GreaterOrEqual(t, u, int32(0))
		assert.False(t, s == 0 && u == 0)
		FencepostMath(strPtr(a), strPtr(b), n)
	})
}

// TerminatingReplicas follows GetTerminatingReplicaCountForReplicaSets in
// pkg/controller/deployment/util/deployment_util.go (1.35): a sum, nil when a
// synced ReplicaSet does not report its count, and never-synced ReplicaSets
// left out.
func TestTerminatingReplicasSumsWhatTheReplicaSetsReport(t *testing.T) {
	t.Parallel()
	rs := func(observed int64, terminating *int32) *api.ReplicaSet {
		r := &api.ReplicaSet{}
		r.Status.ObservedGeneration, r.Status.TerminatingReplicas = observed, terminating
		return r
	}
	n := func(v int32) *int32 { return &v }
	for _, tc := range []struct {
		name string
		rss  []*api.ReplicaSet
		want *int32
	}{
		{"no replica sets", nil, n(0)},
		{"two reporting", []*api.ReplicaSet{rs(1, n(2)), rs(3, n(1))}, n(3)},
		{"a never-synced one does not count", []*api.ReplicaSet{rs(1, n(2)), rs(0, nil)}, n(2)},
		{"a synced one without a count makes the sum unknown", []*api.ReplicaSet{rs(1, n(2)), rs(2, nil)}, nil},
		{"nil entries are skipped", []*api.ReplicaSet{nil, rs(1, n(4))}, n(4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, TerminatingReplicas(tc.rss))
		})
	}
}

// MinAvailable returns spec.replicas − MaxUnavailable, or 0 for Recreate.
//
// Example: 10 replicas with maxUnavailable 60% gives 4.
func MinAvailable(d *api.Deployment) int32 {
	if !IsRollingUpdate(d) {
		return 0
	}
	return replicas(d) - MaxUnavailable(d)
}
