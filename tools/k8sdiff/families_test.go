package k8sdiff

import (
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// The families of multi-sync runs beside the easy ones (multi.go): each
// has its own line in the report.

// runTally counts the runs of one family.
type runTally struct{ runs, equal, complete, syncs int }

// runDone records one finished run of a family (in a bubble).
func (rep *report) runDone(t *testing.T, family, name string, out runOutcome, err error) {
	require.NoError(t, err, name)
	rep.mu.Lock()
	defer rep.mu.Unlock()
	if rep.families == nil {
		rep.families = map[string]*runTally{}
	}
	tl := rep.families[family]
	if tl == nil {
		tl = &runTally{}
		rep.families[family] = tl
	}
	tl.runs++
	tl.syncs += out.syncs
	for _, k := range out.known {
		rep.known[k]++
	}
	if out.complete {
		tl.complete++
	}
	if out.diff == nil {
		tl.equal++
		return
	}
	rep.differ(out.diff, out.result, family)
}

// familyTotals returns the runs of every family and those that differed.
func (rep *report) familyTotals() (runs, differing int) {
	for _, tl := range rep.families {
		runs += tl.runs
		differing += tl.runs - tl.equal
	}
	return runs, differing
}

// printFamilies prints one line per family of runs.
func (rep *report) printFamilies(w io.Writer) {
	names := make([]string, 0, len(rep.families))
	for name := range rep.families {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		r := rep.families[name]
		fmt.Fprintf(w, "  %-34s %6d runs,  %6d equal (%d syncs; %d rollouts completed)\n", name+":", r.runs, r.equal, r.syncs, r.complete)
	}
}

// hardRunJobs are the hard family's jobs (multi_hard.go):
// K8SDIFF_HARD_RUNS runs (24 by default), one of them of them beyond
// the 500-pod burst.
func (rep *report) hardRunJobs(seed uint64) []func(*testing.T) {
	var jobs []func(*testing.T)
	for i := range setting("K8SDIFF_HARD_RUNS", 24) {
		jobs = append(jobs, func(t *testing.T) {
			g := newGen(seed^0x68617264, uint64(i)) // "hard"
			start, plan := g.hardStart(fmt.Sprintf("seed%d-hard%d", seed, i), i%24 == 7)
			out, err := g.hardRunOutcome(start, plan)
			rep.runDone(t, "multi-sync hard runs", start.Name, out, err)
		})
	}
	return jobs
}

// templateJobs are the template family's single-sync cases
// (gen_template.go): K8SDIFF_TEMPLATE_CASES (2000 by default).
func (rep *report) templateJobs(seed uint64) []func(*testing.T) {
	var jobs []func(*testing.T)
	for i := range setting("K8SDIFF_TEMPLATE_CASES", 2000) {
		jobs = append(jobs, func(t *testing.T) {
			g := newGen(seed^0x74656d706c, uint64(i)) // "templ"
			rep.single(t, "template", g.templateCase(fmt.Sprintf("seed%d-template%d", seed, i)))
		})
	}
	return jobs
}
