package session

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"time"

	"converge/core/compare"
	"converge/core/kubectl"
	"converge/core/library"
	"converge/core/manifest"
	"converge/core/scenario"
	"converge/core/sim"
	"converge/core/store"
	"converge/core/view"
)

// Session is one simulation on the page (the page itself, or one
// <converge-sim>) and everything that changes it: what it opened and from
// where, its time, its seeks and their refusals, its console commands, and
// the messages these show. Package wasm holds one per instance, draws it,
// and calls its methods from the page's events; the page's renderers read
// its fields.
type Session struct {
	// Sim is the simulation; nil until a scenario is loaded.
	Sim *sim.Sim
	// Source is the YAML last loaded successfully (the editor's text).
	// Steps added at run time are not in it: Sim.Scenario().Marshal() has
	// them.
	Source []byte
	// Name is the built-in scenario's name when Source came from the
	// library, "" otherwise.
	Name string
	// Err is the message to show when the session could not open what its
	// address (or its element's attributes) asked for: a corrupt share
	// link, an unknown built-in name. It says what is shown instead. ""
	// when there is none; the next successful load clears it.
	Err string
	// Compare is the Compare view's variants (core/compare), led by Sim:
	// every variant of Sim's scenario on Sim's clock. It is set whenever
	// the scenario has variants, or the compare view was asked for
	// (&compare=1, <converge-sim compare>: then a scenario without
	// variants is one column); nil otherwise. Step, SeekTo and Run move
	// every variant.
	Compare *compare.Run
	// WantCompare is whether the compare view was asked for.
	WantCompare bool
	// SavedAs is the saved scenario (My scenarios) the simulation was
	// opened from or last saved as; "" for none. A load clears it.
	SavedAs string
	// OnStop, when set, is called with the reason before every change of
	// the session (a load, an open, a step, a seek, a command, removing a
	// step): package wasm ends the seek in slices under way there.
	OnStop func(why string)
	// OnChange, when set, is called after every change of the session
	// that the page draws (Load, LoadBuiltin, OpenSaved, Step, SeekTo,
	// Run, RemoveStep; not Open, whose caller seeks first): package wasm
	// renders there.
	OnChange func()

	// origin is where the scenario came from, for the picker and the
	// page's links (Origin).
	origin view.Origin
	lib    *Library
	// meter measures how long a simulated second takes (Step, SeekTo and
	// the seeks in slices); now is the monotonic clock it measures with.
	meter Meter
	now   func() time.Duration
	// line is the buffer snapshots are written into (TraceLine).
	line bytes.Buffer
	// sent is what the JS API's reader holds of the snapshots it was sent
	// (TraceDelta), as of its snapshot number sentNum.
	sent    store.Sent
	sentNum int64
	// tooLarge is where SaveTooLarge saved last.
	tooLarge tooLargeSave
}

// New makes a session with no simulation, opening scenarios from lib and
// measuring work with now, a monotonic clock (the page's performance.now).
func New(lib *Library, now func() time.Duration) *Session {
	return &Session{lib: lib, now: now}
}

// ErrNoScenario is the error of a call that needs a simulation before one
// is loaded.
var ErrNoScenario = errors.New("no scenario is loaded: call load or loadBuiltin first")

// MaxSeconds is the furthest a simulation goes: the longest a scenario may
// run.
const MaxSeconds = int64(scenario.MaxDuration / time.Second)

func (s *Session) stop(why string) {
	if s.OnStop != nil {
		s.OnStop(why)
	}
}

func (s *Session) changed() {
	if s.OnChange != nil {
		s.OnChange()
	}
}

// Load replaces the simulation with one of src, at t=0. On problems it
// keeps the previous simulation and returns them (with their line:col); a
// valid scenario returns its notes, if any.
func (s *Session) Load(src []byte) scenario.Problems {
	probs := s.load(src)
	if !probs.HasErrors() {
		s.changed()
	}
	return probs
}

