package k8sdiff

import (
	"fmt"
	"slices"
	"strings"

	"converge/core/k8scase"
)

// Result is one case run on both sides: the normalized writes of each.
type Result struct {
	Kube, Converge []k8scase.Write
	// Known lists the known simplifications applied to this case.
	Known []string
}

func (r *Result) sort() {
	for _, ws := range [][]k8scase.Write{r.Kube, r.Converge} {
		slices.SortFunc(ws, func(a, b k8scase.Write) int { return strings.Compare(a.String(), b.String()) })
	}
}

// Equal reports whether both sides wrote the same.
func (r *Result) Equal() bool { return slices.Equal(r.Kube, r.Converge) }

// onlyIn returns the writes of a that b lacks (as multisets).
func onlyIn(a, b []k8scase.Write) []k8scase.Write {
	have := map[k8scase.Write]int{}
	for _, w := range b {
		have[w]++
	}
	var out []k8scase.Write
	for _, w := range a {
		if have[w] > 0 {
			have[w]--
			continue
		}
		out = append(out, w)
	}
	return out
}

// Kinds returns the kinds of difference the result shows, sorted: "only in
// Kubernetes: <key>" and "only in Converge: <key>", keys without names or
// values (see k8scase.Write.Key).
func (r *Result) Kinds() []string {
	var kinds []string
	for _, w := range onlyIn(r.Kube, r.Converge) {
		kinds = append(kinds, "only in Kubernetes: "+w.Key())
	}
	for _, w := range onlyIn(r.Converge, r.Kube) {
		kinds = append(kinds, "only in Converge: "+w.Key())
	}
	slices.Sort(kinds)
	return slices.Compact(kinds)
}

// Lines renders the writes that differ, one per line.
func (r *Result) Lines() []string {
	var out []string
	for _, w := range onlyIn(r.Kube, r.Converge) {
		out = append(out, "only in Kubernetes: "+w.String())
	}
	for _, w := range onlyIn(r.Converge, r.Kube) {
		out = append(out, "only in Converge:   "+w.String())
	}
	return out
}

// compare runs one sync of the case on both sides and applies the known
// simplifications. It must run in a synctest bubble (see runKube). It also
// returns Converge's outcome, from which a multi-sync run goes on.
func compare(c *k8scase.Case) (*Result, *k8scase.Outcome, error) {
	cConv, cKube, hConv, hKube := c, c, "", ""
	if usesCollide(c) { // collide.go
		var err error
		if hConv, hKube, err = collideHashes(c); err != nil {
			return nil, nil, err
		}
		cConv, cKube = resolveCollide(c, hConv), resolveCollide(c, hKube)
	}
	uids := map[string]string{}
	var conv *k8scase.Outcome
	l, err := k8scase.Load(cConv)
	if err == nil {
		uids = l.UIDs
		if hConv != "" {
			uids = map[string]string{}
			for k, v := range l.UIDs {
				uids[strings.ReplaceAll(k, hConv, hKube)] = v
			}
		}
		conv, err = l.Sync(cConv)
	} else {
		conv, err = k8scase.Run(cConv) // a refused Deployment is an outcome; anything else a broken case
	}
	if err != nil {
		return nil, nil, fmt.Errorf("converge: %w", err)
	}
	kube, err := runKube(cKube, uids)
	if err != nil {
		return nil, nil, fmt.Errorf("kubernetes: %w", err)
	}
	r := &Result{Kube: unresolve(k8scase.Writes(cKube, kube), hKube), Converge: unresolve(k8scase.Writes(cConv, conv), hConv)}
	r.sort()
	for _, s := range known {
		if !r.Equal() && s.apply(c, r) {
			r.Known = append(r.Known, s.name)
		}
	}
	return r, conv, nil
}
