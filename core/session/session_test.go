package session

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hack-pad/hackpadfs/mem"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/library"
	"converge/core/sim"
)

// tickingClock is a monotonic clock that moves 1 ms each time it is read:
// every measured second costs about a millisecond.
func tickingClock() func() time.Duration {
	var now time.Duration
	return func() time.Duration {
		now += time.Millisecond
		return now
	}
}

// newSession is a session on testLibrary (alpha, beta, broken) that
// records the reasons it stopped the seek under way.
func newSession(t *testing.T) (*Session, *[]string) {
	t.Helper()
	s := New(testLibrary(), tickingClock())
	var stops []string
	s.OnStop = func(why string) { stops = append(stops, why) }
	return s, &stops
}

func TestLoadKeepsTheOldSimulationOnErrors(t *testing.T) {
	t.Parallel()
	s, stops := newSession(t)
	require.False(t, s.Load([]byte(alphaYAML)).HasErrors())
	s.Step(5)
	*stops = nil

	probs := s.Load([]byte("name: broken\nobjects: 3\n"))

	require.True(t, probs.HasErrors())
	assert.Equal(t, 2, probs.Errors()[0].Line)
	assert.Equal(t, int64(5), s.Sim.T(), "the old simulation stays, at its time")
	assert.Equal(t, alphaYAML, string(s.Source))
	assert.Empty(t, *stops, "a refused load stops nothing")
}

func TestLoadBuiltinResult(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		arg        string
		wantOK     bool
		wantErr    string
		wantErrors int
	}{
		{name: "a known name", arg: "beta", wantOK: true},
		{name: "an unknown name lists the known ones", arg: "nope",
			wantErr: `there is no built-in scenario "nope"; the built-in ones are alpha, beta, broken`},
		{name: "an invalid built-in gives its problems", arg: "broken", wantErrors: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newSession(t)
			r, err := s.LoadBuiltinResult(tc.arg)
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				assert.Nil(t, s.Sim)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.wantOK, r.OK)
			assert.Len(t, r.Errors, tc.wantErrors)
			if tc.wantOK {
				assert.Equal(t, tc.arg, s.Name)
				assert.Equal(t, tc.arg, s.Origin().Builtin(s.Sim.Scenario()))
			}
		})
	}
}

// TestEveryChangeStopsTheSeekUnderWay: each change of the session tells
// OnStop why first, so that the page ends its seek in slices there.
func TestEveryChangeStopsTheSeekUnderWay(t *testing.T) {
	t.Parallel()
	s, stops := newSession(t)
	require.NoError(t, s.LoadBuiltin("alpha"))
	s.Step(1)
	s.SeekTo(0)
	s.Run("scale deployment/web --replicas=3")
	require.NoError(t, s.RemoveStep(len(s.Sim.Scenario().Steps)-1))
	_, err := s.NewSeek(20)
	require.NoError(t, err)
	s.Open(ParseAddress("/?scenario=beta"))
	s.Load([]byte(alphaYAML))
	s.Close("simulation 1 is disposed")
	assert.Equal(t, []string{"stopped by a load", "stopped by a step", "stopped by a seek", "stopped by a command",
		"stopped by removing a step", "superseded by a later seek to t=20", "stopped by an open", "stopped by a load",
		"simulation 1 is disposed"}, *stops)
	assert.Nil(t, s.Sim)
}

func TestWithoutAScenario(t *testing.T) {
	t.Parallel()
	s, stops := newSession(t)
	s.Step(3)
	s.SeekTo(3)
	assert.Nil(t, s.Sim)
	r := s.Run("get pods")
	assert.Equal(t, sim.StepResult{Action: "get pods", Error: ErrNoScenario.Error(), Index: -1}, r)
	assert.ErrorIs(t, s.RemoveStep(0), ErrNoScenario)
	_, err := s.Value("time")
	assert.ErrorIs(t, err, ErrNoScenario)
	_, err = s.TraceLine()
	assert.ErrorIs(t, err, ErrNoScenario)
	_, err = s.NewSeek(5)
	assert.ErrorIs(t, err, ErrNoScenario)
	assert.ErrorIs(t, s.CheckStep("step", 1), ErrNoScenario)
	_, err = s.Link()
	assert.ErrorIs(t, err, ErrNoScenario)
	assert.Equal(t, 0, s.PlayFrame(10))
	assert.False(t, s.AtEnd())
	assert.Equal(t, []string{"superseded by a later seek to t=5"}, *stops, "only the seek stops what is under way")
}

