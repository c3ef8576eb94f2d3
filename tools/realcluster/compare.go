package realcluster

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The tolerance model (docs/fidelity.md, "Replays on a real control
// plane"). Converge's trace and the recording are compared second by
// second from the replay's start, per Deployment, on what a replay must
// reproduce exactly and on timings within Tolerance:
//
//   - expects: each expect's outcome, in order, on both sides;
//   - revisions: the sequence of the Deployment's revisions;
//   - sizes: for each ReplicaSet (named by its Deployment and the revision
//     it was created with), the sequence of its spec.replicas values;
//   - conditions: the sequence of the Deployment's Progressing reasons and
//     of its Available status;
//   - final: at the scenario's end, the Deployment's replicas, updated,
//     ready and available counts and each ReplicaSet's size;
//   - events: the deployment controller's ScalingReplicaSet messages in
//     order, names replaced by revisions, and the set of reasons the
//     controllers (deployment, replicaset, disruption, HPA) emitted;
//   - timing: each ReplicaSet size change within Tolerance of Converge's;
//   - steps: each kubectl step's output, with generated names, ages, IPs
//     and the namespace normalised.

// Tolerance is how far, in seconds, a real size change may be from
// Converge's: Slack plus Ratio of the time since the start.
type Tolerance struct {
	Slack int64
	Ratio float64
}

// DefaultTolerance: 3 seconds and 10%. kwok moves pods at its own pace
// (its stages run off watch events, not on one-second ticks) and the
// controllers requeue with backoffs Converge rounds to its ticks.
var DefaultTolerance = Tolerance{Slack: 3, Ratio: 0.10}

func (tol Tolerance) allows(sim, real int64) bool {
	d := sim - real
	if d < 0 {
		d = -d
	}
	return float64(d) <= float64(tol.Slack)+tol.Ratio*float64(sim)
}

// Verdict is a scenario's outcome.
type Verdict string

const (
	Agrees        Verdict = "agrees"
	Differs       Verdict = "differs"
	NotReplayable Verdict = "not replayable"
	// NotRun: replayable, but the run's time budget (run -deadline) left
	// too little time to start it, or cut it short.
	NotRun Verdict = "not run"
)

// Difference is one aspect on which the two sides differ.
type Difference struct {
	Aspect    string `json:"aspect"`
	What      string `json:"what"`
	Converge  string `json:"converge"`
	Real      string `json:"real"`
	SecondSim int64  `json:"-"`
}

func (d Difference) String() string {
	return fmt.Sprintf("%s: %s: Converge %s, real %s", d.Aspect, d.What, d.Converge, d.Real)
}

// Result is the comparison of one scenario.
type Result struct {
	Scenario string  `json:"scenario"`
	Verdict  Verdict `json:"verdict"`
	Why      string  `json:"why,omitempty"`
	// Error: not replayed for an error (of the harness, the cluster or
	// the script), not for what the scenario does.
	Error       bool         `json:"error,omitempty"`
	Differences []Difference `json:"differences,omitempty"`
	// Checked counts the items compared per aspect, Agreed those alike.
	Checked map[string]int `json:"checked"`
	Agreed  map[string]int `json:"agreed"`
	// Expects are the expects that held in Converge and on the cluster.
	ExpectsSim, ExpectsReal, Expects int `json:"-"`
	// Refined lists what agreed only under the tolerance model's
	// refinement rules (a scaling step split in several, a watch's lines).
	Refined []string `json:"refined,omitempty"`
	Seconds float64
	// Phases are the seconds each phase of the replay took: converge
	// (export-kubectl and run), wait (for a turn to start a cluster), up
	// (the cluster), replay (the script and the recording to the
	// scenario's end) and compare.
	Phases map[string]float64 `json:"phases,omitempty"`
}

// aspects in the order a first difference is reported.
var aspects = []string{"expects", "revisions", "sizes", "conditions", "final", "events", "timing", "steps"}

// First is the first difference, by aspect.
func (r *Result) First() *Difference {
	for _, a := range aspects {
		for i := range r.Differences {
			if r.Differences[i].Aspect == a {
				return &r.Differences[i]
			}
		}
	}
	return nil
}

type object = map[string]any

func str(v any, path ...string) string {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[p]
	}
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		return string(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func num(v any, path ...string) int64 {
	n, _ := strconv.ParseInt(str(v, path...), 10, 64)
	return n
}

// frame is one second of one side.
type frame struct {
	t    int64
	deps []object
	rss  []object
	pods []object
}

func decodeFrames(r io.Reader) ([]frame, error) {
	var out []frame
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var line struct {
			T           int64    `json:"t"`
			Deployments []object `json:"deployments"`
			ReplicaSets []object `json:"replicaSets"`
			Pods        []object `json:"pods"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, err
		}
		out = append(out, frame{t: line.T, deps: line.Deployments, rss: line.ReplicaSets, pods: line.Pods})
	}
	return out, sc.Err()
}

const revAnn = "deployment.kubernetes.io/revision"

// spamBurst is client-go's EventSourceObjectSpamFilter burst (25 events of
// one source and object pass at once).
const spamBurst = 25

func revision(o object) string {
	m, _ := o["metadata"].(map[string]any)
	a, _ := m["annotations"].(map[string]any)
	s, _ := a[revAnn].(string)
	return s
}

func ownerName(o object, kind string) string {
	m, _ := o["metadata"].(map[string]any)
	refs, _ := m["ownerReferences"].([]any)
	for _, r := range refs {
		if str(r, "kind") == kind && str(r, "controller") == "true" {
			return str(r, "name")
		}
	}
	return ""
}

// side is one side's timeline, ReplicaSets named by identity.
type side struct {
	frames []frame
	// ident names each ReplicaSet: "DEPLOYMENT rN", N its first revision.
	ident map[string]string
}

func newSide(frames []frame) *side {
	s := &side{frames: frames, ident: map[string]string{}}
	for _, f := range frames {
		for _, rs := range f.rss {
			name := str(rs, "metadata", "name")
			if _, ok := s.ident[name]; ok {
				continue
			}
			dep := ownerName(rs, "Deployment")
			if dep == "" {
				dep = str(rs, "metadata", "name")
				if i := strings.LastIndex(dep, "-"); i > 0 {
					dep = dep[:i]
				}
			}
			s.ident[name] = dep + " r" + revision(rs)
		}
	}
	return s
}

// series is a value per second, collapsed to its changes.
type series struct {
	vals []string
	at   []int64
}

func (s *series) add(t int64, v string) {
	if n := len(s.vals); n > 0 && s.vals[n-1] == v {
		return
	}
	s.vals = append(s.vals, v)
	s.at = append(s.at, t)
}

func (s *side) deploymentSeries(dep string, f func(object) string) *series {
	out := &series{}
	for _, fr := range s.frames {
		for _, d := range fr.deps {
			if str(d, "metadata", "name") == dep {
				// A Deployment the controller has not synced yet (no
				// revision or no conditions: a sample taken within
				// milliseconds of its creation) is left out.
				if len(out.vals) == 0 && f(d) == "" {
					continue
				}
				out.add(fr.t, f(d))
			}
		}
	}
	return out
}

func condition(d object, typ, field string) string {
	status, _ := d["status"].(map[string]any)
	conds, _ := status["conditions"].([]any)
	for _, c := range conds {
		if str(c, "type") == typ {
			return str(c, field)
		}
	}
	return ""
}

// sizes is each ReplicaSet identity's spec.replicas series.
func (s *side) sizes() map[string]*series {
	out := map[string]*series{}
	for _, fr := range s.frames {
		seen := map[string]bool{}
		for _, rs := range fr.rss {
			id := s.ident[str(rs, "metadata", "name")]
			seen[id] = true
			if out[id] == nil {
				// A ReplicaSet starts from 0: the first sample may catch
				// it after its first step (created with 1, scaled to 2
				// within the second), which the refinement then allows.
				out[id] = &series{}
				out[id].add(fr.t, "0")
			}
			out[id].add(fr.t, str(rs, "spec", "replicas"))
		}
		for id, ser := range out {
			if !seen[id] {
				ser.add(fr.t, "gone")
			}
		}
	}
	return out
}

func (s *side) at(t int64) *frame {
	var best *frame
	for i := range s.frames {
		if s.frames[i].t <= t {
			best = &s.frames[i]
		}
	}
	return best
}

func deploymentNames(frames []frame) []string {
	seen := map[string]bool{}
	var out []string
	for _, f := range frames {
		for _, d := range f.deps {
			n := str(d, "metadata", "name")
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// Inputs are the files of one replay.
type Inputs struct {
	Trace io.Reader // converge run --output jsonl
	Real  io.Reader // the recording (Record)
	// WatchedEvents are the namespace's events as watched (WatchEvents);
	// without them, Events, a v1 EventList taken at the end.
	WatchedEvents []byte
	Events        []byte
	Replay        string // the replay script's output
	Namespace     string // the replay's namespace (Converge's is default)
	Duration      int64  // the scenario's seconds
}

// Compare compares one replay under the tolerance model.
func Compare(name string, in Inputs, tol Tolerance) (*Result, error) {
	res := &Result{Scenario: name, Checked: map[string]int{}, Agreed: map[string]int{}}
	simTrace, err := readTrace(in.Trace)
	if err != nil {
		return nil, fmt.Errorf("the trace: %w", err)
	}
	realFrames, err := decodeFrames(in.Real)
	if err != nil {
		return nil, fmt.Errorf("the recording: %w", err)
	}
	sim, real := newSide(simTrace.frames), newSide(realFrames)
	check := func(aspect, what, a, b string) bool {
		res.Checked[aspect]++
		if a == b {
			res.Agreed[aspect]++
			return true
		}
		res.Differences = append(res.Differences, Difference{Aspect: aspect, What: what, Converge: a, Real: b})
		return false
	}
	// Expects, in order.
	realExpects := replayExpects(in.Replay)
	next := 0
	for _, e := range simTrace.expects {
		got := "not run"
		for j := next; j < len(realExpects); j++ {
			if realExpects[j].text == e.text {
				got, next = realExpects[j].outcome(), j+1
				break
			}
		}
		check("expects", e.text, e.outcome(), got)
	}
	for _, dep := range deploymentNames(sim.frames) {
		revs := func(d object) string { return revision(d) }
		a, b := sim.deploymentSeries(dep, revs), real.deploymentSeries(dep, revs)
		check("revisions", "deployment/"+dep+" revisions", strings.Join(a.vals, ","), strings.Join(b.vals, ","))
		prog := func(d object) string { return condition(d, "Progressing", "reason") }
		a, b = sim.deploymentSeries(dep, prog), real.deploymentSeries(dep, prog)
		ra, rb := withoutTransient(a), withoutTransient(b)
		check("conditions", "deployment/"+dep+" Progressing reasons", strings.Join(ra, ","), strings.Join(rb, ","))
		avail := func(d object) string { return condition(d, "Available", "status") }
		a, b = sim.deploymentSeries(dep, avail), real.deploymentSeries(dep, avail)
		check("conditions", "deployment/"+dep+" Available", strings.Join(a.vals, ","), strings.Join(b.vals, ","))
		state := func(d object) string {
			return fmt.Sprintf("%d replicas, %d updated, %d ready, %d available", num(d, "status", "replicas"),
				num(d, "status", "updatedReplicas"), num(d, "status", "readyReplicas"), num(d, "status", "availableReplicas"))
		}
		end := in.Duration
		fa, fb := sim.at(end), real.at(end)
		if fa != nil {
			got := "no recording"
			if fb != nil {
				got = "deployment gone"
				for _, d := range fb.deps {
					if str(d, "metadata", "name") == dep {
						got = state(d)
					}
				}
			}
			want := "deployment gone"
			for _, d := range fa.deps {
				if str(d, "metadata", "name") == dep {
					want = state(d)
				}
			}
			check("final", fmt.Sprintf("deployment/%s at %ds", dep, end), want, got)
		}
	}
	simSizes, realSizes := sim.sizes(), real.sizes()
	ids := make([]string, 0, len(simSizes))
	for id := range simSizes {
		ids = append(ids, id)
	}
	for id := range realSizes {
		if simSizes[id] == nil {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		a, b := simSizes[id], realSizes[id]
		if a == nil {
			a = &series{}
		}
		if b == nil {
			b = &series{}
		}
		pairs, refined := matchSteps(a.vals, b.vals)
		what := "replicaset " + id + " sizes"
		if refined {
			res.Refined = append(res.Refined, fmt.Sprintf("%s: Converge %s, real %s", what, strings.Join(a.vals, ","), strings.Join(b.vals, ",")))
		}
		if pairs == nil {
			check("sizes", what, strings.Join(a.vals, ","), strings.Join(b.vals, ","))
		} else {
			check("sizes", what, "", "")
			for _, p := range pairs {
				if p[0] == 0 && p[1] == 0 {
					continue
				}
				res.Checked["timing"]++
				if tol.allows(a.at[p[0]], b.at[p[1]]) {
					res.Agreed["timing"]++
				} else {
					res.Differences = append(res.Differences, Difference{Aspect: "timing",
						What:     fmt.Sprintf("replicaset %s to %s", id, a.vals[p[0]]),
						Converge: fmt.Sprintf("at %ds", a.at[p[0]]), Real: fmt.Sprintf("at %ds", b.at[p[1]])})
				}
			}
		}
		if fa, fb := sim.at(in.Duration), real.at(in.Duration); fa != nil && fb != nil {
			check("final", fmt.Sprintf("replicaset %s at %ds", id, in.Duration), sizeAt(sim, fa, id), sizeAt(real, fb, id))
		}
	}
	// Events.
	simScaling, simReasons := simTrace.scaling(sim), simTrace.reasons
	var realScaling []string
	var realReasons map[string]bool
	if in.WatchedEvents != nil {
		realScaling, realReasons, err = watchedEvents(in.WatchedEvents, real)
	} else {
		realScaling, realReasons, err = realEvents(in.Events, real)
	}
	if err != nil {
		return nil, fmt.Errorf("the events: %w", err)
	}
	ca, cb := scalingChains(simScaling), scalingChains(realScaling)
	if len(realScaling) >= spamBurst || len(simScaling) >= spamBurst {
		// The recorder's spam filter passes 25 events of one object, then
		// one every 5 minutes: the side that took more steps (the cluster,
		// syncing on each informer event) loses its last ones. The chains
		// then cannot be compared; the sizes (sampled) still are.
		res.Refined = append(res.Refined, fmt.Sprintf("ScalingReplicaSet events not compared: %d in Converge, %d on the cluster, at least %d on one side (the spam filter)", len(simScaling), len(realScaling), spamBurst))
		ca, cb = nil, nil
	}
	for _, id := range unionKeys(ca, cb) {
		what := "ScalingReplicaSet events of " + id
		pairs, refined := matchSteps(ca[id], cb[id])
		if refined {
			res.Refined = append(res.Refined, fmt.Sprintf("%s: Converge %s, real %s", what, strings.Join(ca[id], ","), strings.Join(cb[id], ",")))
		}
		if pairs == nil {
			check("events", what, strings.Join(ca[id], ","), strings.Join(cb[id], ","))
		} else {
			check("events", what, "", "")
		}
	}
	check("events", "controllers' event reasons", strings.Join(sortedKeys(simReasons), ", "), strings.Join(sortedKeys(realReasons), ", "))
	// Steps.
	simNS := func(s string) string { return normalise(s, "default") }
	realNS := func(s string) string { return normalise(s, in.Namespace) }
	realSteps := replaySteps(in.Replay)
	used := make([]bool, len(realSteps))
	for _, st := range simTrace.steps {
		// The replay's step of the same second and text, else the next
		// unused one of the same text.
		got, at := "not run", -1
		for j := range realSteps {
			if !used[j] && realSteps[j].text == st.text && (at < 0 || realSteps[j].at == st.at) {
				at = j
				if realSteps[j].at == st.at {
					break
				}
			}
		}
		if at >= 0 {
			got, used[at] = realNS(realSteps[at].output), true
		}
		want := simNS(st.output)
		what := fmt.Sprintf("at %s: kubectl %s", st.at, st.text)
		if st.watched && got != "not run" && watchAgrees(want, got) {
			res.Refined = append(res.Refined, fmt.Sprintf("%s (watched): Converge %q, real %q", what, want, got))
			want = got
		}
		check("steps", what, want, got)
	}
	res.Verdict = Agrees
	if len(res.Differences) > 0 {
		res.Verdict = Differs
	}
	return res, nil
}

func sizeAt(s *side, f *frame, id string) string {
	for _, rs := range f.rss {
		if s.ident[str(rs, "metadata", "name")] == id {
			return str(rs, "spec", "replicas")
		}
	}
	return "gone"
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// controllers are the event sources compared: the control plane's, not
// the kubelet's (kwok emits no container events) nor the scheduler's.
var controllers = map[string]bool{
	"deployment-controller": true, "replicaset-controller": true,
	"controllermanager": true, "horizontal-pod-autoscaler": true,
}

type expectOutcome struct {
	text string
	ok   bool
}

func (e expectOutcome) outcome() string {
	if e.ok {
		return "holds"
	}
	return "fails"
}

type stepOutput struct {
	at, text, output string
	// watched: a step that waits (rollout status, wait), its output
	// gathered from the trace's records of it.
	watched bool
}

type trace struct {
	frames  []frame
	expects []expectOutcome
	steps   []stepOutput
	// events are the ScalingReplicaSet messages, raw, in order.
	events  []string
	reasons map[string]bool
}

func readTrace(r io.Reader) (*trace, error) {
	tr := &trace{reasons: map[string]bool{}}
	waiting := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		var line struct {
			T           int64    `json:"t"`
			Deployments []object `json:"deployments"`
			ReplicaSets []object `json:"replicaSets"`
			Pods        []object `json:"pods"`
			Events      []struct {
				Reason, Message, Source, Object string
			} `json:"events"`
			Steps []struct {
				At      string `json:"at"`
				Action  string `json:"action"`
				OK      bool   `json:"ok"`
				Output  string `json:"output"`
				Error   string `json:"error"`
				Waiting bool   `json:"waiting"`
			} `json:"steps"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, err
		}
		tr.frames = append(tr.frames, frame{t: line.T, deps: line.Deployments, rss: line.ReplicaSets, pods: line.Pods})
		for _, e := range line.Events {
			if e.Reason == "ScalingReplicaSet" {
				tr.events = append(tr.events, strings.TrimPrefix(e.Message, aggregatePrefix))
			}
			if controllers[e.Source] {
				tr.reasons[e.Source+" "+e.Reason] = true
			}
		}
		for _, st := range line.Steps {
			switch {
			case strings.HasPrefix(st.Action, "expect "):
				tr.expects = append(tr.expects, expectOutcome{text: strings.TrimPrefix(st.Action, "expect "), ok: st.OK})
			case strings.HasPrefix(st.Action, "kubectl "):
				// What kubectl prints: its output, then its error (the
				// replay shows both).
				out := st.Output
				if st.Error != "" {
					if out != "" {
						out += "\n"
					}
					out += st.Error
				}
				key := st.At + " " + st.Action
				if i, ok := waiting[key]; ok {
					// A waiting step's next record: its new lines.
					if out != "" {
						tr.steps[i].output = strings.TrimPrefix(tr.steps[i].output+"\n"+out, "\n")
					}
					if !st.Waiting {
						delete(waiting, key)
					}
					continue
				}
				tr.steps = append(tr.steps, stepOutput{at: st.At, text: strings.TrimPrefix(st.Action, "kubectl "), output: out, watched: st.Waiting})
				if st.Waiting {
					waiting[key] = len(tr.steps) - 1
				}
			}
		}
	}
	return tr, sc.Err()
}

func (tr *trace) scaling(s *side) []string {
	out := make([]string, len(tr.events))
	for i, m := range tr.events {
		out[i] = replaceNames(m, s)
	}
	return out
}

func replaceNames(msg string, s *side) string {
	names := make([]string, 0, len(s.ident))
	for n := range s.ident {
		names = append(names, n)
	}
	// Longest first, so that no name replaces part of another.
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	for _, n := range names {
		msg = strings.ReplaceAll(msg, n, "<"+s.ident[n]+">")
	}
	return msg
}

func realEvents(data []byte, s *side) ([]string, map[string]bool, error) {
	reasons := map[string]bool{}
	if len(data) == 0 {
		return nil, reasons, nil
	}
	var list struct {
		Items []struct {
			Metadata struct {
				ResourceVersion string `json:"resourceVersion"`
			} `json:"metadata"`
			Reason             string `json:"reason"`
			Message            string `json:"message"`
			Count              int    `json:"count"`
			ReportingComponent string `json:"reportingComponent"`
			Source             struct {
				Component string `json:"component"`
			} `json:"source"`
		} `json:"items"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		return nil, nil, err
	}
	items := list.Items
	sort.SliceStable(items, func(i, j int) bool {
		a, _ := strconv.ParseInt(items[i].Metadata.ResourceVersion, 10, 64)
		b, _ := strconv.ParseInt(items[j].Metadata.ResourceVersion, 10, 64)
		return a < b
	})
	var scaling []string
	for _, e := range items {
		src := e.Source.Component
		if src == "" {
			src = e.ReportingComponent
		}
		if e.Reason == "ScalingReplicaSet" {
			// A list shows each event once, with its last message: an
			// event the correlator combined from several (its count above
			// one) lost the others' messages. The watch (watchedEvents)
			// sees each.
			scaling = append(scaling, replaceNames(strings.TrimPrefix(e.Message, aggregatePrefix), s))
		}
		if controllers[src] {
			reasons[src+" "+e.Reason] = true
		}
	}
	return scaling, reasons, nil
}

var (
	sayLine   = regexp.MustCompile(`^\s*(\d+)s  (.*)$`)
	outLine   = regexp.MustCompile(`^ {10}(.*)$`)
	podName   = regexp.MustCompile(`\b([a-z][a-z0-9-]*?)-[a-z0-9]{8,10}-[a-z0-9]{5}\b`)
	rsName    = regexp.MustCompile(`\b([a-z][a-z0-9-]*?)-[a-z0-9]{8,10}\b`)
	age       = regexp.MustCompile(`\b\d+(\.\d+)?(s|m|h|d)(\d+(s|m))?\b`)
	ip        = regexp.MustCompile(`\b\d+\.\d+\.\d+\.\d+\b`)
	nodeName  = regexp.MustCompile(`\b(converge-worker\d*|node-\d+)\b`)
	spaceRuns = regexp.MustCompile(`[ \t]+`)
	hashLabel = regexp.MustCompile(`\bpod-template-hash([=:]\s*)[a-z0-9]+`)
	date      = regexp.MustCompile(`\b[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}\b`)
	// A node's kubelet version: kwok's own (kwok-v0.8.0) on the cluster,
	// the simulated kubelet's v1.35.0 in Converge.
	kubeletVersion = regexp.MustCompile(`\b(kwok-v?\d+\.\d+\.\d+|v1\.35\.0)$`)
	// An event of the kubelet's in describe's Events table (once
	// normalised): kwok emits none (Pulling, Started, InspectFailed, ...).
	kubeletEvent = regexp.MustCompile(`^(Normal|Warning) [A-Za-z]+ AGE( \(x\d+ over AGE\))? kubelet `)
)

// normalise replaces in a step's output what differs by construction:
// the namespace ns (first, so that no other rule takes part of its name),
// generated names, ages, IPs, node names, column widths, a node's kubelet
// version at the end of a line (kwok's against the simulated kubelet's);
// and it drops the kubelet's events from describe's Events (kwok emits
// none).
func normalise(s, ns string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		l = replaceWord(l, ns, "NAMESPACE")
		l = hashLabel.ReplaceAllString(l, "pod-template-hash${1}HASH")
		l = date.ReplaceAllString(l, "DATE")
		l = podName.ReplaceAllString(l, "$1-HASH-ID")
		l = rsName.ReplaceAllString(l, "$1-HASH")
		l = age.ReplaceAllString(l, "AGE")
		l = ip.ReplaceAllString(l, "IP")
		l = nodeName.ReplaceAllString(l, "NODE")
		l = strings.TrimSpace(spaceRuns.ReplaceAllString(l, " "))
		lines[i] = kubeletVersion.ReplaceAllString(l, "VERSION")
	}
	kept := lines[:0]
	for _, l := range lines {
		if !kubeletEvent.MatchString(l) {
			kept = append(kept, l)
		}
	}
	lines = kept
	// A table's rows are sorted by name, and the names differ: sorted
	// again once normalised.
	if len(lines) > 2 && strings.HasPrefix(lines[0], "NAME ") {
		sort.Strings(lines[1:])
	}
	return strings.Join(lines, "\n")
}

// replayExpects are the expects' outcomes in the replay's output, in
// order.
func replayExpects(out string) []expectOutcome {
	var res []expectOutcome
	for _, l := range strings.Split(out, "\n") {
		m := sayLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch {
		case strings.HasPrefix(m[2], "ok   expect "):
			res = append(res, expectOutcome{text: strings.TrimPrefix(m[2], "ok   expect "), ok: true})
		case strings.HasPrefix(m[2], "FAIL expect "):
			// "FAIL expect TEXT: got VALUE": the expect is TEXT.
			text := strings.TrimPrefix(m[2], "FAIL expect ")
			if i := strings.LastIndex(text, ": got "); i >= 0 {
				text = text[:i]
			}
			res = append(res, expectOutcome{text: text, ok: false})
		}
	}
	return res
}

// replaySteps are the kubectl steps' outputs in the replay's output, in
// order (a watched step where the replay prints it).
func replaySteps(out string) []stepOutput {
	var res []stepOutput
	cur := -1
	for _, l := range strings.Split(out, "\n") {
		if m := sayLine.FindStringSubmatch(l); m != nil {
			cur = -1
			if strings.HasPrefix(m[2], "$ kubectl ") && !strings.HasSuffix(m[2], "(watching in the background)") {
				text := strings.TrimSuffix(strings.TrimPrefix(m[2], "$ kubectl "), " (watched)")
				res = append(res, stepOutput{at: m[1] + "s", text: text})
				cur = len(res) - 1
			}
			continue
		}
		if m := outLine.FindStringSubmatch(l); m != nil && cur >= 0 {
			if res[cur].output != "" {
				res[cur].output += "\n"
			}
			res[cur].output += m[1]
		}
	}
	return res
}
