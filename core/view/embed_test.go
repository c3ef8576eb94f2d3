package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEmbedTexts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"at the start", EmbedIntro(0), "Show this scenario at the start on a page of any site: add the script tag once, then one element per demo. The simulator loads when a demo comes into view."},
		{"at a minute and a half", EmbedIntro(90), "Show this scenario at 1m30s on a page of any site: add the script tag once, then one element per demo. The simulator loads when a demo comes into view."},
		{"too large", EmbedTooLarge(70 << 10), "No snippet: this scenario is 70 KiB, and an embed carries at most 64 KiB. Shorten it (fewer objects or steps) to embed it, or use Download to pass it on as a file."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.got)
		})
	}
}
