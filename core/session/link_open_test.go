package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The links the page makes (Link: the Share button's and the page's
// own address) open what they were made from, at their second, when the
// page reads them.
func TestLinksOpenAtTheirSecond(t *testing.T) {
	t.Parallel()
	own := alphaYAML + "steps:\n- at: 31s\n  kubectl: scale deployment/web --replicas=3\n"
	tests := []struct {
		name     string
		link     Link
		wantName string
		wantT    int64
	}{
		{"a built-in at 30s", Link{Builtin: "beta", T: 30}, "beta", 30},
		{"a scenario of one's own at 41s", Link{YAML: []byte(own), T: 41}, "", 41},
		{"at the start", Link{YAML: []byte(own)}, "", 0},
		{"past the end opens at the end", Link{Builtin: "beta", T: 500}, "beta", 30},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for _, base := range []string{"http://127.0.0.1:8080/", "/docs/converge/"} {
				u, err := tc.link.URL(base)
				require.NoError(t, err)
				o := DecideAddress(ParseAddress(u), testLibrary()) // a Library reads its files once, unguarded: one per test
				require.Empty(t, o.Error, u)
				assert.Equal(t, tc.wantName, o.Name)
				assert.Equal(t, tc.wantT, o.T, u)
				if tc.link.Builtin == "" {
					assert.Equal(t, own, string(o.Source))
				}
			}
		})
	}
}
