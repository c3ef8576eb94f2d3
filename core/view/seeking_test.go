package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSeekingOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		from, t, target int64
		want            Seeking
	}{
		{"from the start", 0, 12_345, 86_400, Seeking{Text: "Computing up to 24h: 12,345 of 86,400 seconds", Value: 12_345, Max: 86_400}},
		{"from a checkpoint", 600, 600, 4_000, Seeking{Text: "Computing up to 1h6m: 0 of 3,400 seconds", Value: 0, Max: 3_400}},
		{"done", 10, 90, 90, Seeking{Text: "Computing up to 1m30s: 80 of 80 seconds", Value: 80, Max: 80}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, SeekingOf(tc.from, tc.t, tc.target))
		})
	}
}
