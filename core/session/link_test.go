package session

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
)

func TestLinkURL(t *testing.T) {
	t.Parallel()
	yaml := []byte("name: mine\nduration: 90s\n")
	share, err := scenario.EncodeShare(yaml)
	require.NoError(t, err)
	tests := []struct {
		name string
		link Link
		base string
		want string
	}{
		{"a built-in at the start", Link{Builtin: "rolling-update", YAML: yaml}, "https://x.example/c/", "https://x.example/c/?scenario=rolling-update"},
		{"a built-in at 30s", Link{Builtin: "rolling-update", YAML: yaml, T: 30}, "https://x.example/c/", "https://x.example/c/?scenario=rolling-update&t=30"},
		{"own at 41s", Link{YAML: yaml, T: 41}, "https://x.example/c/", "https://x.example/c/#s=" + share + "&t=41"},
		{"own at the start, the page's own address", Link{YAML: yaml}, "/", "/#s=" + share},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := tc.link.URL(tc.base)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// The link's fragment carries the scenario and t exactly (the page reads
// it with ParseAddress; TestLinksOpenAtTheirSecond tests that it opens at t).
func TestShareOfRoundTrips(t *testing.T) {
	t.Parallel()
	yaml := []byte(strings.Repeat("# padding\n", 100) + "name: mine\n")
	sh := ShareOf("http://127.0.0.1:8080/", Link{YAML: yaml, T: 75})
	require.False(t, sh.TooLarge)
	u, err := url.Parse(sh.URL)
	require.NoError(t, err)
	q, err := url.ParseQuery(u.Fragment)
	require.NoError(t, err)
	assert.Equal(t, "75", q.Get("t"))
	got, err := scenario.DecodeShare(q.Get("s"))
	require.NoError(t, err)
	assert.Equal(t, string(yaml), string(got))
}

func TestShareOfTooLarge(t *testing.T) {
	t.Parallel()
	yaml := []byte("name: big\n" + strings.Repeat("#", scenario.MaxShareSize))
	sh := ShareOf("/", Link{YAML: yaml, T: 5})
	assert.Equal(t, Share{TooLarge: true, Size: len(yaml)}, sh)
	_, err := Link{YAML: yaml}.URL("/")
	assert.ErrorIs(t, err, ErrTooLargeForLink)
	at := ShareOf("/", Link{YAML: yaml[:scenario.MaxShareSize]})
	assert.False(t, at.TooLarge, "64 KiB exactly still fits")
	builtin := ShareOf("/", Link{Builtin: "big", YAML: yaml})
	assert.False(t, builtin.TooLarge, "a built-in's link carries only its name")
}

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
				IFrame:  `<iframe src="https://h.example/a/?embed=1#s=` + share + `&amp;t=12" title="Converge simulation" width="100%" height="640" style="border:0;max-width:100%" loading="lazy"></iframe>`,
				Link:    "https://h.example/a/?embed=1#s=" + share + "&t=12",
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