func TestStepAndSeekStayWithinADay(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	require.NoError(t, s.LoadBuiltin("beta"))
	s.Step(0)
	assert.Equal(t, int64(1), s.Sim.T(), "n < 1 counts as 1")
	s.SeekTo(-5)
	assert.Equal(t, int64(0), s.Sim.T())
	k, err := s.NewSeek(MaxSeconds + 100)
	require.NoError(t, err)
	assert.Equal(t, MaxSeconds, k.Target, "a seek goes at most to 24h")
}

// TestChecksRefuseWhatWouldFreezeThePage: a synchronous jump estimated
// beyond about a second is refused, naming seekAsync; the arguments that
// cannot be are argument errors.
func TestChecksRefuseWhatWouldFreezeThePage(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	require.NoError(t, s.LoadBuiltin("alpha"))
	s.SeekTo(10) // measured on the ticking clock: about 0.1 ms a second
	s.Step(10)   // 10 seconds in 1 ms
	s.SeekTo(10)

	err := s.CheckSeek("seek", 86400)
	var tl *TooLongError
	require.ErrorAs(t, err, &tl)
	assert.Contains(t, err.Error(), "seek(86400) would compute 86,3")
	assert.Contains(t, err.Error(), "use seekAsync(86400), which works in slices")
	assert.NoError(t, s.CheckSeek("moveTo", 40), "a short one goes")

	err = s.CheckStep("advance", 86000)
	require.ErrorAs(t, err, &tl)
	assert.Contains(t, err.Error(), "advance(86000) would compute 86,000 simulated seconds")
	assert.Contains(t, err.Error(), "use seekAsync(86010)")

	var ae *ArgError
	require.ErrorAs(t, s.CheckStep("step", 0), &ae)
	assert.Equal(t, "seconds must be at least 1, not 0", ae.Msg)
	require.ErrorAs(t, s.CheckStep("step", 86391), &ae)
	assert.Equal(t, "t=86401 is past 24h, the longest a simulation runs", ae.Msg)
	require.ErrorAs(t, CheckTarget(-1, "the number -1"), &ae)
	assert.Equal(t, "t must be a second between 0 and 86400, not the number -1", ae.Msg)
	assert.NoError(t, CheckTarget(MaxSeconds, "86400"))
	assert.Equal(t, int64(10), s.Sim.T(), "a check changes nothing")
}

func TestRunJoinsTheScenarioAndRemoveStepTakesItOut(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	require.NoError(t, s.LoadBuiltin("alpha"))
	s.SeekTo(10)
	before, err := s.Value("scenario")
	require.NoError(t, err)
	assert.Equal(t, "alpha", s.Origin().Builtin(s.Sim.Scenario()))

	read := s.Run("get deployments")
	refused := s.Run("scale deployment/nope --replicas=1")
	mut := s.Run("kubectl scale deployment/web --replicas=4")

	assert.True(t, read.OK)
	assert.Contains(t, read.Output, "web")
	assert.False(t, refused.OK)
	assert.Contains(t, refused.Error, `deployments.apps "nope" not found`)
	require.True(t, mut.OK, mut.Error)
	assert.Equal(t, "11s", mut.At)
	yaml, err := s.Value("scenario")
	require.NoError(t, err)
	assert.Contains(t, yaml, "kubectl: scale deployment/web --replicas=4")
	assert.NotContains(t, yaml, "get deployments", "a read-only command does not join")
	assert.Equal(t, "", s.Origin().Builtin(s.Sim.Scenario()), "a console step makes it the user's own")

	l, err := s.Link()
	require.NoError(t, err)
	assert.Equal(t, "", l.Builtin)
	assert.Equal(t, yaml, string(l.YAML))
	assert.Equal(t, int64(11), l.T)

	require.NoError(t, s.RemoveStep(len(s.Sim.Scenario().Steps)-1))
	after, err := s.Value("scenario")
	require.NoError(t, err)
	assert.NotContains(t, after, "kubectl: scale deployment/web --replicas=4")
	assert.Equal(t, strings.TrimSpace(before.(string)), strings.TrimSpace(strings.TrimSuffix(after.(string), "steps: []\n")))
	assert.ErrorContains(t, s.RemoveStep(99), "no step 99")
}