// load is Load without OnChange.
func (s *Session) load(src []byte) scenario.Problems {
	p := Prepare(src, "scenario.yaml")
	if p.Sim != nil {
		s.stop("stopped by a load")
		s.set(p.Sim, p.Source, "")
	}
	return p.Problems
}

// LoadBuiltin loads the library's scenario name, at t=0. An unknown name
// is a *UnknownScenarioError; a built-in that does not parse, its problems
// (a scenario.Problems).
func (s *Session) LoadBuiltin(name string) error {
	src, err := s.lib.Source(name)
	if err != nil {
		return err
	}
	p := Prepare(src, name+".yaml")
	if p.Sim == nil {
		return p.Problems.Errors()
	}
	s.stop("stopped by a load")
	s.set(p.Sim, p.Source, name)
	s.changed()
	return nil
}

// LoadBuiltinResult is LoadBuiltin as the JS API's loadBuiltin reports it:
// the problems of a built-in that does not parse as a result, any other
// failure (an unknown name) as an error.
func (s *Session) LoadBuiltinResult(name string) (LoadResult, error) {
	err := s.LoadBuiltin(name)
	var probs scenario.Problems
	switch {
	case err == nil:
		return NewLoadResult(nil), nil
	case errors.As(err, &probs):
		return NewLoadResult(probs), nil
	}
	return LoadResult{}, err
}

func (s *Session) set(sm *sim.Sim, src []byte, name string) {
	s.Sim, s.Source, s.Name, s.Err, s.SavedAs = sm, src, name, "", ""
	s.origin = view.Origin{Name: name, LoadedSteps: len(sm.Scenario().Steps)}
	s.compareVariants()
}

// OpenSaved loads data, the saved scenario name, as Load does, and
// remembers the name (SavedAs).
func (s *Session) OpenSaved(name string, data []byte) scenario.Problems {
	probs := s.load(data)
	if !probs.HasErrors() {
		s.SavedAs = name
		s.changed()
	}
	return probs
}

// Origin is where the scenario came from: a built-in's name and its steps
// then, or nothing for a scenario of the user's own (view.Origin).
func (s *Session) Origin() view.Origin { return s.origin }

// Link is what a link to the session carries now: the built-in by name
// while the scenario is exactly it, else the scenario as it runs, with the
// console's steps; at the current second.
func (s *Session) Link() (Link, error) {
	if s.Sim == nil {
		return Link{}, ErrNoScenario
	}
	scn := s.Sim.Scenario()
	y, err := scn.Marshal()
	if err != nil {
		return Link{}, err
	}
	return Link{Builtin: s.origin.Builtin(scn), YAML: y, T: s.Sim.T()}, nil
}

// compareVariants sets Compare for the current Sim (see Compare). A
// variant that cannot start is said in Err, and the single view shown.
func (s *Session) compareVariants() {
	s.Compare = nil
	if s.Sim == nil || (!s.WantCompare && len(s.Sim.Scenario().Variants) == 0) {
		return
	}
	r, err := compare.Around(s.Sim, sim.Options{})
	if err != nil {
		s.Err = joinSentences(s.Err, "The variants cannot be compared: "+err.Error()+".")
		return
	}
	s.Compare = r
}

// Follow brings the Compare view's other variants to Sim's second,
// however Sim got there (a step, a seek in slices, a command).
func (s *Session) Follow() {
	if s.Compare != nil {
		s.Compare.Follow()
	}
}

// Open opens what an address asks for (DecideAddress: a share, a built-in
// name, a time), falling back to the library's default with Err set when
// it cannot. It does not seek: the caller seeks to the returned T (in
// slices, when it is far) when Sim is set.
func (s *Session) Open(a Address) Open { return s.Apply(DecideAddress(a, s.lib)) }

// Decide is the open of a (Open's) without applying it: the session does
// not change. pace, when set, is called between the pieces of its work
// (the parse, each piece of sim.New's tick 0: sim.Options.Pace), where an
// open in slices (the page's) parks; the decision is the same without it.
func (s *Session) Decide(a Address, pace func()) Open { return decideAddress(a, s.lib, pace) }

