package view

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller/deployment"
	"converge/core/sim"
)

// Ledger is a Deployment's revision history: its ReplicaSets by revision,
// as `kubectl rollout history` lists them, with what the history does not
// say explained where it happens.
type Ledger struct {
	Deployment string
	// Limit is "revisionHistoryLimit 10: old ReplicaSets kept for rollback".
	Limit string
	Rows  []RevisionRow
	// Notes explain the surprises that concern the whole ledger
	// (revisions deleted by revisionHistoryLimit, CHANGE-CAUSE <none>).
	Notes []Note
}

// RevisionRow is one ReplicaSet of the ledger.
type RevisionRow struct {
	// Key is the ReplicaSet's uid.
	Key      string
	Revision int64
	Name     string
	// ChangeCause is the kubernetes.io/change-cause annotation, or "<none>".
	ChangeCause string
	Image       string
	// Created is "10s" (the second it was created); CreatedT that second.
	Created  string
	CreatedT int64
	// Replicas is "3/3" (ready/desired).
	Replicas string
	// Current marks the Deployment's new ReplicaSet.
	Current bool
	// Was lists the revisions this ReplicaSet had before (revision-history): "1".
	Was string
	// Rollback is the console command that rolls back to this revision
	// ("" for the current one).
	Rollback string
	// Note explains a surprise of this row ("" when none).
	Note string
}

// Note is one explanation; Key is stable ("limit", "change-cause", ...).
type Note struct {
	Key  string
	Text string
}

// Revisions returns the ledger of the Deployment named name (or the focus);
// nil when there is no Deployment.
func Revisions(s *sim.Sim, name string) *Ledger {
	d := Focus(s, name)
	if d == nil {
		return nil
	}
	rss := ownedReplicaSets(s.Store(), d)
	newRS := deployment.FindNewReplicaSet(d, rss)
	l := &Ledger{Deployment: d.Name, Limit: limitText(d)}
	noCause := false
	known := map[int64]bool{}
	var maxRev int64
	for _, rs := range rss {
		row := RevisionRow{Key: rs.UID, Revision: revision(rs), Name: rs.Name, Image: images(&rs.Spec.Template),
			ChangeCause: rs.Annotations[api.ChangeCauseAnnotation],
			Replicas:    fmt.Sprintf("%d/%d", rs.Status.ReadyReplicas, api.Deref(rs.Spec.Replicas, 1)),
			Current:     newRS != nil && rs.UID == newRS.UID, Was: rs.Annotations[api.RevisionHistoryAnnotation]}
		row.CreatedT = int64(rs.CreationTimestamp.Sub(api.Epoch) / time.Second)
		row.Created = secondsText(row.CreatedT)
		if row.ChangeCause == "" {
			row.ChangeCause, noCause = "<none>", true
		}
		if !row.Current && row.Revision > 0 {
			row.Rollback = fmt.Sprintf("rollout undo deployment/%s --to-revision=%d", d.Name, row.Revision)
		}
		if row.Was != "" {
			row.Note = fmt.Sprintf("Was revision %s. kubectl rollout undo copies an old template back; the controller "+
				"then gives that ReplicaSet the next number (highest + 1), so revision numbers only grow and %s "+
				"no longer appears in the history.", row.Was, revisionWord(row.Was))
		}
		known[row.Revision] = true
		for _, w := range strings.Split(row.Was, ",") {
			if v, err := strconv.ParseInt(strings.TrimSpace(w), 10, 64); err == nil {
				known[v] = true
			}
		}
		maxRev = max(maxRev, row.Revision)
		l.Rows = append(l.Rows, row)
	}
	if at := scaleSteps(s, d.Name); len(at) > 0 {
		l.Notes = append(l.Notes, Note{Key: "scale", Text: fmt.Sprintf("kubectl scale at %s changed spec.replicas only. "+
			"Replicas are not part of the pod template, so a scale makes no revision: the ReplicaSets are resized, "+
			"and the ledger does not change.", strings.Join(at, ", "))})
	}
	if gone := missing(known, maxRev); len(gone) > 0 {
		l.Notes = append(l.Notes, Note{Key: "limit", Text: fmt.Sprintf("%s gone: revisionHistoryLimit is %s, so once a rollout "+
			"completes the controller deletes the oldest ReplicaSets scaled to 0 beyond that many. "+
			"They can no longer be rolled back to.", revisionList(gone), limitValue(d))})
	}
	if noCause {
		l.Notes = append(l.Notes, Note{Key: "change-cause", Text: "CHANGE-CAUSE <none>: kubectl no longer records the command " +
			"that made a revision (--record is deprecated). Annotate the Deployment before a change, e.g. kubectl annotate " +
			"deployment/" + d.Name + " kubernetes.io/change-cause=\"image 2.0\"; the controller copies it to the new ReplicaSet."})
	}
	return l
}

