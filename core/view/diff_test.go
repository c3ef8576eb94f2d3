package view

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLineDiff(t *testing.T) {
	t.Parallel()
	render := func(ls []DiffLine) string {
		var b strings.Builder
		for i, l := range ls {
			assert.Equal(t, itoa(i), l.Key)
			b.WriteString(string(l.Op) + l.Text + "\n")
		}
		return b.String()
	}
	tests := []struct{ name, a, b, want string }{
		{"equal", "x\ny\n", "x\ny\n", " x\n y\n"},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", " a\n-b\n+B\n c\n"},
		{"added at the end", "a\n", "a\nb\n", " a\n+b\n"},
		{"removed at the start", "a\nb\n", "b\n", "-a\n b\n"},
		{"from nothing", "", "a\n", "+a\n"},
		{"to nothing", "a\n", "", "-a\n"},
		{"both empty", "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, render(LineDiff(tc.a, tc.b)))
		})
	}
	big := strings.Repeat("x\n", 1100)
	ls := LineDiff(big, big+"y\n")
	assert.Len(t, ls, 2201, "past the bound: all removed, all added")
	assert.Equal(t, byte('-'), ls[0].Op)
}
