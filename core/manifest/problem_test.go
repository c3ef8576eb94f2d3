package manifest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProblemString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		p    Problem
		want string
	}{
		{"error", Problem{File: "a.yaml", Line: 3, Col: 7, Message: "bad"}, "a.yaml:3:7: bad"},
		{"note", Problem{File: "a.yaml", Line: 3, Col: 7, Message: "dropped", Note: true}, "a.yaml:3:7: note: dropped"},
		{"no file", Problem{Line: 1, Col: 2, Message: "bad"}, "1:2: bad"},
		{"whole file", Problem{File: "a.yaml", Message: "cannot read"}, "a.yaml: cannot read"},
		{"nothing but a message", Problem{Message: "bad"}, "bad"},
		{"column 0 prints as 1", Problem{File: "a", Line: 2, Message: "m"}, "a:2:1: m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.p.String())
		})
	}
}

func TestProblemsSplitsErrorsAndNotes(t *testing.T) {
	t.Parallel()
	ps := Problems{
		{File: "f", Line: 9, Col: 1, Message: "late"},
		{File: "f", Line: 2, Col: 5, Message: "n", Note: true},
		{File: "f", Line: 2, Col: 1, Message: "early"},
	}
	assert.True(t, ps.HasErrors())
	assert.Len(t, ps.Errors(), 2)
	assert.Len(t, ps.Notes(), 1)
	ps.Sort()
	assert.Equal(t, "f:2:1: early\nf:2:5: note: n\nf:9:1: late", ps.Error())
	assert.EqualError(t, ps.Err(), "f:2:1: early\nf:9:1: late")

	notes := ps.Notes()
	assert.False(t, notes.HasErrors())
	assert.NoError(t, notes.Err())
	assert.Nil(t, Problems(nil).Err())
}

// flood is n problems, as one bad anchor aliased n-1 times gives.
func flood(n int) Problems {
	ps := make(Problems, n)
	for i := range ps {
		ps[i] = Problem{File: "f", Line: 16, Col: 18, Message: "cannot decode a mapping into args (a string)"}
	}
	return ps
}

// TestProblemsAreShownUpToALimit: the first MaxShown problems and a count
// of the rest, wherever problems are printed or returned.
func TestProblemsAreShownUpToALimit(t *testing.T) {
	t.Parallel()
	shown, more := flood(60_001).Head()
	assert.Len(t, shown, MaxShown)
	assert.Equal(t, 59_901, more)
	lines := strings.Split(flood(60_001).Error(), "\n")
	require.Len(t, lines, MaxShown+1)
	assert.Equal(t, "f:16:18: cannot decode a mapping into args (a string)", lines[0])
	assert.Equal(t, "... and 59,901 more problems", lines[MaxShown])

	shown, more = flood(100).Head()
	assert.Len(t, shown, 100)
	assert.Zero(t, more)
	assert.Len(t, strings.Split(flood(100).Error(), "\n"), 100, "no count line when nothing is left out")
	assert.Equal(t, "... and 1 more problem", MoreText(1))
}

func TestThousands(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {59_901, "59,901"}, {4_194_304, "4,194,304"}, {-1234, "-1,234"}} {
		assert.Equal(t, tc.want, Thousands(tc.n))
	}
}
