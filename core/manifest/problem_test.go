package manifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
