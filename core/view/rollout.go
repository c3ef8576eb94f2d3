package view

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/deployment"
	"converge/core/humanize"
	"converge/core/labels"
	"converge/core/sim"
	"converge/core/store"
)

// Rollout is one Deployment's rollout: its ReplicaSets side by side, old
// ones first by revision and the new one last, each with its pods as tiles,
// and the two budgets of a rolling update.
type Rollout struct {
	Deployment string
	// Strategy is "RollingUpdate (maxSurge 25%, maxUnavailable 25%)" or "Recreate".
	Strategy string
	Replicas int32
	// Revision is the Deployment's current revision ("" before the first
	// ReplicaSet exists).
	Revision string
	// Summary is "10 desired · 13 pods · 5 updated · 8 ready · 8 available".
	Summary string
	// Columns are the ReplicaSets worth drawing: every one that has pods
	// or wants some, and the new one.
	Columns []Column
	// Hidden counts the old ReplicaSets at 0 with no pods left, not drawn.
	Hidden int
	// Strays are pods that match the Deployment's selector but none of its
	// ReplicaSets control (released or bare pods); nil when there are none.
	Strays *Column
	// Surge and Unavailable are the budgets; nil for Recreate.
	Surge, Unavailable *Gauge
	// Paused is spec.paused.
	Paused bool
}

// Column is one ReplicaSet (or the strays) with its pods.
type Column struct {
	// Key is the ReplicaSet's uid ("strays" for the strays).
	Key  string
	Name string
	// Role is "new", "old" or "strays".
	Role     string
	Revision int64
	Image    string
	// Desired is spec.replicas; Pods, Ready and Available are its status.
	Desired, Pods, Ready, Available int32
	// Counts is "3 desired · 2 ready · 2 available".
	Counts string
	Tiles  []Tile
	// Gone are the pods this ReplicaSet created and deleted within the
	// current second (manual drift, a reverted scale): kubectl never
	// lists them, so they are drawn apart, faded, for that second only.
	Gone []Tile
}

// Gauge is one rolling-update budget: how much of it is used now.
type Gauge struct {
	// Key is "surge" or "unavailable".
	Key       string
	Used, Max int32
	// Text is "surge 2 of 3" or "unavailable 1 of 2".
	Text string
	// Math is the arithmetic behind Max, for the hover text:
	// "maxSurge 25% of 10 = 2.5, rounded up to 3".
	Math string
	// Meaning says what Used counts: "13 pods wanted by the ReplicaSets − 10 desired".
	Meaning string
	// Full is set when Used ≥ Max; Blocking when this bound stops the next step.
	Full, Blocking bool
	// Stuck is set on a blocking gauge when what holds the rollout will
	// not clear by itself (the why-line's badge is stuck): the page draws
	// it red. A blocking gauge that is not stuck paces a healthy rollout
	// and is drawn neutral.
	Stuck bool
	// Idle is set on the unavailability gauge when the budget is not in
	// play: pods start with no rollout replacing any (a first bring-up, a
	// scale-up, a crash), and more may be unavailable than the budget,
	// which only limits how many old pods a rollout takes away, so it is
	// no violation. Text then says "not available: 10 of 10, no rollout
	// replacing pods" (not "starting": they may be crashing or on a lost
	// node),
	// Full is false, and the page draws the gauge neutral, not as a fault.
	Idle bool
}

// Focus returns the Deployment the page centres on: name if it exists,
// otherwise the first by name; nil when there is none.
func Focus(s *sim.Sim, name string) *api.Deployment {
	ds := s.Store().Deployments()
	var first *api.Deployment
	for _, d := range ds {
		if d.Name == name && name != "" {
			return d
		}
		if first == nil || d.Name < first.Name {
			first = d
		}
	}
	return first
}

// ownedReplicaSets returns the ReplicaSets d controls, by revision then creation.
func ownedReplicaSets(st *store.Store, d *api.Deployment) []*api.ReplicaSet {
	var out []*api.ReplicaSet
	for _, rs := range st.ReplicaSets() {
		if rs.Namespace == d.Namespace && api.IsControlledBy(&rs.ObjectMeta, d.UID) {
			out = append(out, rs)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := revision(out[i]), revision(out[j])
		if ri != rj {
			return ri < rj
		}
		return byCreation(out[i].ObjectMeta, out[j].ObjectMeta)
	})
	return out
}

func byCreation(a, b api.ObjectMeta) bool {
	if !a.CreationTimestamp.Equal(b.CreationTimestamp) {
		return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
	}
	return a.Name < b.Name
}