func limitValue(d *api.Deployment) string {
	if d.Spec.RevisionHistoryLimit == nil {
		return "unset"
	}
	return strconv.Itoa(int(*d.Spec.RevisionHistoryLimit))
}

func limitText(d *api.Deployment) string {
	if !deployment.HasRevisionHistoryLimit(d) {
		return "revisionHistoryLimit unset: every old ReplicaSet is kept"
	}
	n := *d.Spec.RevisionHistoryLimit
	if n == 0 {
		return "revisionHistoryLimit 0: no old ReplicaSet is kept, so there is nothing to roll back to"
	}
	return fmt.Sprintf("revisionHistoryLimit %d: up to %s kept for rollback", n, plural(int64(n), "old ReplicaSet"))
}

func revisionWord(was string) string {
	if strings.Contains(was, ",") {
		return "revisions " + was
	}
	return "revision " + was
}

// missing lists the revisions below max that no ReplicaSet has or had.
func missing(known map[int64]bool, maxRev int64) []int64 {
	var out []int64
	for r := int64(1); r < maxRev; r++ {
		if !known[r] {
			out = append(out, r)
		}
	}
	return out
}

func revisionList(rs []int64) string {
	parts := make([]string, len(rs))
	for i, r := range rs {
		parts[i] = strconv.FormatInt(r, 10)
	}
	if len(rs) == 1 {
		return "Revision " + parts[0] + " is"
	}
	return "Revisions " + strings.Join(parts, ", ") + " are"
}

// scaleSteps returns when `kubectl scale deployment/NAME` ran successfully, up to now.
func scaleSteps(s *sim.Sim, name string) []string {
	var out []string
	hist := s.History()
	for t := int64(0); t <= s.T() && t < int64(len(hist)); t++ {
		for _, m := range hist[t].Markers {
			if m.Kind == "step" && isScaleOf(m.Label, name) {
				out = append(out, secondsText(t))
			}
		}
	}
	return out
}

// isScaleOf reports whether an action label is `kubectl scale` of the
// Deployment name, in the TYPE/NAME or TYPE NAME form, TYPE spelled in any
// way kubectl takes.
func isScaleOf(label, name string) bool {
	w := strings.Fields(label)
	if len(w) < 3 || w[0] != "kubectl" || w[1] != "scale" {
		return false
	}
	isDeployment := func(typ string) bool {
		r, ok := api.LookupResource(typ)
		return ok && r.Kind == api.KindDeployment
	}
	for i := 2; i < len(w); i++ {
		if k, n, ok := strings.Cut(w[i], "/"); ok && isDeployment(k) && n == name {
			return true
		}
		if isDeployment(w[i]) && i+1 < len(w) && w[i+1] == name {
			return true
		}
	}
	return false
}

// Diff returns the line diff of the pod template from revision a to
// revision b of the Deployment named name (or the focus). ok is false when
// either revision is not in the history.
func Diff(s *sim.Sim, name string, a, b int64) (lines []DiffLine, ok bool) {
	d := Focus(s, name)
	if d == nil {
		return nil, false
	}
	var ta, tb *api.PodTemplateSpec
	for _, rs := range ownedReplicaSets(s.Store(), d) {
		switch revision(rs) {
		case a:
			ta = &rs.Spec.Template
		case b:
			tb = &rs.Spec.Template
		}
		if a == b && revision(rs) == a {
			tb = ta
		}
	}
	if ta == nil || tb == nil {
		return nil, false
	}
	return LineDiff(TemplateYAML(ta), TemplateYAML(tb)), true
}

// DefaultDiff picks the two revisions a diff shows first: the one before
// the current and the current, by revision number; ok is false with fewer
// than two revisions.
func DefaultDiff(l *Ledger) (a, b int64, ok bool) {
	if l == nil || len(l.Rows) < 2 {
		return 0, 0, false
	}
	revs := make([]int64, 0, len(l.Rows))
	cur := int64(-1)
	for _, r := range l.Rows {
		revs = append(revs, r.Revision)
		if r.Current {
			cur = r.Revision
		}
	}
	sort.Slice(revs, func(i, j int) bool { return revs[i] < revs[j] })
	if cur < 0 {
		cur = revs[len(revs)-1]
	}
	prev := int64(-1)
	for _, r := range revs {
		if r < cur {
			prev = r
		}
	}
	if prev < 0 {
		for _, r := range revs {
			if r != cur {
				prev = r
			}
		}
	}
	return prev, cur, true
}
