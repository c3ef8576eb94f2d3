package view

import (
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/labels"
	"converge/core/scenario"
	"converge/core/sim"
	"converge/scenarios"
)

// The truth harness (docs/page.md, "The page tells the truth"): every
// library scenario, every second, checked against what kubectl prints at
// that second.

// table parses a kubectl table by its header's column starts: one map per
// row, keyed by column title. Cells may hold spaces ("1 (9s ago)").
func table(t testing.TB, out string) []map[string]string {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "NAME") && !strings.HasPrefix(lines[0], "NAMESPACE") {
		return nil
	}
	head := lines[0]
	var starts []int
	var names []string
	for i := 0; i < len(head); i++ {
		if head[i] != ' ' && (i == 0 || head[i-1] == ' ') {
			starts = append(starts, i)
			j := strings.IndexByte(head[i:], ' ')
			if j < 0 {
				j = len(head) - i
			}
			names = append(names, head[i:i+j])
		}
	}
	var rows []map[string]string
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		row := map[string]string{}
		for k, st := range starts {
			end := len(l)
			if k+1 < len(starts) && starts[k+1] < end {
				end = starts[k+1]
			}
			if st < len(l) {
				row[names[k]] = strings.TrimSpace(l[st:end])
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// kubectlTables is what kubectl prints at the current second, by object
// name: pods (STATUS ...), deployments and ReplicaSets.
type kubectlTables struct {
	pods, deployments, rs map[string]map[string]string
}

func readTables(t testing.TB, s *sim.Sim) kubectlTables {
	t.Helper()
	get := func(what string) map[string]map[string]string {
		res := kubectl.Run(s.Env(), "get "+what+" -A")
		require.Empty(t, res.Error, what)
		out := map[string]map[string]string{}
		for _, r := range table(t, res.Output) {
			out[r["NAMESPACE"]+"/"+r["NAME"]] = r
		}
		return out
	}
	return kubectlTables{pods: get("pods"), deployments: get("deployments"), rs: get("replicasets")}
}

// agrees is the harness's own reading of a tile state against kubectl's
// STATUS: which words each state may be drawn for.
func agrees(st State, status string) bool {
	switch st {
	case StateRunning, StateReady, StateAvailable:
		return status == "Running" || status == "NotReady"
	case StatePending:
		return status == "Pending" || status == "SchedulingGated"
	case StateContainerCreating:
		return status == "ContainerCreating" || status == "PodInitializing" || strings.HasPrefix(status, "Init:")
	case StateError:
		return status == "Error" || status == "OOMKilled" || strings.HasPrefix(status, "ExitCode:") || strings.HasPrefix(status, "Signal:") ||
			status == "ContainerCannotRun" || status == "StartError"
	case StateFailed:
		return status == "Failed" || status == "Succeeded"
	}
	return string(st) == status
}

// stuckStates are the tile states that do not clear by themselves.
var stuckStates = map[State]bool{StateCrashLoop: true, StateImagePull: true, StateErrImagePull: true, StateInvalidImage: true}

func atoi(t testing.TB, s string) int32 {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "%q", s)
	return int32(n)
}

// truthProblems checks the page's parts at the current second of s
// against kubectl's tables: one line per contradiction.
func truthProblems(t testing.TB, s *sim.Sim) []string {
	t.Helper()
	var out []string
	bad := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("%ds: ", s.T())+fmt.Sprintf(format, args...))
	}
	k := readTables(t, s)
	// Text: no dangling colon, no stutter, no "1 things".
	texts := map[string]string{}
	for _, row := range Loop(s, "") {
		texts["loop "+row.Key+" step"] = row.Step
		texts["loop "+row.Key+" observed"] = row.Observed
		texts["loop "+row.Key+" desired"] = row.Desired
		for _, it := range row.Items {
			texts["loop "+row.Key+" item"] = it.Text
		}
	}
	for _, w := range Why(s) {
		for f, v := range map[string]string{"headline": w.Headline, "budget": w.Budget, "pods": w.Pods, "acted": w.Acted, "undone": w.Undone, "detail": w.Detail} {
			texts["why "+w.Key+" "+f] = v
		}
		if fw := Writers(s, w.Key); fw != nil {
			for _, x := range append(append([]FieldWrite(nil), fw.Replicas...), fw.Template...) {
				texts["writers "+x.Key] = x.Why
			}
		}
	}
	for where, v := range texts {
		if problem := textDefect(v); problem != "" {
			bad("%s: %s: %q", where, problem, v)
		}
	}
	whys := Why(s)
	screen := OnScreen(s, nil)
	for _, w := range whys {
		d := Focus(s, w.Key)
		require.NotNil(t, d)
		ro := RolloutOf(s, d.Name)
		ns := d.Namespace
		// Tiles say kubectl's STATUS.
		cols := append([]Column(nil), ro.Columns...)
		if ro.Strays != nil {
			cols = append(cols, *ro.Strays)
		}
		notAvailable := 0
		for _, c := range cols {
			active := int32(0)
			for _, tile := range c.Tiles {
				row, ok := k.pods[ns+"/"+tile.Name]
				if !ok {
					bad("deployment/%s: tile %s is drawn but kubectl get pods has no such pod", d.Name, tile.Name)
					continue
				}
				if tile.Status != row["STATUS"] || !agrees(tile.State, row["STATUS"]) {
					bad("deployment/%s: tile %s says %s (%s), kubectl says %s", d.Name, tile.Name, tile.State, tile.Status, row["STATUS"])
				}
				if tile.State != StateTerminating && tile.State != StateCompleted && tile.State != StateFailed && tile.State != StateEvicted &&
					tile.State != StateUnknown {
					active++
					if tile.State != StateAvailable && c.Role != "strays" {
						notAvailable++
					}
				}
			}
			if c.Role == "strays" {
				continue
			}
			rs, ok := k.rs[ns+"/"+c.Name]
			if !ok {
				bad("deployment/%s: column %s has no row in kubectl get rs", d.Name, c.Name)
				continue
			}
			want := fmt.Sprintf("%s desired · %s ready · %s available", rs["DESIRED"], rs["READY"], rsAvailable(s, ns, c.Name))
			if c.Counts != want {
				bad("deployment/%s: card of %s says %q, kubectl get rs says %q", d.Name, c.Name, c.Counts, want)
			}
		}
		dep := k.deployments[ns+"/"+d.Name]
		ready := strings.SplitN(dep["READY"], "/", 2)
		require.Len(t, ready, 2, "%v", dep)
		summary := fmt.Sprintf("%s desired · %s · %s updated · %s ready · %s available", ready[1], plural(int64(d.Status.Replicas), "pod"),
			dep["UP-TO-DATE"], ready[0], dep["AVAILABLE"])
		if ro.Summary != summary {
			bad("deployment/%s: summary %q, kubectl get deployment says %q", d.Name, ro.Summary, summary)
		}
		// The headline never says in sync while the pods are not all
		// available, a drain or an eviction waits, or a refusal is on screen.
		insync := w.Kind == "in-sync" || strings.HasPrefix(w.Headline, "In sync") || strings.Contains(w.Headline, "nothing to do")
		if insync {
			desired := atoi(t, ready[1])
			switch {
			case atoi(t, ready[0]) != desired || atoi(t, dep["AVAILABLE"]) != desired || atoi(t, dep["UP-TO-DATE"]) != desired:
				bad("deployment/%s: headline %q while kubectl get deployment says READY %s UP-TO-DATE %s AVAILABLE %s", d.Name, w.Headline,
					dep["READY"], dep["UP-TO-DATE"], dep["AVAILABLE"])
			case notAvailable > 0:
				bad("deployment/%s: headline %q while %d of its pods are drawn not available", d.Name, w.Headline, notAvailable)
			case screen.Waiting != "":
				bad("deployment/%s: headline %q while %s", d.Name, w.Headline, screen.Waiting)
			case len(screen.Refusals) > 0:
				bad("deployment/%s: headline %q while a refusal is on screen (%s)", d.Name, w.Headline, screen.Refusals[0].Action)
			}
		}
		// A budget that refuses a waiting drain is on the first screen.
		if screen.Waiting != "" && screen.DrainNode != "" && screen.Budget == nil {
			for _, pdb := range s.Store().PodDisruptionBudgets() {
				sel, err := labels.FromLabelSelector(pdb.Spec.Selector)
				if err != nil || pdb.Status.DisruptionsAllowed > 0 {
					continue
				}
				s.Store().EachPod(func(p *api.Pod) bool {
					if p.Spec.NodeName == screen.DrainNode && p.DeletionTimestamp == nil && sel.Matches(p.Labels) {
						bad("kubectl drain waits on pod %s while poddisruptionbudget/%s allows 0 disruptions, and no budget is on screen",
							p.Name, pdb.Name)
						return false
					}
					return true
				})
			}
		}
		// Badges: progressing only when nothing is stuck; stuck only with
		// a cause that does not clear by itself.
		stuck := stuckCause(s, d, cols)
		switch w.Kind {
		case "acting", "progressing", "paused", "in-sync", "stuck", "error", "waiting", "refused":
		default:
			bad("deployment/%s: badge %q is not in the vocabulary", d.Name, w.Kind)
		}
		if w.Kind == "progressing" && stuck != "" {
			bad("deployment/%s: badge progressing (%q) while %s", d.Name, w.Headline, stuck)
		}
		if w.Kind == "stuck" && stuck == "" {
			bad("deployment/%s: badge stuck (%q) with no pod or condition that keeps it stuck", d.Name, w.Headline)
		}
		if deadlineExceeded(d) && w.Kind != "stuck" && w.Kind != "acting" && w.Kind != "paused" {
			bad("deployment/%s: ProgressDeadlineExceeded but badge %q", d.Name, w.Kind)
		}
	}
	return out
}