func revision(rs *api.ReplicaSet) int64 {
	v, err := deployment.Revision(rs)
	if err != nil {
		return 0
	}
	return v
}

// deploymentRecord returns the deployment controller's record of d this second.
func deploymentRecord(s *sim.Sim, name string) *controller.SyncRecord {
	recs := s.Tick().Syncs
	obj := "deployment/" + name
	for i := len(recs) - 1; i >= 0; i-- {
		if recs[i].Controller == deployment.Component && recs[i].Object == obj {
			return &recs[i]
		}
	}
	return nil
}

// RolloutOf computes the rollout of the Deployment named name (or the
// focus, see Focus); nil when there is no Deployment.
func RolloutOf(s *sim.Sim, name string) *Rollout {
	d := Focus(s, name)
	if d == nil {
		return nil
	}
	st := s.Store()
	now := s.Now()
	rss := ownedReplicaSets(st, d)
	newRS := deployment.FindNewReplicaSet(d, rss)
	r := &Rollout{Deployment: d.Name, Replicas: api.Deref(d.Spec.Replicas, 1), Paused: d.Spec.Paused,
		Revision: d.Annotations[api.RevisionAnnotation], Strategy: strategyText(d)}
	r.Summary = fmt.Sprintf("%d desired · %s · %d updated · %d ready · %d available", r.Replicas,
		plural(int64(d.Status.Replicas), "pod"), d.Status.UpdatedReplicas, d.Status.ReadyReplicas, d.Status.AvailableReplicas)

	byRS := map[string]int{}
	for i, rs := range rss {
		byRS[rs.UID] = i
	}
	// Tiles come in creation order (EachPod's order), so a tile keeps its
	// place while older pods come and go.
	tiles := make([][]Tile, len(rss))
	var strays []Tile
	sel, selErr := labels.FromLabelSelector(d.Spec.Selector)
	st.EachPod(func(p *api.Pod) bool {
		if p.Namespace != d.Namespace {
			return true
		}
		ref := api.GetControllerOf(&p.ObjectMeta)
		if ref != nil {
			if i, ok := byRS[ref.UID]; ok {
				t := NewTile(p, now, rss[i].Spec.MinReadySeconds)
				t.New = newRS != nil && rss[i].UID == newRS.UID
				tiles[i] = append(tiles[i], t)
				return true
			}
		}
		if ref == nil && selErr == nil && sel.Matches(p.Labels) {
			strays = append(strays, NewTile(p, now, d.Spec.MinReadySeconds))
		}
		return true
	})
	for i, rs := range rss {
		isNew := newRS != nil && rs.UID == newRS.UID
		spec := api.Deref(rs.Spec.Replicas, 1)
		if !isNew && spec == 0 && len(tiles[i]) == 0 {
			r.Hidden++
			continue
		}
		c := Column{Key: rs.UID, Name: rs.Name, Role: "old", Revision: revision(rs), Image: images(&rs.Spec.Template),
			Desired: spec, Pods: rs.Status.Replicas, Ready: rs.Status.ReadyReplicas, Available: rs.Status.AvailableReplicas,
			Tiles: tiles[i]}
		if isNew {
			c.Role = "new"
		}
		c.Counts = fmt.Sprintf("%d desired · %d ready · %d available", c.Desired, c.Ready, c.Available)
		r.Columns = append(r.Columns, c)
	}
	// The new ReplicaSet goes last, whatever its revision.
	sort.SliceStable(r.Columns, func(i, j int) bool { return r.Columns[i].Role != "new" && r.Columns[j].Role == "new" })
	if len(strays) > 0 {
		r.Strays = &Column{Key: "strays", Name: "not controlled by a ReplicaSet", Role: "strays",
			Pods: int32(len(strays)), Tiles: strays,
			Counts: plural(int64(len(strays)), "pod") + " matching the selector " + sel.String()}
	}
	r.Surge, r.Unavailable = gauges(d, rss, deploymentRecord(s, d.Name))
	if r.Surge != nil && (r.Surge.Blocking || r.Unavailable.Blocking) {
		kind, _ := blockingCause(s, d)
		stuck := kind == "stuck" || replicaFailure(d) != nil || deadlineExceededCond(d)
		r.Surge.Stuck = r.Surge.Blocking && stuck
		r.Unavailable.Stuck = r.Unavailable.Blocking && stuck
	}
	gone := goneThisSecond(s)
	for i := range r.Columns {
		for _, name := range gone[r.Columns[i].Name] {
			r.Columns[i].Gone = append(r.Columns[i].Gone, Tile{Key: "gone/" + name, Name: name, Status: "created and deleted within " + secondsText(s.T()),
				Label: name[strings.LastIndexByte(name, '-')+1:], Shape: ShapeGone})
		}
	}
	return r
}