// Apply makes o, a decision of Decide on this session, what the session
// shows, as Open does, and returns it.
func (s *Session) Apply(o Open) Open {
	o.pace = nil
	s.stop("stopped by an open")
	s.Err = o.Error
	s.WantCompare = o.Compare
	if o.Sim != nil {
		s.Sim, s.Source, s.Name, s.SavedAs = o.Sim, o.Source, o.Name, ""
		s.origin = view.Origin{Name: o.Name, LoadedSteps: len(o.Sim.Scenario().Steps)}
	}
	s.compareVariants()
	return o
}

// Outcomes are the outcomes of every variant so far (compare.Run.Outcomes
// at the current second): one variant, named after the scenario, when the
// session is not compared.
func (s *Session) Outcomes() compare.Table {
	if s.Compare != nil {
		s.Follow()
		return s.Compare.Outcomes(s.Sim.T())
	}
	r, err := compare.Around(s.Sim, sim.Options{})
	if err != nil {
		return compare.Table{Variants: []compare.VariantOutcome{}}
	}
	return r.Outcomes(s.Sim.T())
}

// RolloutTimes is where the time of each rollout of the Deployment named
// name (or the focused one, when "") went up to now, the latest first;
// empty without such a Deployment.
func (s *Session) RolloutTimes(name string) []view.RolloutTime {
	if name == "" {
		if d := view.Focus(s.Sim, ""); d != nil {
			name = d.Name
		}
	}
	if name == "" {
		return []view.RolloutTime{}
	}
	return view.RolloutTimes(s.Sim, name)
}

// Scenarios lists the built-in library.
func (s *Session) Scenarios() []Info { return s.lib.List() }

// Step advances the simulation by n seconds (n < 1 counts as 1, and it
// stops at MaxSeconds; it may pass the scenario's duration). Without a
// simulation it does nothing.
func (s *Session) Step(n int) {
	if s.Sim == nil {
		return
	}
	s.stop("stopped by a step")
	left := MaxSeconds - s.Sim.T()
	if left <= 0 {
		return
	}
	k := min(int64(max(n, 1)), left)
	s.measured(k, func() { s.Sim.Step(int(k)) })
	s.changed()
}

// SeekTo moves the simulation to second t (clamped to 0..MaxSeconds),
// replaying from a checkpoint when t is in the past. Without a simulation
// it does nothing.
func (s *Session) SeekTo(t int64) {
	if s.Sim == nil {
		return
	}
	s.stop("stopped by a seek")
	t = min(max(t, 0), MaxSeconds)
	s.measured(SeekWork(s.Sim, t), func() { s.Sim.SeekTo(t) })
	s.changed()
}

// measured runs f, which computes seconds simulated seconds, and records
// how long it took on the meter.
func (s *Session) measured(seconds int64, f func()) {
	began := s.now()
	f()
	s.meter.Observe(seconds, s.now()-began)
}

// CheckStep refuses a synchronous step of n seconds (the JS API's step and
// advance, named call): n below 1, past 24h, or work estimated beyond
// about a second (a *TooLongError naming seekAsync). The message has no
// call prefix.
func (s *Session) CheckStep(call string, n int64) error {
	if s.Sim == nil {
		return ErrNoScenario
	}
	if n < 1 {
		return &ArgError{fmt.Sprintf("seconds must be at least 1, not %d", n)}
	}
	if s.Sim.T()+n > MaxSeconds {
		return &ArgError{fmt.Sprintf("t=%d is past 24h, the longest a simulation runs", s.Sim.T()+n)}
	}
	return s.meter.CheckBlock(s.Sim, fmt.Sprintf("%s(%d)", call, n), s.Sim.T()+n, n)
}

// CheckSeek refuses a synchronous seek to t (the JS API's seek and moveTo,
// named call) whose work is estimated beyond about a second (a
// *TooLongError naming seekAsync). t is a second in 0..MaxSeconds
// (CheckTarget).
func (s *Session) CheckSeek(call string, t int64) error {
	if s.Sim == nil {
		return ErrNoScenario
	}
	return s.meter.CheckBlock(s.Sim, fmt.Sprintf("%s(%d)", call, t), t, SeekWork(s.Sim, t))
}

