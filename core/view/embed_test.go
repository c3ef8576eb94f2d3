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
		name    string
		page    string
		builtin string
		t       int64
		want    Embed
	}{
		{
			name: "a built-in scenario at a second", page: "https://docs.example/converge/?scenario=basic-loop&t=30#x", builtin: "basic-loop", t: 30,
			want: Embed{
				Script:  `<script type="module" src="https://docs.example/converge/converge.js"></script>`,
				Element: `<converge-sim scenario="basic-loop" t="30"></converge-sim>`,
				IFrame:  `<iframe src="https://docs.example/converge/?scenario=basic-loop&amp;embed=1&amp;t=30" title="Converge simulation" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`,
				Link:    "https://docs.example/converge/?scenario=basic-loop&embed=1&t=30",
			},
		},
		{
			name: "at 0s there is no t", page: "http://127.0.0.1:8080/", builtin: "rolling-update",
			want: Embed{
				Script:  `<script type="module" src="http://127.0.0.1:8080/converge.js"></script>`,
				Element: `<converge-sim scenario="rolling-update"></converge-sim>`,
				IFrame:  `<iframe src="http://127.0.0.1:8080/?scenario=rolling-update&amp;embed=1" title="Converge simulation" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`,
				Link:    "http://127.0.0.1:8080/?scenario=rolling-update&embed=1",
			},
		},
		{
			name: "the user's own scenario travels as a share, from a page with a file name", page: "https://h.example/a/index.html#s=old", t: 12,
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
			got, err := EmbedOf(tc.page, tc.builtin, yaml, tc.t)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	t.Run("a scenario too large for a share", func(t *testing.T) {
		t.Parallel()
		_, err := EmbedOf("http://h/", "", []byte(strings.Repeat("x", 70<<10)), 0)
		assert.ErrorIs(t, err, scenario.ErrShareTooLarge)
	})
	t.Run("a name is escaped", func(t *testing.T) {
		t.Parallel()
		got, err := EmbedOf("http://h/", `a"b&c`, nil, 0)
		require.NoError(t, err)
		assert.Equal(t, `<converge-sim scenario="a&#34;b&amp;c"></converge-sim>`, got.Element)
		assert.Equal(t, "http://h/?scenario=a%22b%26c&embed=1", got.Link)
	})
}