func TestOpen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		href     string
		wantName string
		wantT    int64
		wantErr  string
	}{
		{name: "a built-in at a time", href: "/?scenario=beta&t=7", wantName: "beta", wantT: 7},
		{name: "nothing opens the default", href: "/", wantName: "alpha"},
		{name: "a corrupt share falls back with a message", href: "/#s=%25%25%25", wantName: "alpha",
			wantErr: "The shared scenario cannot be opened: share link is corrupt: illegal base64 data at input byte 0. Showing the built-in scenario alpha instead."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, _ := newSession(t)
			s.SavedAs = "mine"
			o := s.Open(ParseAddress(tc.href))
			assert.Equal(t, tc.wantT, o.T, "the caller seeks there")
			assert.Equal(t, int64(0), s.Sim.T())
			assert.Equal(t, tc.wantName, s.Name)
			assert.Equal(t, tc.wantErr, s.Err)
			assert.Equal(t, "", s.SavedAs)
			assert.Nil(t, s.Compare)
		})
	}
	t.Run("compare=1 compares a scenario without variants", func(t *testing.T) {
		t.Parallel()
		s, _ := newSession(t)
		s.Open(ParseAddress("/?scenario=alpha&compare=1"))
		require.NotNil(t, s.Compare)
		assert.True(t, s.WantCompare)
		compared, err := s.Value("compared")
		require.NoError(t, err)
		assert.Equal(t, true, compared)
		s.Step(3)
		assert.Len(t, s.Outcomes().Variants, 1)
	})
}

func TestValues(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	require.NoError(t, s.LoadBuiltin("alpha"))
	s.SeekTo(25)
	want := map[string]string{
		"source": alphaYAML, "name": "alpha", "time": "25", "horizon": "25", "duration": "60",
		"variants": "[]", "compared": "false",
	}
	for _, name := range Values {
		v, err := s.Value(name)
		require.NoError(t, err, name)
		if w, ok := want[name]; ok {
			assert.Equal(t, strings.TrimSpace(w), strings.TrimSpace(toString(v)), name)
		}
		assert.NotEmpty(t, toString(v), name)
	}
	hist, err := s.Value("history")
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(hist.(string), "["), "structured values are JSON")
	frag, err := s.Value("shareFragment")
	require.NoError(t, err)
	yaml, err := FromFragment(frag.(string))
	require.NoError(t, err)
	scn, err := s.Value("scenario")
	require.NoError(t, err)
	assert.Equal(t, scn, yaml, "fromFragment(shareFragment()) == scenario()")
	_, err = s.Value("nope")
	assert.EqualError(t, err, `internal error: no value "nope"`)
	_, err = FromFragment("!!")
	assert.EqualError(t, err, "share link is corrupt: illegal base64 data at input byte 0")
	to, err := ToFragment("name: x\n")
	require.NoError(t, err)
	back, err := FromFragment(to)
	require.NoError(t, err)
	assert.Equal(t, "name: x\n", back)
}

func toString(v any) string { return fmt.Sprint(v) }

// TestSaveWork: what the page keeps when it must stop: a scenario of the
// user's own in My scenarios under a free name, then under the same one;
// the editor's edits as the draft, from the built-in they were made from.
func TestSaveWork(t *testing.T) {
	t.Parallel()
	fsys, err := mem.NewFS()
	require.NoError(t, err)
	st, err := library.New(fsys, library.Options{Now: func() time.Time { return time.Unix(1e9, 0) }})
	require.NoError(t, err)
	s, _ := newSession(t)
	require.NoError(t, s.LoadBuiltin("alpha"))

	name, err := s.SaveWork(st, "", false)
	require.NoError(t, err)
	assert.Equal(t, "", name, "a built-in as loaded needs no saving")
	name, err = s.SaveWork(st, "name: edited\n", true)
	require.NoError(t, err)
	assert.Equal(t, "", name)
	d, ok, err := st.Draft()
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, library.Draft{Text: "name: edited\n", From: "alpha", Modified: d.Modified}, d)

	require.True(t, s.Run("scale deployment/web --replicas=3").OK)
	_, err = st.Save("alpha", []byte("name: taken\n"))
	require.NoError(t, err)
	name, err = s.SaveWork(st, "", false)
	require.NoError(t, err)
	assert.Equal(t, "alpha 2", name, "its own name, made free")
	assert.Equal(t, "alpha 2", s.SavedAs)
	again, err := s.SaveWork(st, "", false)
	require.NoError(t, err)
	assert.Equal(t, "alpha 2", again, "a second call replaces the first")
	got, err := st.Open("alpha 2")
	require.NoError(t, err)
	yaml, err := s.Value("scenario")
	require.NoError(t, err)
	assert.Equal(t, yaml, string(got))
}

