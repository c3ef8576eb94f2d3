package manifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSuggest(t *testing.T) {
	t.Parallel()
	fields := []string{"replicas", "selector", "template", "strategy", "minReadySeconds", "paused"}
	tests := []struct{ in, want string }{
		{"replicass", "replicas"},
		{"replica", "replicas"},
		{"relpicas", "replicas"},
		{"selectr", "selector"},
		{"minreadyseconds", "minReadySeconds"},
		{"pasued", "paused"},
		{"replicas", ""},
		{"colour", ""},
		{"rep", ""},
		{"", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Suggest(tc.in, fields))
		})
	}
	assert.Equal(t, "pod", Suggest("pd", []string{"pod", "po"}), "ties go to the earliest")
	assert.Equal(t, "", Suggest("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", []string{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"}))
}
