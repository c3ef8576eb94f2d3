package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/lesson"
	"converge/scenarios"
)

// A first visit opens the first scenario of the learning path's first lesson.
func TestTheDefaultIsTheFirstLesson(t *testing.T) {
	t.Parallel()
	p, err := lesson.Parse(scenarios.Lessons)
	require.NoError(t, err)
	assert.Equal(t, p.Lessons[0].Scenarios[0], NewLibrary(scenarios.FS).Default())
}
