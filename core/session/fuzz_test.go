package session

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
)

// FuzzDecide: no address panics; something always opens when the library
// has a valid default, at a time within the scenario; an error is a
// sentence; an address that carries a share either opens it or says why
// not, and says what ShareOfLink says of it.
func FuzzDecide(f *testing.F) {
	for _, seed := range []string{
		"http://h/", "/?scenario=alpha&t=30&embed=1", "/#s=@@@", "/#s=", "/?t=-1", "/?t=1h",
		"/?scenario=beta#s=80&t=2", "%zz", "/?embed&scenario=%00", "/#s=" + deflateSeed(alphaYAML),
		"/#s=AAAA%zz", "/?s=%2" + "#t=3", "/#t=%zz&s=" + deflateSeed(betaYAML),
	} {
		f.Add(seed)
	}
	lib := testLibrary()
	lib.List()
	f.Fuzz(func(t *testing.T, href string) {
		o := DecideAddress(ParseAddress(href), lib)
		require.NotNil(t, o.Sim, "the default always opens: %s", o.Error)
		assert.GreaterOrEqual(t, o.T, int64(0))
		assert.LessOrEqual(t, o.T, int64(o.Sim.Duration()/time.Second))
		if o.Error != "" {
			assert.Regexp(t, `^[A-Zt].*\.$`, o.Error)
		}
		if a := ParseAddress(href); a.HasShare && o.Name != "" {
			require.NotEmpty(t, o.Error, "a share that did not open says why")
			if _, err := ShareOfLink(href); err != nil && strings.Contains(href, "#") {
				assert.Contains(t, o.Error, err.Error(), "the page and unshare say the same")
			}
		}
	})
}

func deflateSeed(yaml string) string {
	s, err := scenario.EncodeShare([]byte(yaml))
	if err != nil {
		panic(err)
	}
	return s
}