// CheckTarget refuses a second that seek, moveTo and seekAsync cannot go
// to; shown is how the caller wrote it.
func CheckTarget(t int64, shown string) error {
	if t < 0 || t > MaxSeconds {
		return &ArgError{fmt.Sprintf("t must be a second between 0 and %d, not %s", MaxSeconds, shown)}
	}
	return nil
}

// ArgError is the refusal of a call's argument: the page throws it as a
// TypeError, prefixed with the call's name.
type ArgError struct{ Msg string }

func (e *ArgError) Error() string { return e.Msg }

// NewSeek prepares the seek in slices of the simulation to t (clamped to
// 0..MaxSeconds), measured on the session's meter. It stops what is under
// way first. Without a simulation it is ErrNoScenario.
func (s *Session) NewSeek(t int64) (*Seek, error) {
	s.stop(fmt.Sprintf("superseded by a later seek to t=%d", t))
	if s.Sim == nil {
		return nil, ErrNoScenario
	}
	t = min(max(t, 0), MaxSeconds)
	return NewSeek(s.Sim, t, &s.meter, s.now), nil
}

// Run runs a kubectl command line (sim.Run: a command that changes the
// cluster becomes a step of the scenario one second from now, and the
// simulation advances to run it), in every variant when compared. Without
// a simulation it returns ErrNoScenario's text as the result's error.
func (s *Session) Run(line string) sim.StepResult {
	if s.Sim == nil {
		return sim.StepResult{Action: line, Error: ErrNoScenario.Error(), Index: -1}
	}
	s.stop("stopped by a command")
	var r sim.StepResult
	if s.Compare != nil {
		s.Follow()
		r = s.Compare.Run(line)
	} else {
		r = s.Sim.Run(line)
	}
	s.changed()
	return r
}

// RemoveStep takes out step i of the scenario, one added at run time
// (sim.RemoveStep). Without a simulation it returns ErrNoScenario.
func (s *Session) RemoveStep(index int) error {
	if s.Sim == nil {
		return ErrNoScenario
	}
	s.stop("stopped by removing a step")
	err := s.Sim.RemoveStep(index)
	s.changed()
	return err
}

// Complete returns the console's tab completions of line's last word.
func (s *Session) Complete(line string) []string {
	var env *kubectl.Env
	if s.Sim != nil {
		env = s.Sim.Env()
	}
	out := kubectl.Complete(env, line)
	if out == nil {
		out = []string{}
	}
	return out
}

// Close drops the simulation; the session is unusable afterwards.
func (s *Session) Close(why string) {
	s.stop(why)
	s.Sim, s.Source, s.Compare = nil, nil, nil
}

// TraceLine is the current snapshot as the bytes of `converge run --output
// jsonl`, as a string. They are written (sim.WriteTraceLine, from the
// objects' cached JSON) into the session's buffer, which keeps its size
// from one call to the next up to maxKeptLine.
func (s *Session) TraceLine() (string, error) {
	if s.Sim == nil {
		return "", ErrNoScenario
	}
	s.line.Reset()
	if err := s.Sim.WriteTraceLine(&s.line); err != nil {
		return "", fmt.Errorf("snapshot: %w", err)
	}
	line := s.line.String()
	if s.line.Cap() > maxKeptLine {
		s.line = bytes.Buffer{}
	}
	return line, nil
}

