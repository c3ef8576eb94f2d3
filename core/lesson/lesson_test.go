package lesson

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const small = `
- title: One
  summary: first
  scenarios: [a, b]
- title: Two
  summary: second
  scenarios: [c]
`

func TestParseAndNumber(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(small))
	require.NoError(t, err)
	assert.Equal(t, []Step{{1, 1, "a"}, {1, 2, "b"}, {2, 1, "c"}}, p.Steps())
	s, ok := p.Find("c")
	require.True(t, ok)
	assert.Equal(t, "2.1", s.Number())
	_, ok = p.Find("z")
	assert.False(t, ok)
	assert.Equal(t, "a", p.Lessons[0].Scenarios[0])
	assert.Equal(t, "c", p.Next("b"))
	assert.Equal(t, "", p.Next("c"))
}

func TestParseRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, msg string }{
		{"empty", "[]", "no lessons"},
		{"no title", "- {summary: x, scenarios: [a]}", "lesson 1 has no title"},
		{"no scenarios", "- {title: x}", "has no scenarios"},
		{"twice", "- {title: x, scenarios: [a]}\n- {title: y, scenarios: [b, a]}", "a is in lesson 1 and lesson 2"},
		{"unknown key", "- {title: x, scenarios: [a], level: 1}", "level"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tc.in))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestProgress(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(small))
	require.NoError(t, err)
	pr := ParseProgress("")
	pr = p.Mark(pr, "b")
	pr = p.Mark(pr, "a")
	pr = p.Mark(pr, "gone")
	assert.Equal(t, []string{"a", "b"}, pr.Done, "in the path's order, names off the path dropped")
	done, total := p.Count(pr, 1)
	assert.Equal(t, [2]int{2, 2}, [2]int{done, total})
	back := ParseProgress(pr.String())
	assert.Equal(t, pr, back)
	assert.Equal(t, []string{"a", "b", "c"}, p.Mark(back, "c").Done, "every scenario done")
	for _, bad := range []string{"{", `{"done": 3}`, strings.Repeat(" ", MaxProgressSize+1)} {
		assert.Equal(t, Progress{}, ParseProgress(bad), bad)
	}
}

func TestGroups(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(small))
	require.NoError(t, err)
	assert.Equal(t, []Group{
		{Number: 1, Title: "One", Summary: "first", Names: []string{"a", "b"}, Numbers: []string{"1.1", "1.2"}},
		{Names: []string{"z"}, Numbers: []string{""}},
	}, p.Groups([]string{"z", "b", "a"}), "lesson two has none of the names; z is on no lesson")
}
