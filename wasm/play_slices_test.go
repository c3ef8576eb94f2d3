//go:build js && wasm

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest"
)

// bigRollout loads 1,000 pods rolling at 10s into the page's default
// instance and seeks to just after the image change: its seconds are long
// enough to park many times with a budget of 0.
func bigRollout(t *testing.T) *page {
	t.Helper()
	p := newTestPage(t)
	src := simtest.RolloutYAML(simtest.RolloutOptions{Name: "big", Duration: "60s", Nodes: 20, PodsPerNode: 110,
		Replicas: 1000, Image: "nginx:1.25", Rollouts: []simtest.Rollout{{At: "10s", Image: "nginx:1.26"}}})
	require.True(t, decode[loadResult](t, rawCall(p.def.obj, "load", src)).OK)
	p.def.SeekTo(10)
	return p
}

// TestPlayAcrossFrames: a second of play parks at its pieces when the
// frame's budget is used (0 here: at every piece) and resumes a frame at a
// time; meanwhile the instance shows the second before, whole (time and
// snapshot); once done it is the second a step computes.
func TestPlayAcrossFrames(t *testing.T) {
	t.Parallel()
	p, want := bigRollout(t), bigRollout(t)
	want.def.Step(1)
	before := rawCall(p.def.obj, "snapshot").String()
	ended := []int{}
	p.def.playSeconds(1, 0, func(k int) { ended = append(ended, k) })
	frames := 1
	for p.def.playing != nil {
		require.Equal(t, 10, rawCall(p.def.obj, "time").Int(), "the second before is shown")
		if frames%50 == 1 {
			require.Equal(t, before, rawCall(p.def.obj, "snapshot").String())
		}
		p.def.playing.step()
		frames++
	}
	assert.Greater(t, frames, 20, "the second went across frames")
	assert.Equal(t, []int{1}, ended)
	assert.Equal(t, 11, rawCall(p.def.obj, "time").Int())
	assert.Equal(t, rawCall(want.def.obj, "snapshot").String(), rawCall(p.def.obj, "snapshot").String())
}

// TestAChangeFinishesThePlayedSecondFirst: a step, a seek or a command
// while a second of play is parked finishes that second at once (its
// batch ends there) and then acts on the whole second: a step mid-second
// lands one second after it.
func TestAChangeFinishesThePlayedSecondFirst(t *testing.T) {
	t.Parallel()
	for _, change := range []struct {
		name string
		do   func(p *page)
		want int
	}{
		{"step", func(p *page) { rawCall(p.def.obj, "step", 1) }, 12},
		{"seek", func(p *page) { p.def.SeekTo(5) }, 5},
		{"command", func(p *page) { p.def.Run("kubectl get pods") }, 11},
	} {
		t.Run(change.name, func(t *testing.T) {
			t.Parallel()
			p := bigRollout(t)
			var ended []int
			p.def.playSeconds(3, 0, func(k int) { ended = append(ended, k) })
			require.NotNil(t, p.def.playing, "parked mid-second")
			change.do(p)
			assert.Nil(t, p.def.playing)
			assert.Equal(t, []int{1}, ended, "the second under way ends, and no other starts")
			assert.Equal(t, change.want, rawCall(p.def.obj, "time").Int())
		})
	}
}