// textDefect names what is wrong with a sentence the page shows: a
// dangling colon, a stutter, a plural after 1, "declares changed".
func textDefect(v string) string {
	t := strings.TrimSpace(v)
	switch {
	case t == "":
		return ""
	case strings.HasSuffix(t, ":") || strings.Contains(t, ": .") || strings.Contains(t, ":;") || strings.Contains(t, ": ;"):
		return "dangling colon"
	case strings.Contains(strings.ToLower(t), "waiting: waiting"):
		return "stutter"
	case strings.Contains(t, "declares changed"):
		return "a verb without its object"
	}
	for _, f := range []string{" 1 disruptions", " 1 pods", " 1 restarts", " 1 replicas", "(1 pods", " 1 seconds"} {
		// "1 of 1 pods" is English; "1 pods" is not.
		if strings.Contains(" "+strings.ReplaceAll(t, "of 1 pods", "of one pods"), f) {
			return "plural after 1"
		}
	}
	return ""
}

// rsAvailable is AVAILABLE of `kubectl get rs -o wide`... kubectl's rs
// table has no AVAILABLE column, so it is read from the object.
func rsAvailable(s *sim.Sim, ns, name string) string {
	for _, rs := range s.Store().ReplicaSets() {
		if rs.Namespace == ns && rs.Name == name {
			return strconv.Itoa(int(rs.Status.AvailableReplicas))
		}
	}
	return "?"
}

