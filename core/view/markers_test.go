package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTimelineMarksStepsFailuresAndWarnings(t *testing.T) {
	t.Parallel()
	src := stuckScn + `- at: 6s
  kubectl: scale deployment/nope --replicas=2
`
	s := at(t, src, 30)
	tl := TimelineOf(s)
	assert.Equal(t, int64(30), tl.T)
	assert.Equal(t, int64(66), tl.Span)
	assert.Equal(t, "30s", tl.Now)
	assert.Equal(t, "1m6s", tl.SpanText)
	assert.Equal(t, "00:00:30", tl.Clock)
	assert.False(t, tl.Ended)
	kinds := map[string]int{}
	for _, m := range tl.Markers {
		kinds[m.Kind]++
	}
	assert.Equal(t, 2, kinds["step"], "t=0 objects and the set image")
	assert.Equal(t, 1, kinds["failed-step"])
	assert.Positive(t, kinds["warning"])
	var failed ScrubMarker
	for _, m := range tl.Markers {
		if m.Kind == "failed-step" {
			failed = m
		}
	}
	assert.Equal(t, ScrubMarker{Key: "6/failed-step", T: 6, Kind: "failed-step", Left: "9",
		Label: "6s: kubectl scale deployment/nope --replicas=2"}, failed)

	s.SeekTo(66)
	assert.True(t, TimelineOf(s).Ended)
}

func TestTimelineBoundsAMarkersLabel(t *testing.T) {
	t.Parallel()
	src := `name: many
objects:
` + deploymentDoc("1", "web:1") + `steps:
- {at: 1s, kubectl: get pods}
- {at: 1s, kubectl: get pods}
- {at: 1s, kubectl: get pods}
- {at: 1s, kubectl: get pods}
- {at: 1s, kubectl: get pods}
- {at: 1s, kubectl: get pods}
`
	tl := TimelineOf(at(t, src, 2))
	var m *ScrubMarker
	for i := range tl.Markers {
		if tl.Markers[i].T == 1 {
			m = &tl.Markers[i]
		}
	}
	require.NotNil(t, m)
	assert.Equal(t, "1s: kubectl get pods; kubectl get pods; kubectl get pods; kubectl get pods; and 2 more", m.Label)
}
