package view

import (
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/deployment"
	"converge/core/controller/disruption"
	"converge/core/controller/endpoints"
	"converge/core/controller/gc"
	"converge/core/controller/gitops"
	"converge/core/controller/nodelifecycle"
	"converge/core/controller/podautoscaler"
	"converge/core/controller/replicaset"
	"converge/core/controller/resourcequota"
	"converge/core/kubelet"
	"converge/core/metrics"
	"converge/core/scheduler"
	"converge/core/sim"
)

// LoopRow is one controller's turn of the reconcile loop this second: what
// it observed, what is desired and the step it took, or what it waits for,
// or "in sync".
type LoopRow struct {
	// Key is the component's name, as sim.TickOrder and its sync records
	// have it ("deployment-controller").
	Key string
	// Title is "Deployment controller".
	Title string
	// Role says in a few words what the controller converges.
	Role string
	// State is "acting" (it took a step: highlight the row), "waiting" or
	// "in-sync".
	State string
	// Object is the object the row is about: "deployment/web".
	Object   string
	Observed string
	Desired  string
	// Step is the action it took, what it waits for, or "in sync" (with
	// what it observed: "in sync: 3 pods (3 ready, 3 available)").
	Step string
	// More counts the other objects it also acted on (or waited on) this
	// second; Items lists up to MaxLoopItems of them.
	More  int
	Items []LoopItem
}

// LoopItem is one more record of a controller this second.
type LoopItem struct {
	Key    string // the object
	State  string
	Text   string
	Object string
}

// MaxLoopItems bounds the records listed under one row.
const MaxLoopItems = 6

// loopTexts are the loop panel's words for each component of the tick, by
// its name (sim.TickOrder): its title, its role and what "in sync" means
// when it kept no record this second.
var loopTexts = map[string]struct{ title, role, idle string }{
	nodelifecycle.Component: {"Node lifecycle controller", "nodes' heartbeats → Ready, taints, evictions", "every node's heartbeat is fresh"},
	gc.Component:            {"Garbage collector", "objects whose owner is gone → deleted", "nothing has lost its owner"},
	resourcequota.Component: {"Resource quota controller", "pods and objects → ResourceQuota status.used", "no ResourceQuota"},
	replicaset.Component:    {"ReplicaSet controller", "ReplicaSet.replicas → pods", "no ReplicaSet to reconcile"},
	deployment.Component:    {"Deployment controller", "Deployment → ReplicaSets by revision", "no Deployment to reconcile"},
	disruption.Component:    {"Disruption controller", "healthy pods → PodDisruptionBudget disruptionsAllowed", "no PodDisruptionBudget"},
	scheduler.Component:     {"Scheduler", "pending pods → a node", "no pod is waiting for a node"},
	endpoints.Component:     {"Endpoints controller", "Service selector → ready pod addresses", "no Service"},
	kubelet.Component:       {"Kubelets", "pods on their node → containers, probes", "no node runs pods"},
	gitops.Component:        {"GitOps reconciler (simplified Argo CD / Flux)", "Git's manifests → the cluster, every interval", "Git holds nothing"},
	podautoscaler.Component: {"HorizontalPodAutoscaler controller", "pods' usage ÷ target → the target's replicas, every 15 s",
		"no HorizontalPodAutoscaler"},
	metrics.Component: {"Metrics server", "pods' CPU and memory use, scraped every 15 s", "no load set and no autoscaler reading it"},
}

// Shown reports whether the loop panel shows a component's row: always,
// but for those a cluster may not run: the GitOps reconciler with
// cluster.gitops, the HPA controller and the metrics server once there is
// an HPA or a load.
func Shown(s *sim.Sim, component string) bool {
	switch component {
	case gitops.Component:
		return s.GitOps() != nil
	case podautoscaler.Component, metrics.Component:
		return s.Store().Count(api.KindHorizontalPodAutoscaler) > 0 || usesLoad(s)
	}
	return true
}

// usesLoad reports whether the scenario has a load step.
func usesLoad(s *sim.Sim) bool {
	for _, st := range s.Scenario().Steps {
		if st.Load != nil {
			return true
		}
	}
	return false
}

