package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
)

func TestParseAddress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		href string
		want Address
	}{
		{name: "the bare page", href: "http://h/", want: Address{}},
		{name: "a share in the fragment", href: "http://h/#s=abc", want: Address{Share: "abc", HasShare: true}},
		{name: "an empty share is still a share", href: "http://h/#s=", want: Address{HasShare: true}},
		{name: "a built-in with t and embed", href: "http://h/?scenario=alpha&t=30&embed=1",
			want: Address{Scenario: "alpha", T: "30", Embed: true}},
		{name: "embed without a value", href: "/?embed", want: Address{Embed: true}},
		{name: "embed=0 is off", href: "/?embed=0", want: Address{}},
		{name: "compare", href: "/?scenario=a&compare=1", want: Address{Scenario: "a", Compare: true}},
		{name: "compare without a value, in the fragment", href: "/#s=x&compare", want: Address{Share: "x", HasShare: true, Compare: true}},
		{name: "compare=0 is off", href: "/?compare=0", want: Address{}},
		{name: "the fragment wins over the query", href: "/?t=5&scenario=a#s=x&t=9",
			want: Address{Share: "x", HasShare: true, Scenario: "a", T: "9"}},
		{name: "a bad escape in the path does not matter", href: "http://h/%zz?scenario=a", want: Address{Scenario: "a"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, ParseAddress(tc.href))
		})
	}
}

// TestShareOfLink: the one reading of a share link, which the page
// (DecideAddress) and `converge unshare` share: each error says why.
func TestShareOfLink(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, link, want, wantErr string
	}{
		{name: "a page address", link: "http://x/#s=abc", want: "abc"},
		{name: "the fragment among others", link: "http://x/?scenario=a#t=3&s=q", want: "q"},
		{name: "in the query, as the page reads it", link: "http://x/?s=abc", want: "abc"},
		{name: "a fragment alone", link: "#s=abc", want: "abc"},
		{name: "a fragment without its #", link: "s=abc", want: "abc"},
		{name: "a payload alone", link: "abc", want: "abc"},
		{name: "an escaped payload", link: "http://x/#s=ab%2Dc", want: "ab-c"},
		{name: "a bad % escape", link: "http://x/#s=AAAA%zz", wantErr: `share link is corrupt: its s= value has an invalid % escape "%zz"`},
		{name: "a bad % escape in a fragment alone", link: "s=AAAA%zz", wantErr: `share link is corrupt: its s= value has an invalid % escape "%zz"`},
		{name: "no s= at all", link: "http://x/#t=3", wantErr: "the link has no s= (a share link is PAGE#s=SHARE)"},
		{name: "a page without a fragment", link: "http://x/", wantErr: "the link has no s= (a share link is PAGE#s=SHARE)"},
		{name: "a fragment that is not s=", link: "http://x/#abc", wantErr: "the link has no s= (a share link is PAGE#s=SHARE)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ShareOfLink(tc.link)
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestAddressURL: the one writing of the page's address, which the page
// (its own address, Share, Embed) and `converge share` use, and which
// ParseAddress reads back as written.
func TestAddressURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		addr Address
		base string
		want string
	}{
		{"the bare page", Address{}, "/", "/"},
		{"a built-in", Address{Scenario: "rolling-update"}, "https://x.example/c/", "https://x.example/c/?scenario=rolling-update"},
		{"a built-in at 30s", Address{Scenario: "rolling-update", T: "30"}, "/", "/?scenario=rolling-update&t=30"},
		{"at 0s there is no t", Address{Scenario: "a", T: "0"}, "/", "/?scenario=a"},
		{"a name is escaped", Address{Scenario: `a"b&c`}, "/", "/?scenario=a%22b%26c"},
		{"a share at 41s", Address{Share: "abc", HasShare: true, T: "41"}, "/", "/#s=abc&t=41"},
		{"a share wins over a name", Address{Share: "abc", HasShare: true, Scenario: "a"}, "/", "/#s=abc"},
		{"embedded and compared", Address{Scenario: "a", Embed: true, Compare: true, T: "12"}, "/", "/?scenario=a&embed=1&compare=1&t=12"},
		{"an embedded share", Address{Share: "abc", HasShare: true, Embed: true, T: "12"}, "/p/", "/p/?embed=1#s=abc&t=12"},
		{"a base with a query of its own", Address{Scenario: "a"}, "https://x/?lang=en", "https://x/?lang=en&scenario=a"},
		{"a duration as written", Address{Scenario: "a", T: "1m30s"}, "/", "/?scenario=a&t=1m30s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.addr.URL(tc.base)
			assert.Equal(t, tc.want, got)
			back := ParseAddress(got)
			want := tc.addr
			if want.HasShare {
				want.Scenario = "" // not written: the share wins
			}
			if want.T == "0" {
				want.T = ""
			}
			assert.Equal(t, want, back, "read back as written")
		})
	}
}

func TestShareLink(t *testing.T) {
	t.Parallel()
	yaml := []byte("name: mine\n")
	share, err := scenario.EncodeShare(yaml)
	require.NoError(t, err)
	for _, base := range []string{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/#old"} {
		got, err := ShareLink(base, yaml)
		require.NoError(t, err)
		assert.Equal(t, "http://127.0.0.1:8080/#s="+share, got, base)
		payload, err := ShareOfLink(got)
		require.NoError(t, err)
		assert.Equal(t, share, payload)
	}
	_, err = ShareLink("http://h/", make([]byte, scenario.MaxShareSize+1))
	assert.ErrorIs(t, err, ErrTooLargeForLink)
}
