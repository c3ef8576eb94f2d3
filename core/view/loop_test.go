package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/controller"
	"converge/core/sim"
)

func rowsByKey(rows []LoopRow) map[string]LoopRow {
	out := map[string]LoopRow{}
	for _, r := range rows {
		out[r.Key] = r
	}
	return out
}

func TestLoopHasEveryComponentInTickOrder(t *testing.T) {
	t.Parallel()
	rows := Loop(at(t, rolling, 5), "web")
	var keys, want []string
	for _, r := range rows {
		keys = append(keys, r.Key)
		assert.NotEqual(t, r.Key, r.Title, "%s has a title of its own", r.Key)
		assert.NotEmpty(t, r.Role, r.Key)
	}
	for _, c := range sim.TickOrder() {
		switch c.Name {
		case "gitops", "horizontal-pod-autoscaler", "metrics-server":
			continue // not in this scenario
		}
		want = append(want, c.Name)
	}
	assert.Equal(t, want, keys, "the engine's order, under the names its records carry")
	by := rowsByKey(rows)
	assert.Equal(t, "in-sync", by["deployment-controller"].State)
	assert.Equal(t, "in sync: 10 replicas: 10 updated, 10 available", by["deployment-controller"].Step)
	assert.Equal(t, "deployment/web", by["deployment-controller"].Object)
	assert.Equal(t, "in sync: no pod is waiting for a node", by["default-scheduler"].Step)
	assert.Equal(t, "in sync: nothing has lost its owner", by["garbage-collector-controller"].Step)
}

func TestLoopHighlightsTheStepTakenThisSecond(t *testing.T) {
	t.Parallel()
	by := rowsByKey(Loop(at(t, rolling, 10), "web"))
	d := by["deployment-controller"]
	assert.Equal(t, "acting", d.State)
	assert.Contains(t, d.Step, "create replica set web-")
	rs := by["replicaset-controller"]
	assert.Equal(t, "acting", rs.State)
	assert.Equal(t, "delete 2 pods: web-cb9944cdd-tzsxj, web-cb9944cdd-lgcwv", rs.Step, "the old ReplicaSet ran first")
	assert.Equal(t, "8 pods", rs.Desired)
	require.Len(t, rs.Items, 2, "the new ReplicaSet's pods, created in two rounds")
	assert.Contains(t, rs.Items[0].Text, "create 3 pods: web-")
	assert.Contains(t, rs.Items[1].Text, "create 2 pods: web-")
	sched := by["default-scheduler"]
	assert.Equal(t, "acting", sched.State)
	assert.Contains(t, sched.Step, "bind pod web-")
	assert.Equal(t, 4, sched.More, "five pods were bound")
	assert.Len(t, sched.Items, 4)
	for _, it := range sched.Items {
		assert.Equal(t, "acting", it.State)
		assert.Contains(t, it.Text, "bind pod ")
	}
}

func TestLoopRowPrefersActionsThenTheFocus(t *testing.T) {
	t.Parallel()
	recs := []controller.SyncRecord{
		{Controller: "x", Object: "replicaset/api-1", InSync: true},
		{Controller: "x", Object: "replicaset/web-1", Waiting: "w"},
		{Controller: "x", Object: "replicaset/api-2", Waiting: "v"},
		{Controller: "x", Object: "replicaset/web-2", Action: "create pod web-2-a"},
	}
	row := LoopRow{}
	fillRow(&row, recs, "web", "idle")
	assert.Equal(t, "acting", row.State)
	assert.Equal(t, "replicaset/web-2", row.Object)
	assert.Zero(t, row.More, "waits are not listed under a step")

	row = LoopRow{}
	fillRow(&row, recs[:3], "web", "idle")
	assert.Equal(t, "waiting", row.State)
	assert.Equal(t, "replicaset/web-1", row.Object, "the focus first among equals")
	require.Len(t, row.Items, 1)
	assert.Equal(t, "replicaset/api-2", row.Items[0].Object)

	// Among objects in sync, the one holding the most: not an empty
	// node's kubelet, not an old ReplicaSet at 0.
	row = LoopRow{}
	fillRow(&row, []controller.SyncRecord{
		{Object: "node/node-1", Observed: "0 pods", InSync: true},
		{Object: "node/node-2", Observed: "12 pods: 12 running", InSync: true},
		{Object: "node/node-3", Observed: "3 pods: 3 running", InSync: true},
		{Object: "node/node-4", Observed: "12 pods: 11 running, 1 starting", InSync: true},
	}, "", "no node runs pods")
	assert.Equal(t, "node/node-2", row.Object, "the first of the busiest")
	assert.Equal(t, "in sync: 12 pods: 12 running", row.Step)
	row = LoopRow{}
	fillRow(&row, []controller.SyncRecord{
		{Object: "replicaset/api-1", Observed: "5 pods (5 ready)", InSync: true},
		{Object: "replicaset/web-old", Observed: "0 pods", InSync: true},
		{Object: "replicaset/web-new", Observed: "3 pods (3 ready)", InSync: true},
	}, "web", "idle")
	assert.Equal(t, "replicaset/web-new", row.Object, "the focus still comes first")
	assert.Zero(t, leadingCount("Ready, last heartbeat 10s ago"))
	assert.Equal(t, 100, leadingCount("100 pods"))

	row = LoopRow{}
	fillRow(&row, recs[:1], "", "idle")
	assert.Equal(t, "in-sync", row.State)
	assert.Equal(t, "in sync", row.Step)
	row = LoopRow{}
	fillRow(&row, []controller.SyncRecord{{Object: "node/n", Observed: "Ready", InSync: true}}, "", "idle")
	assert.Equal(t, "in sync: Ready", row.Step)
	row = LoopRow{}
	fillRow(&row, nil, "", "no Service")
	assert.Equal(t, "in sync: no Service", row.Step)
	row = LoopRow{}
	fillRow(&row, nil, "", "")
	assert.Equal(t, "in sync", row.Step, "a component without words for idle")

	assert.True(t, aboutFocus("pod/web-5d9c-x2", "web"))
	assert.False(t, aboutFocus("pod/webby", "web"))
	assert.False(t, aboutFocus("web", "web"))
	assert.False(t, aboutFocus("deployment/web", ""))
}