func TestCheckBudget(t *testing.T) {
	t.Parallel()
	a, _ := newSession(t)
	b, _ := newSession(t)
	require.NoError(t, a.LoadBuiltin("alpha"))
	held := PageBytes([]*Session{a, b})
	assert.Equal(t, a.Sim.EstimatedBytes()+2*InstanceBytes, held)
	assert.NoError(t, CheckBudget([]*Session{a, b}, held+InstanceBytes), "one more fits")
	err := CheckBudget([]*Session{a, b}, held+InstanceBytes-1)
	var eb *ErrBudget
	require.ErrorAs(t, err, &eb)
	assert.Equal(t, ErrBudget{Instances: 2, Bytes: held, Budget: held + InstanceBytes - 1}, *eb)
	assert.Contains(t, err.Error(), "the page's memory budget is spent: its 2 simulations hold about ")
	assert.Contains(t, FailedCreate(err), `{"ok":false,"error":"create: the page's memory budget is spent`)
}

// TestPlayFrame: a frame of the play loop computes what it owes, at most
// MaxPlayBatch, what fits in a slice of work and what is left to the end.
func TestPlayFrame(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	require.NoError(t, s.LoadBuiltin("beta")) // 30s
	assert.Equal(t, 3, s.PlayFrame(3))
	assert.Equal(t, 0, s.PlayFrame(0))
	s.SeekTo(28)
	assert.Equal(t, 2, s.PlayFrame(10), "up to the end")
	assert.False(t, s.AtEnd())
	s.Step(2)
	assert.True(t, s.AtEnd())
	assert.Equal(t, 0, s.PlayFrame(10))

	big, _ := newSession(t)
	require.False(t, big.Load([]byte("name: long\nduration: 1h\n")).HasErrors())
	big.SeekTo(0)
	assert.Equal(t, MaxPlayBatch, big.PlayFrame(1000), "at most a batch")
	slow := New(testLibrary(), func() func() time.Duration {
		var now time.Duration
		return func() time.Duration { now += 20 * time.Millisecond; return now }
	}())
	require.False(t, slow.Load([]byte("name: long\nduration: 1h\n")).HasErrors())
	slow.Step(1) // a second measured at 20 ms
	assert.Equal(t, 2, slow.PlayFrame(1000), "what fits in a 50 ms slice")
}

// TestEveryChangeIsDrawnOnce: OnChange follows each change once, with the
// change complete (OpenSaved's name set); a refused load and Open (whose
// caller seeks first) call it not.
func TestEveryChangeIsDrawnOnce(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	var drawn []string
	s.OnChange = func() {
		at := int64(-1)
		if s.Sim != nil {
			at = s.Sim.T()
		}
		drawn = append(drawn, fmt.Sprintf("%d %s", at, s.SavedAs))
	}
	require.NoError(t, s.LoadBuiltin("alpha"))
	s.Step(2)
	s.SeekTo(5)
	require.True(t, s.Run("scale deployment/web --replicas=3").OK)
	require.NoError(t, s.RemoveStep(len(s.Sim.Scenario().Steps)-1))
	require.True(t, s.Load([]byte("name: broken\nobjects: 3\n")).HasErrors())
	require.False(t, s.OpenSaved("mine", []byte(alphaYAML)).HasErrors())
	s.Open(ParseAddress("/?scenario=beta"))
	assert.Equal(t, []string{"0 ", "2 ", "5 ", "6 ", "6 ", "0 mine"}, drawn)
}
