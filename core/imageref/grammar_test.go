package imageref

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/internal/matchtest"
)

// The regular expressions of github.com/distribution/reference regexp.go
// (v0.6.0), which grammar.go writes out as functions.
const (
	alphanumeric        = `[a-z0-9]+`
	separator           = `(?:[._]|__|[-]+)`
	domainNameComponent = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
	optionalPort        = `(?::[0-9]+)?`
	tagPat              = `[\w][\w.-]{0,127}`
	digestPat           = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
	identifier          = `([a-f0-9]{64})`
	ipv6address         = `\[(?:[a-fA-F0-9:]+)\]`
	domainName          = domainNameComponent + `(?:\.` + domainNameComponent + `)*`
	host                = `(?:` + domainName + `|` + ipv6address + `)`
	domainAndPort       = host + optionalPort
	pathComponent       = alphanumeric + `(?:` + separator + alphanumeric + `)*`
	remoteName          = pathComponent + `(?:/` + pathComponent + `)*`
	namePat             = `(?:` + domainAndPort + `/)?` + remoteName
	referencePat        = `^(` + namePat + `)(?::(` + tagPat + `))?(?:@(` + digestPat + `))?$`
	anchoredNamePat     = `^(?:(` + domainAndPort + `)/)?(` + remoteName + `)$`
	// go-digest's DigestRegexpAnchored.
	anchoredDigestPat = `^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[a-zA-Z0-9=_-]+$`
)

var (
	referenceRegexp    = regexp.MustCompile(referencePat)
	anchoredNameRegexp = regexp.MustCompile(anchoredNamePat)
)

// regexpSplit is splitReference and splitName as upstream's Parse does them,
// with the expressions.
func regexpSplit(s string) (domain, path, tag, digest string, ok bool) {
	m := referenceRegexp.FindStringSubmatch(s)
	if m == nil {
		return "", "", "", "", false
	}
	if nm := anchoredNameRegexp.FindStringSubmatch(m[1]); len(nm) == 3 {
		return nm[1], nm[2], m[2], m[3], true
	}
	return "", m[1], m[2], m[3], true
}

func anchored(expr string) string { return "^(?:" + expr + ")$" }

// Each matcher agrees with its expression on every short string over the
// bytes the expression cares about, and on longer cases of note.
func TestGrammarMatchesTheExpressions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		expr     string
		match    func(string) bool
		alphabet string
		maxLen   int
		extra    []string
	}{
		{"pathComponent", anchored(pathComponent), isPathComponent, "a0._-A", 6, []string{"a__b", "a___b", "a--b", "a-_b", "a.b.c"}},
		{"remoteName", anchored(remoteName), isRemoteName, "a._-/", 6, []string{"library/nginx", "a//b", "/a", "a/"}},
		{"domainName", anchored(domainName), isDomainName, "aZ0-.:", 5, []string{"sub-dom1.foo.com", "xn--n3h.com", "a-.b"}},
		{"domainAndPort", anchored(domainAndPort), isDomainAndPort, "a0-.:[]f", 6, []string{"[2001:db8::1]:5000", "[::1]", "[]", "[::1]:", "localhost:5000", "a:5000:1", "[::1]]"}},
		{"tag", anchored(tagPat), isTag, "aZ_0.-:", 4, []string{strings.Repeat("a", 128), strings.Repeat("a", 129), ".a", "-a"}},
		{"digest", anchored(digestPat), isDigestPat, "aZ0-+:f.", 4, []string{"sha256:" + ff64, "a-b+c:" + ff64[:32], "a:" + ff64[:31], "1a:" + ff64, "a--b:" + ff64, "A.B:" + strings.ToUpper(ff64)}},
		{"identifier", anchored(identifier), isIdentifier, "af0g", 3, []string{ff64, ff64[:63], ff64 + "f", strings.ToUpper(ff64)}},
		{"anchoredDigest", anchoredDigestPat, isAnchoredDigest, "a0.+_:=-Z", 4, []string{"sha256:abc", "a.b+c_d-e:x=y", "a..b:x", ".a:x", "a:"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			matchtest.Exhaustive(t, tc.expr, tc.match, tc.alphabet, tc.maxLen, tc.extra...)
		})
	}
}

// splitReference and splitName split every short reference as the
// expressions do.
func TestSplitMatchesTheExpressions(t *testing.T) {
	t.Parallel()
	const alphabet = "a0:/@.-[]"
	buf := make([]byte, 0, 6)
	var walk func()
	walk = func() {
		sameSplit(t, string(buf))
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
	for _, s := range []string{"test:5000/repo:tag@sha256:" + ff64, "[2001:db8::1]:5000/repo:tag", "foo/foo_bar.com:8080",
		"a:b@c:" + ff64, "a@b@sha256:" + ff64, "localhost:5000/a/b:c", "Upper/case", "a:5000/b:c:d"} {
		sameSplit(t, s)
	}
}

func sameSplit(t *testing.T, s string) {
	t.Helper()
	wantDomain, wantPath, wantTag, wantDigest, wantOK := regexpSplit(s)
	name, tag, digest, ok := splitReference(s)
	require.Equal(t, wantOK, ok, "%q: matches", s)
	if !ok {
		return
	}
	domain, path, nameOK := splitName(name)
	require.True(t, nameOK, "%q: the name %q splits", s, name)
	require.Equal(t, []string{wantDomain, wantPath, wantTag, wantDigest}, []string{domain, path, tag, digest}, "%q", s)
}

// FuzzSplit: the hand-written grammar and the expressions agree on any
// input.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{"nginx:1.25", "localhost:5000/a/b:c@sha256:" + ff64, "[::1]:5000/r", "a:b:c", "a__b/c--d.e", "sha256:" + ff64} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sameSplit(t, s)
		assert.Equal(t, regexp.MustCompile(anchored(identifier)).MatchString(s), isIdentifier(s), "%q: identifier", s)
		assert.Equal(t, regexp.MustCompile(anchoredDigestPat).MatchString(s), isAnchoredDigest(s), "%q: anchored digest", s)
	})
}
