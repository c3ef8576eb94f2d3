package k8sdiff

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"converge/core/k8scase"
)

// Settings, from the environment: K8SDIFF_SEED (1), K8SDIFF_CASES (12000
// single-sync cases), K8SDIFF_RUNS (300 multi-sync runs); K8SDIFF_SAVE=dir
// writes the smallest case of each kind of difference there, ready to keep
// as a regression file under testdata/.
func setting(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// TestK8sDiff is `make k8sdiff`: the regression cases under testdata/,
// then the generated single-sync cases, then the multi-sync runs, each run
// by Kubernetes' controllers and by Converge's; it prints the report and
// fails when any case differs beyond the known simplifications. Cases run
// on every core, each in its own synctest bubble; the report does not
// depend on the order they finish in.
func TestK8sDiff(t *testing.T) {
	// The cases allocate a lot and keep little: collecting less often
	// halves the run.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	seed := uint64(setting("K8SDIFF_SEED", 1))
	rep := newReport()
	start := time.Now()

	var jobs []func(*testing.T)
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		c := &k8scase.Case{}
		require.NoError(t, json.Unmarshal(b, c), f)
		if c.Name == "" {
			c.Name = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		jobs = append(jobs, func(t *testing.T) { rep.single(t, "regression", c) })
	}
	for i := range setting("K8SDIFF_CASES", 12000) {
		jobs = append(jobs, func(t *testing.T) {
			rep.single(t, "generated", newGen(seed, uint64(i)).singleCase(fmt.Sprintf("seed%d-case%d", seed, i)))
		})
	}
	for i := range setting("K8SDIFF_RUNS", 300) {
		jobs = append(jobs, func(t *testing.T) {
			g := newGen(seed^0x6d756c7469, uint64(i)) // "multi"
			rep.multi(t, g, g.multiStart(fmt.Sprintf("seed%d-run%d", seed, i)))
		})
	}
	jobs = append(append(jobs, rep.templateJobs(seed)...), rep.hardRunJobs(seed)...) // families_test.go

	next := make(chan func(*testing.T))
	go func() {
		for _, j := range jobs {
			next <- j
		}
		close(next)
	}()
	t.Run("cases", func(t *testing.T) {
		for w := range runtime.GOMAXPROCS(0) {
			t.Run(fmt.Sprintf("worker%d", w), func(t *testing.T) {
				t.Parallel()
				for j := range next {
					synctest.Test(t, j)
				}
			})
		}
	})

	synctest.Test(t, func(t *testing.T) { rep.shrinkAll() })
	rep.elapsed = time.Since(start)
	rep.print(os.Stdout)
	if dir := os.Getenv("K8SDIFF_SAVE"); dir != "" {
		require.NoError(t, rep.save(dir))
	}
	if rep.differing() > 0 {
		t.Errorf("%d of %d cases differ; see the report above", rep.differing(), rep.total())
	}
}

// tally counts one kind of case; refused ones are Deployments the API
// server rejects (on both sides, or they would differ).
type tally struct{ cases, equal, refused int }

// report collects the outcome of every case.
type report struct {
	mu      sync.Mutex
	tallies map[string]*tally // "regression", "generated deployment", ...
	order   []string
	runs    struct{ runs, equal, complete, syncs int }
	known   map[string]int
	// families are the other families of runs (families_test.go).
	families map[string]*runTally
	// kinds maps a kind of difference to the smallest case showing it.
	kinds   map[string]*example
	elapsed time.Duration
}

type example struct {
	c      *k8scase.Case
	count  int
	result *Result
	where  string
}

func newReport() *report {
	return &report{tallies: map[string]*tally{}, known: map[string]int{}, kinds: map[string]*example{}}
}

func (rep *report) tally(name string) *tally {
	if rep.tallies[name] == nil {
		rep.tallies[name] = &tally{}
		rep.order = append(rep.order, name)
	}
	return rep.tallies[name]
}

// single runs one single-sync case (in a bubble).
func (rep *report) single(t *testing.T, group string, c *k8scase.Case) {
	r, _, err := compare(c)
	require.NoError(t, err, c.Name)
	rep.mu.Lock()
	defer rep.mu.Unlock()
	tl := rep.tally(group + " " + c.Controller)
	tl.cases++
	if len(r.Kube) == 1 && r.Kube[0].Field == "rejected" {
		tl.refused++
	}
	for _, k := range r.Known {
		rep.known[k]++
	}
	if r.Equal() {
		tl.equal++
		return
	}
	rep.differ(c, r, group)
}

// multi runs one multi-sync run (in a bubble).
func (rep *report) multi(t *testing.T, g *gen, start *k8scase.Case) {
	out, err := g.multiRun(start)
	require.NoError(t, err, start.Name)
	rep.mu.Lock()
	defer rep.mu.Unlock()
	rep.runs.runs++
	rep.runs.syncs += out.syncs
	for _, k := range out.known {
		rep.known[k]++
	}
	if out.complete {
		rep.runs.complete++
	}
	if out.diff == nil {
		rep.runs.equal++
		return
	}
	rep.differ(out.diff, out.result, "multi-sync")
}

// smaller orders example cases: fewer objects first, then by name, so
// that the report does not depend on the order cases finish in.
func smaller(a, b *k8scase.Case) bool {
	sa, sb := len(a.Pods)+10*len(a.ReplicaSets), len(b.Pods)+10*len(b.ReplicaSets)
	if sa != sb {
		return sa < sb
	}
	return a.Name < b.Name
}

func (rep *report) differ(c *k8scase.Case, r *Result, where string) {
	for _, k := range r.Kinds() {
		e := rep.kinds[k]
		if e == nil {
			e = &example{}
			rep.kinds[k] = e
		}
		e.count++
		if e.c == nil || smaller(c, e.c) {
			e.c, e.result, e.where = c, r, where
		}
	}
}

// shrinkAll shrinks the example of every kind of difference.
func (rep *report) shrinkAll() {
	for k, e := range rep.kinds {
		e.c = shrink(e.c, k)
		if r, _, err := compare(e.c); err == nil {
			e.result = r
		}
	}
}

func (rep *report) total() int {
	n, _ := rep.familyTotals()
	n += rep.runs.runs
	for _, tl := range rep.tallies {
		n += tl.cases
	}
	return n
}

func (rep *report) differing() int {
	_, n := rep.familyTotals()
	n += rep.runs.runs - rep.runs.equal
	for _, tl := range rep.tallies {
		n += tl.cases - tl.equal
	}
	return n
}

func (rep *report) print(w io.Writer) {
	fmt.Fprintf(w, "\nk8sdiff: Kubernetes v1.35.4 controllers (k8s.io/kubernetes) against Converge's, one sync at a time\n")
	slices.Sort(rep.order)
	for _, name := range rep.order {
		tl := rep.tallies[name]
		fmt.Fprintf(w, "  %-34s %6d cases, %6d equal (%d refused by validation)\n", name+":", tl.cases, tl.equal, tl.refused)
	}
	r := rep.runs
	fmt.Fprintf(w, "  %-34s %6d runs,  %6d equal (%d syncs; %d rollouts completed)\n", "multi-sync rollouts:", r.runs, r.equal, r.syncs, r.complete)
	rep.printFamilies(w)
	fmt.Fprintf(w, "  total: %d, equal: %d, differing: %d (%.1fs)\n", rep.total(), rep.total()-rep.differing(), rep.differing(), rep.elapsed.Seconds())
	if len(rep.known) > 0 {
		fmt.Fprintf(w, "known simplifications applied (docs/fidelity.md):\n")
		for _, s := range known {
			if n := rep.known[s.name]; n > 0 {
				fmt.Fprintf(w, "  %s: %d cases\n", s.name, n)
			}
		}
	}
	if len(rep.kinds) == 0 {
		fmt.Fprintf(w, "no differences\n")
		return
	}
	kinds := make([]string, 0, len(rep.kinds))
	for k := range rep.kinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	fmt.Fprintf(w, "%d kinds of difference, each with the smallest case that shows it:\n", len(kinds))
	for _, k := range kinds {
		e := rep.kinds[k]
		b, _ := json.Marshal(e.c)
		fmt.Fprintf(w, "\n== %s (%d cases; %s)\n", k, e.count, e.where)
		for _, l := range e.result.Lines() {
			fmt.Fprintf(w, "   %s\n", l)
		}
		fmt.Fprintf(w, "   case: %s\n", b)
	}
}

var notSlug = regexp.MustCompile(`[^a-z0-9]+`)

// save writes the smallest case of each kind of difference as a
// regression file.
func (rep *report) save(dir string) error {
	for k, e := range rep.kinds {
		name := strings.Trim(notSlug.ReplaceAllString(strings.ToLower(k), "-"), "-")
		c := e.c.Clone()
		c.Name = name
		b, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}
