package session

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deltaReader is the JS API's side of TraceDelta (web/converge.js,
// Simulation.#snapshot): it keeps the objects of the last snapshot by
// number and rebuilds each whole snapshot from a delta.
type deltaReader struct {
	num  int64
	objs map[float64]any
}

// read applies a delta and returns the whole snapshot, and how many
// objects it carried.
func (r *deltaReader) read(t *testing.T, text string) (map[string]any, int) {
	t.Helper()
	numText, body, ok := strings.Cut(text, "\n")
	require.True(t, ok, "the snapshot's number, then a newline")
	num, err := strconv.ParseInt(numText, 10, 64)
	require.NoError(t, err)
	var snap map[string]any
	require.NoError(t, json.Unmarshal([]byte(body), &snap))
	objs, sent := map[float64]any{}, 0
	for key, v := range snap {
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			continue
		}
		if _, isObject := list[0].(map[string]any); isObject {
			continue // events, steps: as in the trace line
		}
		for i, e := range list {
			switch e := e.(type) {
			case float64:
				o, held := r.objs[e]
				require.True(t, held, "%s[%d]: number %v was sent before", key, i, e)
				list[i], objs[e] = o, o
			case []any:
				require.Len(t, e, 2)
				list[i], objs[e[0].(float64)] = e[1], e[1]
				sent++
			default:
				t.Fatalf("%s[%d] is %T", key, i, e)
			}
		}
	}
	r.num, r.objs = num, objs
	return snap, sent
}

// TestTraceDeltaRebuildsTheTraceLine: a reader that applies every delta
// holds, after each step, seek and command, exactly the trace line; it is
// sent only the objects that changed; and a reader that missed a delta (or
// holds none) is sent everything.
func TestTraceDeltaRebuildsTheTraceLine(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	require.False(t, s.Load([]byte(alphaYAML)).HasErrors())
	r := &deltaReader{}
	check := func(what string) int {
		t.Helper()
		d, err := s.TraceDelta(r.num)
		require.NoError(t, err)
		got, sent := r.read(t, d)
		line, err := s.TraceLine()
		require.NoError(t, err)
		var want map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &want))
		require.Equal(t, want, got, what)
		return sent
	}
	all := check("t=0")
	require.Positive(t, all)
	assert.Zero(t, check("t=0 again"), "nothing changed")
	for i := 0; i < 20; i++ {
		s.Step(1)
		check("step to " + strconv.FormatInt(s.Sim.T(), 10))
	}
	s.SeekTo(3)
	check("seek back to 3")
	s.Run("scale deployment/web --replicas=5")
	check("after a command")
	s.SeekTo(30)
	check("seek to 30")
	_, err := s.TraceDelta(r.num) // a delta the reader never applies
	require.NoError(t, err)
	assert.Equal(t, len(r.objs), check("after a missed delta"), "a reader that missed one is sent everything")
	r = &deltaReader{}
	check("a new reader")
}
