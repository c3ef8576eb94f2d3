package view

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
)

func TestEmbedOf(t *testing.T) {
	t.Parallel()
	yaml := []byte("name: mine\n")
	share, err := scenario.EncodeShare(yaml)
	require.NoError(t, err)
	tests := []struct {
		name string
		page string
		link Link
		want Embed
	}{
		{
			name: "a built-in scenario at a second", page: "https://docs.example/converge/?scenario=basic-loop&t=30#x",
			link: Link{Builtin: "basic-loop", YAML: yaml, T: 30},
			want: Embed{
				Script:  `<script type="module" src="https://docs.example/converge/converge.js"></script>`,
				Element: `<converge-sim scenario="basic-loop" t="30"></converge-sim>`,
				IFrame:  `<iframe src="https://docs.example/converge/?scenario=basic-loop&amp;embed=1&amp;t=30" title="Converge simulation" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`,
				Link:    "https://docs.example/converge/?scenario=basic-loop&embed=1&t=30",
			},
		},
		{
			name: "at 0s there is no t", page: "http://127.0.0.1:8080/", link: Link{Builtin: "rolling-update"},
			want: Embed{
				Script:  `<script type="module" src="http://127.0.0.1:8080/converge.js"></script>`,
				Element: `<converge-sim scenario="rolling-update"></converge-sim>`,
				IFrame:  `<iframe src="http://127.0.0.1:8080/?scenario=rolling-update&amp;embed=1" title="Converge simulation" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`,
				Link:    "http://127.0.0.1:8080/?scenario=rolling-update&embed=1",
			},
		},
		{
			name: "the user's own scenario travels as a share, from a page with a file name", page: "https://h.example/a/index.html#s=old",
			link: Link{YAML: yaml, T: 12},
			want: Embed{
				Script:  `<script type="module" src="https://h.example/a/converge.js"></script>`,
				Element: `<converge-sim share="` + share + `" t="12"></converge-sim>`,
				IFrame:  `<iframe src="https://h.example/a/?embed=1&amp;t=12#s=` + share + `" title="Converge simulation" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`,
				Link:    "https://h.example/a/?embed=1&t=12#s=" + share,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := EmbedOf(tc.page, tc.link)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("a scenario too large for a share", func(t *testing.T) {
		t.Parallel()
		_, err := EmbedOf("http://h/", Link{YAML: []byte(strings.Repeat("x", 70<<10))})
		assert.ErrorIs(t, err, ErrTooLargeForLink)
	})
	t.Run("a name is escaped", func(t *testing.T) {
		t.Parallel()
		got, err := EmbedOf("http://h/", Link{Builtin: `a"b&c`})
		require.NoError(t, err)
		assert.Equal(t, `<converge-sim scenario="a&#34;b&amp;c"></converge-sim>`, got.Element)
		assert.Equal(t, "http://h/?scenario=a%22b%26c&embed=1", got.Link)
	})
}

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