// Loop returns one row per component, in the order a tick runs them
// (sim.TickOrder), without the components the scenario does not use (see
// Shown). focus is the Deployment the page centres on: its records
// come first.
func Loop(s *sim.Sim, focus string) []LoopRow {
	recs := s.Tick().Syncs
	byCtl := map[string][]controller.SyncRecord{}
	for _, r := range recs {
		byCtl[r.Controller] = append(byCtl[r.Controller], r)
	}
	order := sim.TickOrder()
	out := make([]LoopRow, 0, len(order))
	for _, c := range order {
		if !Shown(s, c.Name) {
			continue
		}
		txt, ok := loopTexts[c.Name]
		if !ok {
			txt.title = c.Name
		}
		row := LoopRow{Key: c.Name, Title: txt.title, Role: txt.role}
		fillRow(&row, byCtl[c.Name], focus, txt.idle)
		out = append(out, row)
	}
	return out
}

// recordState is "acting", "waiting" or "in-sync".
func recordState(r *controller.SyncRecord) string {
	switch {
	case r.Action != "":
		return "acting"
	case r.Waiting != "":
		return "waiting"
	}
	return "in-sync"
}

func recordStep(r *controller.SyncRecord) string {
	switch {
	case r.Action != "":
		return r.Action
	case r.Waiting != "":
		return r.Waiting
	case r.Observed != "":
		return "in sync: " + r.Observed
	}
	return "in sync"
}

var stateRank = map[string]int{"acting": 0, "waiting": 1, "in-sync": 2}

// fillRow picks the row's record (better), the first in record order among
// equals.
func fillRow(row *LoopRow, recs []controller.SyncRecord, focus, idle string) {
	if len(recs) == 0 {
		row.State, row.Step = "in-sync", "in sync"
		if idle != "" {
			row.Step += ": " + idle
		}
		return
	}
	best := -1
	for i := range recs {
		if best < 0 || better(&recs[i], &recs[best], focus) {
			best = i
		}
	}
	b := &recs[best]
	row.State, row.Object, row.Observed, row.Desired, row.Step = recordState(b), b.Object, b.Observed, b.Desired, recordStep(b)
	for i := range recs {
		r := &recs[i]
		if i == best || recordState(r) == "in-sync" || recordState(r) != row.State && row.State == "acting" {
			continue
		}
		row.More++
		if len(row.Items) < MaxLoopItems {
			row.Items = append(row.Items, LoopItem{Key: r.Object + "#" + itoa(i), State: recordState(r), Text: recordStep(r), Object: r.Object})
		}
	}
}

// better reports whether a makes a better row than b: a step beats a wait
// beats in sync; among equals the focus Deployment's objects come first;
// among objects in sync, the one that holds the most (the kubelet of the
// node with the most pods rather than an empty node's, the ReplicaSet with
// the pods rather than an old one at 0), by the count its Observed starts
// with.
func better(a, b *controller.SyncRecord, focus string) bool {
	ra, rb := stateRank[recordState(a)], stateRank[recordState(b)]
	if ra != rb {
		return ra < rb
	}
	fa, fb := aboutFocus(a.Object, focus), aboutFocus(b.Object, focus)
	if fa != fb {
		return fa
	}
	return recordState(a) == "in-sync" && leadingCount(a.Observed) > leadingCount(b.Observed)
}

// leadingCount is the number an Observed text starts with ("4 pods: 4
// running"), 0 when it starts with none.
func leadingCount(s string) int {
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9' && n < 1e8; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// aboutFocus reports whether obj is the focus Deployment or one of its
// ReplicaSets or pods (by name prefix, as their generated names start with
// the Deployment's).
func aboutFocus(obj, focus string) bool {
	if focus == "" {
		return false
	}
	_, name, ok := strings.Cut(obj, "/")
	return ok && (name == focus || strings.HasPrefix(name, focus+"-"))
}

func itoa(n int) string { return strconv.Itoa(n) }