// TraceDelta is the current snapshot for the JS API, which keeps the
// objects of the last snapshot it was sent (by number, parsed once): the
// snapshot's number, a newline, then the trace line with each object the
// reader holds as its number and each other as [number, object]
// (sim.Sim.WriteTraceDelta). held is the number of the snapshot the reader
// holds (0: none); when it is not the last one sent (the reader dropped
// one, or holds none), every object is sent.
func (s *Session) TraceDelta(held int64) (string, error) {
	if s.Sim == nil {
		return "", ErrNoScenario
	}
	if held == 0 || held != s.sentNum {
		s.sent = store.Sent{}
	}
	s.line.Reset()
	s.sentNum++
	s.line.WriteString(strconv.FormatInt(s.sentNum, 10))
	s.line.WriteByte('\n')
	if err := s.Sim.WriteTraceDelta(&s.line, &s.sent); err != nil {
		s.sent = store.Sent{}
		return "", fmt.Errorf("snapshot: %w", err)
	}
	line := s.line.String()
	if s.line.Cap() > maxKeptLine {
		s.line = bytes.Buffer{}
	}
	return line, nil
}

// maxKeptLine is the largest snapshot buffer a session keeps between
// calls (a snapshot of 10,000 pods is about 20 MB).
const maxKeptLine = 8 << 20

// Values are the JS API's reading functions of no argument (Value), in
// the order the raw bridge defines them.
var Values = []string{"snapshot", "scenario", "shareFragment", "source", "name", "history", "expectations",
	"steps", "time", "horizon", "duration", "variants", "compared", "outcomes"}

