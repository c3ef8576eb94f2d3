package k8sdiff

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"converge/core/api"
	"converge/core/k8scase"
)

// gen draws cases from one generator: case i of seed s is always the same.
type gen struct {
	r *rand.Rand
}

func newGen(seed, i uint64) *gen { return &gen{r: rand.New(rand.NewPCG(seed, i))} }

func (g *gen) chance(p float64) bool         { return g.r.Float64() < p }
func (g *gen) n(lo, hi int) int              { return lo + g.r.IntN(hi-lo+1) }
func (g *gen) n32(lo, hi int) int32          { return int32(g.n(lo, hi)) }
func (g *gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

// fencepost draws a maxSurge or maxUnavailable: nil (the 25% default), an
// integer, a usual percent, or any percent up to 100 (150 for surge).
func (g *gen) fencepost(replicas int32, surge bool) *api.IntOrString {
	var v api.IntOrString
	switch x := g.r.IntN(10); {
	case x == 0:
		return nil
	case x < 4:
		v = api.FromInt(g.n32(0, int(min(replicas, 6))+1))
	case x < 8:
		v = api.FromString(g.pick("0%", "1%", "10%", "25%", "30%", "33%", "50%", "75%", "100%"))
	default:
		top := 100
		if surge {
			top = 150
		}
		v = api.FromString(strconv.Itoa(g.n(0, top)) + "%")
	}
	return &v
}

// hashes are the pod-template-hash labels of a case's ReplicaSets.
var hashes = []string{"6d4b9c7f85", "7c5ddbdf54", "66b6c48dd5", "5f8d7b6c49", "8c9f5d6b47", "59fdc6bc86"}

// singleCase draws one single-sync case: a Deployment in any state of a
// rollout, with one to four old ReplicaSets (sometimes none, sometimes no
// new one yet) whose status may be stale, and pods in every phase.
func (g *gen) singleCase(name string) *k8scase.Case {
	c := &k8scase.Case{Name: name, Controller: k8scase.DeploymentController}
	if g.chance(0.5) {
		c.Controller = k8scase.ReplicaSetController
	}
	d := g.deployment()
	c.Deployment = d
	g.replicaSets(c)
	g.deploymentStatus(c)
	g.pods(c)
	if c.Controller == k8scase.ReplicaSetController && len(c.ReplicaSets) > 0 && g.chance(0.04) {
		// A create limit with one ReplicaSet only: with several, one may
		// delete pods before another creates, and the two sides count the
		// limit differently (Converge: pods the store holds; the harness:
		// creates in the sync).
		l := g.n(0, 12)
		c.CreateLimit = &l
		last := c.ReplicaSets[len(c.ReplicaSets)-1]
		c.ReplicaSets = []k8scase.ReplicaSet{last}
		c.Pods = slices.DeleteFunc(c.Pods, func(p k8scase.Pod) bool { return p.Owner != last.Name })
	}
	return c
}

func (g *gen) deployment() *k8scase.Deployment {
	d := &k8scase.Deployment{Name: "web", Replicas: g.n32(0, 50), Created: -int64(g.n(3000, 4000)), Strategy: api.RollingUpdateDeploymentStrategyType}
	if g.chance(0.2) {
		d.Strategy = api.RecreateDeploymentStrategyType
		if g.chance(0.03) { // refused: rollingUpdate with Recreate
			d.MaxSurge = g.fencepost(d.Replicas, true)
		}
	} else {
		d.MaxSurge, d.MaxUnavailable = g.fencepost(d.Replicas, true), g.fencepost(d.Replicas, false)
		if g.chance(0.03) { // refused: both 0
			zs, zu := api.FromString("0%"), api.FromInt(0)
			if g.chance(0.5) {
				zs = api.FromInt(0)
			}
			d.MaxSurge, d.MaxUnavailable = &zs, &zu
		}
	}
	if g.chance(0.35) {
		d.MinReadySeconds = g.n32(1, 30)
	}
	if g.chance(0.5) {
		d.RevisionHistoryLimit = ptr32(g.n32(0, 5))
	}
	switch x := g.r.IntN(10); {
	case x < 6: // a deadline that never expires during a case
		d.ProgressDeadlineSeconds = ptr32(1_000_000)
	case x < 8:
		d.ProgressDeadlineSeconds = ptr32(math.MaxInt32)
	default: // one that expires, or not, within the case's times
		d.ProgressDeadlineSeconds = ptr32(d.MinReadySeconds + g.n32(31, 120))
	}
	d.Paused = g.chance(0.15)
	d.Generation = int64(g.n(1, 3))
	return d
}

// replicaSets draws the old ReplicaSets (oldest first) and, usually, the
// new one: the one whose image is the Deployment's.
func (g *gen) replicaSets(c *k8scase.Case) {
	d := c.Deployment
	old := g.n(1, 4)
	if g.chance(0.05) {
		old = 0
	}
	hasNew := g.chance(0.7)
	total := old
	if hasNew {
		total++
	}
	surge := int(d.Replicas)/4 + 2
	created := d.Created + 10
	for i := 0; i < total; i++ {
		isNew := hasNew && i == total-1
		image := "v" + strconv.Itoa(i+1)
		if g.chance(0.03) && i > 0 { // two ReplicaSets with the same template
			image = "v" + strconv.Itoa(i)
		}
		created += int64(g.n(0, 500))
		rs := k8scase.ReplicaSet{Name: "web-" + hashes[i], Hash: hashes[i], Image: image, Created: created,
			Replicas: g.n32(0, int(d.Replicas)+surge), MinReadySeconds: d.MinReadySeconds, Generation: int64(g.n(1, 2))}
		if !isNew && g.chance(0.4) {
			rs.Replicas = 0
		}
		if g.chance(0.05) {
			rs.MinReadySeconds = g.n32(0, 10)
		}
		rs.Status.ObservedGeneration = rs.Generation
		if g.chance(0.2) {
			rs.Status.ObservedGeneration = rs.Generation - 1
		}
		rs.Orphan = g.chance(0.04)
		rs.Unmatched = g.chance(0.03)
		rs.Annotations = g.rsAnnotations(d, i)
		g.rsStatus(&rs)
		c.ReplicaSets = append(c.ReplicaSets, rs)
	}
	for i := range c.ReplicaSets {
		// An unparsable revision only on the new ReplicaSet (one of its own
		// template): upstream's ReplicaSetsByRevision falls back to creation
		// order for it but not for the others, which is no strict weak
		// ordering, and revisionHistoryLimit cleanup then deletes whichever
		// its sort of the lister's (random) order puts first.
		rs := &c.ReplicaSets[i]
		if rs.Annotations[api.RevisionAnnotation] == "x" && !(hasNew && i == total-1 && uniqueImage(c.ReplicaSets, i)) {
			rs.Annotations[api.RevisionAnnotation] = strconv.Itoa(i + 1)
		}
	}
	if hasNew {
		d.Image = c.ReplicaSets[total-1].Image
	} else {
		d.Image = "v" + strconv.Itoa(total+1)
	}
	if g.chance(0.1) && total > 0 { // the template is an old one again (kubectl rollout undo)
		d.Image = c.ReplicaSets[g.r.IntN(total)].Image
	}
	d.Annotations = map[string]string{}
	if total > 0 && g.chance(0.9) {
		d.Annotations[api.RevisionAnnotation] = c.ReplicaSets[total-1].Annotations[api.RevisionAnnotation]
	}
	if g.chance(0.1) {
		d.Annotations[api.ChangeCauseAnnotation] = "kubectl set image deployment/web app=" + d.Image
	}
	if g.chance(0.05) {
		d.Annotations[api.RollbackToAnnotation] = g.pick("0", "1", "2", "9")
	}
	if len(d.Annotations) == 0 {
		d.Annotations = nil
	}
}

func uniqueImage(rss []k8scase.ReplicaSet, i int) bool {
	for j := range rss {
		if j != i && rss[j].Image == rss[i].Image {
			return false
		}
	}
	return true
}

func (g *gen) rsAnnotations(d *k8scase.Deployment, i int) map[string]string {
	a := map[string]string{}
	switch x := g.r.IntN(20); {
	case x == 0: // none
	case x == 1:
		a[api.RevisionAnnotation] = "x"
	default:
		a[api.RevisionAnnotation] = strconv.Itoa(i + 1)
		if g.chance(0.05) {
			a[api.RevisionAnnotation] = strconv.Itoa(g.n(1, 6))
		}
	}
	if g.chance(0.1) {
		a[api.RevisionHistoryAnnotation] = "1"
	}
	desired, maxR := d.Replicas, d.Replicas+int32(d.Replicas)/4+1
	switch x := g.r.IntN(10); {
	case x < 6:
		a[api.DesiredReplicasAnnotation] = strconv.Itoa(int(desired))
		a[api.MaxReplicasAnnotation] = strconv.Itoa(int(maxR))
	case x < 9: // the Deployment was scaled since: a scaling event
		o := g.n32(0, 50)
		a[api.DesiredReplicasAnnotation] = strconv.Itoa(int(o))
		a[api.MaxReplicasAnnotation] = strconv.Itoa(int(o + o/4 + int32(g.n(0, 2))))
	default: // none (an adopted or hand-made ReplicaSet)
	}
	if g.chance(0.05) {
		a[api.ChangeCauseAnnotation] = "old cause"
	}
	return a
}

// rsStatus draws a status, sometimes stale: more available than spec.
func (g *gen) rsStatus(rs *k8scase.ReplicaSet) {
	s := &rs.Status
	s.Replicas = max(0, rs.Replicas+g.n32(-3, 3))
	if g.chance(0.5) {
		s.Replicas = rs.Replicas
	}
	s.FullyLabeledReplicas = s.Replicas
	s.ReadyReplicas = g.n32(0, int(s.Replicas))
	s.AvailableReplicas = g.n32(0, int(s.ReadyReplicas))
	if g.chance(0.4) {
		s.ReadyReplicas, s.AvailableReplicas = s.Replicas, s.Replicas
	}
	if g.chance(0.5) {
		s.TerminatingReplicas = ptr32(g.n32(0, 2))
	}
	if g.chance(0.03) {
		s.Conditions = []k8scase.Condition{{Type: "ReplicaFailure", Status: "True", Reason: g.pick("FailedCreate", "FailedDelete"),
			Message: "pods \"x\" is forbidden: exceeded quota", LastTransition: -int64(g.n(1, 100))}}
	}
}

// deploymentStatus draws the Deployment's stored status: usually what the
// ReplicaSets sum to, sometimes stale, with conditions of any reason.
func (g *gen) deploymentStatus(c *k8scase.Case) {
	d := c.Deployment
	s := &d.Status
	s.ObservedGeneration = d.Generation
	if g.chance(0.3) {
		s.ObservedGeneration = d.Generation - 1
	}
	var spec int32
	for _, rs := range c.ReplicaSets {
		s.Replicas += rs.Status.Replicas
		s.ReadyReplicas += rs.Status.ReadyReplicas
		s.AvailableReplicas += rs.Status.AvailableReplicas
		spec += rs.Replicas
		if rs.Image == d.Image {
			s.UpdatedReplicas = rs.Status.Replicas
		}
	}
	s.UnavailableReplicas = max(0, spec-s.AvailableReplicas)
	if g.chance(0.2) {
		s.AvailableReplicas = max(0, s.AvailableReplicas+g.n32(-2, 2))
		s.UpdatedReplicas = max(0, s.UpdatedReplicas+g.n32(-2, 2))
	}
	if g.chance(0.3) {
		s.TerminatingReplicas = ptr32(g.n32(0, 2))
	}
	if g.chance(0.03) {
		s.CollisionCount = ptr32(g.n32(1, 2))
	}
	if g.chance(0.1) {
		return
	}
	t := -int64(g.n(1, 200))
	if g.chance(0.8) {
		avail := k8scase.Condition{Type: "Available", Status: "True", Reason: "MinimumReplicasAvailable",
			Message: "Deployment has minimum availability.", LastUpdate: t, LastTransition: t}
		if g.chance(0.3) {
			avail.Status, avail.Reason, avail.Message = "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability."
		}
		s.Conditions = append(s.Conditions, avail)
	}
	newName := "web-x"
	if n := len(c.ReplicaSets); n > 0 {
		newName = c.ReplicaSets[n-1].Name
	}
	pt := -int64(g.n(1, 200))
	progressing := []k8scase.Condition{
		{Status: "True", Reason: "NewReplicaSetAvailable", Message: fmt.Sprintf("ReplicaSet %q has successfully progressed.", newName)},
		{Status: "True", Reason: "ReplicaSetUpdated", Message: fmt.Sprintf("ReplicaSet %q is progressing.", newName)},
		{Status: "True", Reason: "NewReplicaSetCreated", Message: fmt.Sprintf("Created new replica set %q", newName)},
		{Status: "True", Reason: "FoundNewReplicaSet", Message: fmt.Sprintf("Found new replica set %q", newName)},
		{Status: "Unknown", Reason: "DeploymentPaused", Message: "Deployment is paused"},
		{Status: "Unknown", Reason: "DeploymentResumed", Message: "Deployment is resumed"},
		{Status: "False", Reason: "ProgressDeadlineExceeded", Message: fmt.Sprintf("ReplicaSet %q has timed out progressing.", newName)},
	}
	if g.chance(0.85) {
		p := progressing[g.r.IntN(len(progressing))]
		p.Type, p.LastUpdate, p.LastTransition = "Progressing", pt, pt-int64(g.n(0, 100))
		s.Conditions = append(s.Conditions, p)
	}
	if len(s.Conditions) > 1 && g.chance(0.2) {
		s.Conditions[0], s.Conditions[len(s.Conditions)-1] = s.Conditions[len(s.Conditions)-1], s.Conditions[0]
	}
	if g.chance(0.03) {
		s.Conditions = append(s.Conditions, k8scase.Condition{Type: "ReplicaFailure", Status: "True", Reason: "FailedCreate",
			Message: "quota", LastUpdate: t, LastTransition: t})
	}
}

// pods draws each ReplicaSet's pods: about its spec or status count, in
// every phase, ready or not, terminating or not, on shared nodes, with
// distinct creation times (so that no two pods tie in the deletion
// ranking, whose sort is not stable upstream).
func (g *gen) pods(c *k8scase.Case) {
	used, readyUsed := map[int64]bool{}, map[int64]bool{}
	at := func(lo int64) int64 { // a distinct creation time after lo (or, when crowded, any)
		for try := 0; ; try++ {
			span := int(min(-lo, 3000))
			if try > 100 {
				span = 3000
			}
			t := -int64(g.n(1, span))
			if !used[t] {
				used[t] = true
				return t
			}
		}
	}
	for _, rs := range c.ReplicaSets {
		if c.Controller == k8scase.DeploymentController && g.chance(0.5) {
			continue // the deployment controller only looks at pods for Recreate
		}
		n := int(rs.Status.Replicas) + g.n(-2, 3)
		if g.chance(0.5) {
			n = int(rs.Replicas) + g.n(-3, 3)
		}
		n = max(0, min(n, 60))
		for j := 0; j < n; j++ {
			p := k8scase.Pod{Name: fmt.Sprintf("%s-p%02d", rs.Name, j), Owner: rs.Name, Hash: rs.Hash, Image: rs.Image,
				Created: at(rs.Created)}
			g.podState(&p, readyUsed)
			if g.chance(0.03) {
				p.Owner = "" // an orphan its ReplicaSet may adopt
			}
			if g.chance(0.02) {
				p.Hash = "other" // labels changed: released
			}
			c.Pods = append(c.Pods, p)
		}
	}
}

// podState draws a pod's node, phase, readiness, restarts, deletion cost
// and whether it terminates. Ready times are distinct (see kubelet).
func (g *gen) podState(p *k8scase.Pod, readyUsed map[int64]bool) {
	if g.chance(0.9) {
		p.Node = g.pick("node-1", "node-2", "node-3")
	}
	switch x := g.r.IntN(20); {
	case x < 13:
		p.Phase = api.PodRunning
	case x < 16:
		p.Phase = api.PodPending
	case x < 17:
		p.Phase = api.PodUnknown
	case x < 18:
		p.Phase = api.PodSucceeded
	default:
		p.Phase = api.PodFailed
	}
	if p.Node == "" {
		p.Phase = api.PodPending
	}
	if p.Phase == api.PodRunning && g.chance(0.75) || g.chance(0.02) {
		p.Ready = true
	}
	distinct := func(lo, hi int64) *int64 {
		for try := 0; try < 50; try++ {
			t := lo + int64(g.n(0, int(hi-lo)))
			if !readyUsed[t] {
				readyUsed[t] = true
				return &t
			}
		}
		p.Ready = false // crowded: leave this one not Ready
		return nil
	}
	switch {
	case g.chance(0.05):
	case p.Ready:
		p.ReadySince = distinct(p.Created, -1)
	case g.chance(0.5):
		p.ReadySince = distinct(p.Created, 0)
	}
	if g.chance(0.15) {
		p.Restarts = g.n32(1, 5)
	}
	if g.chance(0.08) {
		v := g.pick("-5", "0", "10", "100", "-2147483648") // the API server refuses invalid values
		p.DeletionCost = &v
	}
	if p.Node != "" && p.Phase != api.PodSucceeded && p.Phase != api.PodFailed && g.chance(0.1) {
		p.Terminating = true
	}
}

func ptr32(v int32) *int32 { return &v }