func deadlineExceeded(d *api.Deployment) bool {
	for _, c := range d.Status.Conditions {
		if c.Type == api.DeploymentProgressing && c.Reason == "ProgressDeadlineExceeded" {
			return true
		}
	}
	return false
}

// stuckCause is the harness's own reading of what keeps d from
// progressing by itself: "" when nothing does.
func stuckCause(s *sim.Sim, d *api.Deployment, cols []Column) string {
	if deadlineExceeded(d) {
		return "ProgressDeadlineExceeded"
	}
	if replicaFailure(d) != nil {
		return "ReplicaFailure"
	}
	for _, c := range cols {
		if c.Role != "new" {
			continue
		}
		for _, tile := range c.Tiles {
			if stuckStates[tile.State] {
				return "pod " + tile.Name + " is " + tile.Status
			}
			p, err := s.Store().GetPod(d.Namespace, tile.Name)
			if err != nil {
				continue
			}
			if tile.State == StatePending && unschedulable(p) {
				return "pod " + tile.Name + " cannot be scheduled"
			}
			if tile.State == StateRunning {
				for _, cs := range p.Status.ContainerStatuses {
					if r := cs.State.Running; r != nil && !cs.Ready && int64(s.Now().Sub(r.StartedAt.Time).Seconds()) >= NeverReadyAfter {
						return "pod " + tile.Name + " never becomes ready"
					}
				}
			}
			if n, err := s.Store().GetNode(p.Spec.NodeName); err == nil && !api.IsNodeReady(n) && tile.State != StateAvailable &&
				tile.State != StateTerminating && tile.State != StateUnknown {
				return "pod " + tile.Name + " is on a node that is not Ready"
			}
		}
	}
	return ""
}

// libraryScenarios parses every scenario of the library.
func libraryScenarios(t testing.TB) []*scenario.Scenario {
	t.Helper()
	names, err := fs.Glob(scenarios.FS, "*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, names)
	out := make([]*scenario.Scenario, 0, len(names))
	for _, n := range names {
		src, err := fs.ReadFile(scenarios.FS, n)
		require.NoError(t, err)
		scn, probs := scenario.Parse(src, n)
		require.False(t, probs.HasErrors(), "%s: %v", n, probs)
		out = append(out, scn)
	}
	return out
}

func TestTruthEveryLibraryScenarioEverySecond(t *testing.T) {
	t.Parallel()
	for _, scn := range libraryScenarios(t) {
		t.Run(scn.Name, func(t *testing.T) {
			t.Parallel()
			s, err := sim.New(scn, sim.Options{})
			require.NoError(t, err)
			end := int64(scn.Duration.Seconds())
			var problems []string
			for sec := int64(0); sec <= end; sec++ {
				if sec > 0 {
					s.Step(1)
				}
				problems = append(problems, truthProblems(t, s)...)
			}
			if len(problems) > 12 {
				problems = append(problems[:12], fmt.Sprintf("... and %d more", len(problems)-12))
			}
			assert.Empty(t, problems, "%s", strings.Join(problems, "\n"))
		})
	}
}
