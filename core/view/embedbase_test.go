package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLocalAddress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, url string
		want      bool
	}{
		{"loopback v4", "http://127.0.0.1:8080/", true},
		{"loopback elsewhere in 127/8", "http://127.8.0.2/", true},
		{"localhost", "http://localhost:8080/converge/", true},
		{"localhost with a dot", "http://LOCALHOST.:8080/", true},
		{"a name under .localhost", "http://docs.localhost/", true},
		{"mDNS", "http://laptop.local:1313/", true},
		{"private 10/8", "http://10.1.2.3/", true},
		{"private 172.16/12", "http://172.20.0.5:8080/", true},
		{"private 192.168/16", "https://192.168.1.10/", true},
		{"loopback v6", "http://[::1]:8080/", true},
		{"unique local v6", "http://[fd00::5]/", true},
		{"link-local", "http://169.254.10.1/", true},
		{"v4-mapped loopback", "http://[::ffff:127.0.0.1]/", true},
		{"unspecified", "http://0.0.0.0:8080/", true},
		{"a file", "file:///home/me/site/index.html", true},
		{"not a URL", "http://[::1", true},
		{"a public name", "https://docs.example.org/converge/", false},
		{"a public IP", "http://203.0.113.7/", false},
		{"172.32 is public", "http://172.32.0.1/", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, LocalAddress(tc.url))
		})
	}
}

func TestParsePublicURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want, wantErr string
	}{
		{name: "a folder", in: "https://docs.example.org/converge/", want: "https://docs.example.org/converge/"},
		{name: "a slash added", in: "https://docs.example.org/converge", want: "https://docs.example.org/converge/"},
		{name: "a host alone", in: "http://example.org", want: "http://example.org/"},
		{name: "blanks", in: "  https://example.org/x/ ", want: "https://example.org/x/"},
		{name: "no scheme", in: "example.org/converge", wantErr: `"example.org/converge": want an http:// or https:// address`},
		{name: "ftp", in: "ftp://example.org/", wantErr: "want an http:// or https:// address"},
		{name: "no host", in: "https:///converge/", wantErr: "has no host"},
		{name: "a query", in: "https://example.org/?a=1", wantErr: "without a query"},
		{name: "a fragment", in: "https://example.org/#x", wantErr: "without a query, a fragment"},
		{name: "not a URL", in: "https://exa mple.org/", wantErr: "is not a URL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParsePublicURL(tc.in)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestEmbedAddress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, page, public string
		want               string
		local              bool
	}{
		{name: "loopback, no public URL", page: "http://127.0.0.1:8080/", want: "http://127.0.0.1:8080/", local: true},
		{name: "loopback with a public URL", page: "http://127.0.0.1:8080/", public: "https://docs.example.org/sim",
			want: "https://docs.example.org/sim/"},
		{name: "a public page", page: "https://sim.example.org/", want: "https://sim.example.org/"},
		{name: "a public URL that is private", page: "http://127.0.0.1:8080/", public: "http://192.168.1.5/",
			want: "http://192.168.1.5/", local: true},
		{name: "a bad public URL is ignored", page: "http://127.0.0.1:8080/", public: "nonsense",
			want: "http://127.0.0.1:8080/", local: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, local := EmbedAddress(tc.page, tc.public)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.local, local)
		})
	}
}

func TestEmbedLocalNote(t *testing.T) {
	t.Parallel()
	note := EmbedLocalNote("http://127.0.0.1:8080/index.html")
	assert.Contains(t, note, "These snippets point at http://127.0.0.1:8080, which only this machine reaches")
	assert.Contains(t, note, "--base-url URL")
	assert.Contains(t, note, "--public-url URL")
	assert.Contains(t, note, "relative path")
}