// Value is the JS API's reading function name: a JSON string for the
// structured ones (history, expectations, steps, variants, outcomes), a
// string or a number for the others. It needs a simulation.
func (s *Session) Value(name string) (any, error) {
	if s.Sim == nil {
		return nil, ErrNoScenario
	}
	switch name {
	case "snapshot":
		return s.TraceLine()
	case "scenario":
		data, err := s.Sim.Scenario().Marshal()
		return string(data), err
	case "shareFragment":
		data, err := s.Sim.Scenario().Marshal()
		if err != nil {
			return nil, err
		}
		return scenario.EncodeShare(data)
	case "source":
		return string(s.Source), nil
	case "name":
		return s.Name, nil
	case "history":
		return JSON(nonNil(s.Sim.History())), nil
	case "expectations":
		return JSON(nonNil(s.Sim.Expectations())), nil
	case "steps":
		return JSON(nonNil(view.StepLog(s.Sim))), nil
	case "time":
		return s.Sim.T(), nil
	case "horizon":
		return s.Sim.Horizon(), nil
	case "duration":
		return int64(s.Sim.Duration() / time.Second), nil
	case "variants":
		return JSON(nonNil(s.Sim.Scenario().VariantNames())), nil
	case "compared":
		return s.Compare != nil, nil
	case "outcomes":
		return JSON(s.Outcomes()), nil
	}
	return nil, fmt.Errorf("internal error: no value %q", name)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// FromFragment is the YAML a share payload carries (the JS API's
// fromFragment).
func FromFragment(share string) (string, error) {
	data, err := scenario.DecodeShare(share)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// ToFragment is the share payload of a YAML text (the JS API's
// toFragment).
func ToFragment(yaml string) (string, error) { return scenario.EncodeShare([]byte(yaml)) }

// SaveWork keeps what the user would lose if the page stopped now, in st:
// the scenario as it runs, unless it is exactly a built-in one, in My
// scenarios under the name it was saved or opened as, else its own name
// made free ("NAME", "NAME 2", ...; the session then remembers it, so a
// second call replaces the first); and editedText, when the editor holds
// edits (edited), as the draft. It returns the name the scenario was saved
// under, "" when it needed no saving.
func (s *Session) SaveWork(st *library.Store, editedText string, edited bool) (string, error) {
	if s.Sim == nil {
		return "", nil
	}
	scn := s.Sim.Scenario()
	var y []byte
	if s.origin.Builtin(scn) == "" {
		var err error
		if y, err = scn.Marshal(); err != nil {
			return "", err
		}
	}
	if edited {
		from := s.SavedAs
		if s.origin.Name != "" {
			from = s.origin.Name
		}
		if _, err := st.SaveDraft(editedText, from); err != nil {
			return "", err
		}
	}
	if y == nil {
		return "", nil
	}
	name := s.SavedAs
	if name == "" {
		var err error
		if name, err = st.FreeName(scn.Name); err != nil {
			return "", err
		}
	}
	if _, err := st.Save(name, y); err != nil {
		return "", err
	}
	s.SavedAs = name
	return name, nil
}

// Bytes is what the session holds, as its engine estimates it
// (sim.Sim.EstimatedBytes), with what an instance costs beyond its
// simulation (its functions, its renderers' elements).
func (s *Session) Bytes() int64 {
	n := int64(InstanceBytes)
	if s.Sim != nil {
		n += s.Sim.EstimatedBytes()
	}
	return n
}

// PageMemoryBudget is what a page's simulations may hold together, as
// their engines estimate it (Bytes): 1 GiB. A page's simulations share one
// Go heap, in one wasm memory of at most 4 GiB, which the garbage
// collector needs room in: past it the runtime dies, and every simulation
// of the page with it (docs/limits.md).
const PageMemoryBudget = 1 << 30

// InstanceBytes is what an instance costs beyond its simulation.
const InstanceBytes = 64 << 10

// ErrBudget is the refusal of a new session beyond the page's memory
// budget.
type ErrBudget struct {
	Instances int
	Bytes     int64
	Budget    int64
}

func (e *ErrBudget) Error() string {
	return fmt.Sprintf("the page's memory budget is spent: its %d simulations hold about %s MiB of the %s MiB it allows; dispose() some first",
		e.Instances, manifest.Thousands(e.Bytes>>20), manifest.Thousands(e.Budget>>20))
}

// PageBytes is what sessions hold together (Bytes).
func PageBytes(sessions []*Session) int64 {
	var n int64
	for _, s := range sessions {
		n += s.Bytes()
	}
	return n
}

// CheckBudget refuses a new session when sessions hold budget already.
func CheckBudget(sessions []*Session, budget int64) error {
	n := PageBytes(sessions)
	if n+InstanceBytes > budget {
		return &ErrBudget{Instances: len(sessions), Bytes: n, Budget: budget}
	}
	return nil
}

// FailedCreate is what the raw bridge's create returns instead of an
// instance beyond the budget: the JSON of {ok: false, error}.
func FailedCreate(err error) string {
	return JSON(struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}{Error: "create: " + err.Error()})
}

// MaxPlayBatch is the most simulated seconds one frame of the play loop
// computes: at 64x a frame of 1 s computes 64.
const MaxPlayBatch = 64

// PlayFrame is how many seconds a frame of the play loop computes when it
// owes owed seconds: at most MaxPlayBatch, what fits in a slice of work
// (on a large cluster, 64x drops owed time rather than freeze the page),
// and what is left to the scenario's end (0 there). Without a simulation
// it is 0.
func (s *Session) PlayFrame(owed int) int {
	if s.Sim == nil {
		return 0
	}
	left := int(int64(s.Sim.Duration()/time.Second) - s.Sim.T())
	fits := max(int(SliceBudget/s.meter.PerSecond(s.Sim)), 1)
	return max(min(owed, MaxPlayBatch, fits, left), 0)
}

// PlayBudget is the work one frame of the play loop does before it
// yields to the page, which then draws: a second that costs more is
// computed across frames (PlaySecond), and the frame with the render stays
// well under 50 ms.
const PlayBudget = 6 * time.Millisecond

// PlaySecond is one second of the play loop: Step(1) computed with
// sim.Sim.StepPaced, pace called between its pieces (the page parks there
// and resumes next frame, while the readers show the second before). The
// meter counts the work, not the time parked. It draws nothing: the play
// loop draws once a frame's seconds are done.
func (s *Session) PlaySecond(pace func() (parked bool)) {
	if s.Sim == nil || s.Sim.T() >= MaxSeconds {
		return
	}
	s.stop("stopped by a step")
	work, _ := stepPacedSecond(s.Sim, s.now, pace)
	s.meter.Observe(1, work)
}

// AtEnd is whether the simulation is at or past its scenario's end, where
// playing stops.
func (s *Session) AtEnd() bool {
	return s.Sim != nil && s.Sim.T() >= int64(s.Sim.Duration()/time.Second)
}