// deadlineExceededCond reports Progressing=False, ProgressDeadlineExceeded.
func deadlineExceededCond(d *api.Deployment) bool {
	for _, c := range d.Status.Conditions {
		if c.Type == api.DeploymentProgressing && c.Reason == "ProgressDeadlineExceeded" {
			return true
		}
	}
	return false
}

// goneThisSecond lists, by ReplicaSet name, the pods it created and
// deleted within the current second (from the drift, see Drift).
func goneThisSecond(s *sim.Sim) map[string][]string {
	out := map[string][]string{}
	for _, l := range Drift(s) {
		if l.T == s.T() {
			out[l.ReplicaSet] = append(out[l.ReplicaSet], l.Pods...)
		}
	}
	return out
}

func images(t *api.PodTemplateSpec) string {
	var out []string
	for _, c := range t.Spec.Containers {
		out = append(out, c.Image)
	}
	return strings.Join(out, ", ")
}

func strategyText(d *api.Deployment) string {
	if !deployment.IsRollingUpdate(d) {
		return d.Spec.Strategy.Type
	}
	ms, mu := "25%", "25%"
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		if ru.MaxSurge != nil {
			ms = ru.MaxSurge.String()
		}
		if ru.MaxUnavailable != nil {
			mu = ru.MaxUnavailable.String()
		}
	}
	return fmt.Sprintf("RollingUpdate (maxSurge %s, maxUnavailable %s)", ms, mu)
}

// gauges computes the two budgets of a rolling update from d and its
// ReplicaSets, the arithmetic from deployment.FencepostMath and the
// blocking bound from the controller's record of this second.
func gauges(d *api.Deployment, rss []*api.ReplicaSet, rec *controller.SyncRecord) (surge, unavail *Gauge) {
	if !deployment.IsRollingUpdate(d) {
		return nil, nil
	}
	n := api.Deref(d.Spec.Replicas, 1)
	var ms, mu *api.IntOrString
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		ms, mu = ru.MaxSurge, ru.MaxUnavailable
	}
	surgeMath, unavailMath := deployment.FencepostMath(ms, mu, n)
	var total int64
	active := 0
	for _, rs := range rss {
		total += int64(api.Deref(rs.Spec.Replicas, 1))
		if api.Deref(rs.Spec.Replicas, 1) > 0 {
			active++
		}
	}
	blocking := ""
	if rec != nil && rec.Rollout != nil {
		blocking = rec.Rollout.Blocking
	}
	surge = newGauge("surge", int32(max(total-int64(n), 0)), deployment.MaxSurge(d), surgeMath,
		fmt.Sprintf("%s wanted by the ReplicaSets − %d desired", plural(total, "pod"), n), blocking == deployment.BlockingSurge)
	used := max(n-d.Status.AvailableReplicas, 0)
	meaning := fmt.Sprintf("%d desired − %d available", n, d.Status.AvailableReplicas)
	idle := active <= 1 && used > deployment.MaxUnavailable(d)
	if idle {
		// Pods that are still starting (a first rollout, a scale-up, a
		// crash) can exceed the budget: it only limits how many old pods a
		// rollout may take away.
		meaning += "; no rollout is replacing pods, so this budget is not in play"
	}
	unavail = newGauge("unavailable", used, deployment.MaxUnavailable(d), unavailMath, meaning,
		blocking == deployment.BlockingUnavailable)
	if idle {
		unavail.Idle, unavail.Full = true, false
		unavail.Text = fmt.Sprintf("not available: %d of %d, no rollout replacing pods", used, n)
	}
	return surge, unavail
}

func newGauge(key string, used, maxV int32, math, meaning string, blocking bool) *Gauge {
	return &Gauge{Key: key, Used: used, Max: maxV, Text: fmt.Sprintf("%s %d of %d", key, used, maxV), Math: math,
		Meaning: meaning, Full: used >= maxV, Blocking: blocking}
}

// age renders how long ago t was at now, as kubectl does for short spans: 5s, 2m30s, 1h.
func age(now, t time.Time) string {
	d := now.Sub(t)
	if d < 0 {
		d = 0
	}
	return secondsText(int64(d / time.Second))
}

// secondsText renders a second count as 45s, 2m5s, 1h2m.
var secondsText = humanize.Seconds
