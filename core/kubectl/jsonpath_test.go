package kubectl

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// relaxedSpec finds the path kubectl's expression finds, on every short
// string over the bytes it cares about, and on cases of note.
func TestRelaxedSpecIsTheExpression(t *testing.T) {
	t.Parallel()
	const alphabet = "{}.a"
	buf := make([]byte, 0, 6)
	var walk func()
	walk = func() {
		sameRelaxedSpec(t, string(buf))
		if len(buf) == cap(buf) {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			buf = append(buf, alphabet[i])
			walk()
			buf = buf[:len(buf)-1]
		}
	}
	walk()
	for _, s := range []string{"{.status.replicas}", ".metadata.name", "{{.a}}", "{.}", ".", "{}", "{.items[0].metadata.name}"} {
		sameRelaxedSpec(t, s)
	}
}

func sameRelaxedSpec(t *testing.T, s string) {
	t.Helper()
	m := regexp.MustCompile(relaxedJSONPathExpr).FindStringSubmatch(s)
	spec, ok := relaxedSpec(s)
	require.Equal(t, m != nil, ok, "%q: matches", s)
	if m == nil {
		return
	}
	want := m[1]
	if want == "" {
		want = m[2]
	}
	require.Equal(t, want, spec, "%q", s)
}

func FuzzRelaxedSpec(f *testing.F) {
	for _, s := range []string{"{.a.b}", ".a", "a{", "{.}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameRelaxedSpec(t, s) })
}
