package export

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/kubectl"
	"converge/core/scenario"
)

// shQuote's words reach a command as the very string: bash prints each
// back unchanged.
func TestShQuoteRoundTripsThroughBash(t *testing.T) {
	t.Parallel()
	words := []string{
		"web", "app=web", "deployment/web", "--replicas=5", "", " ", "it's", `"quoted"`, "$HOME", "`id`", "$(id)",
		`back\slash`, "a\tb", "new\nline", "!event", "*", "?", "[a]", "~", "#not-a-comment", "x;y", "a|b", "a&b", "{a,b}",
		`{"spec":{"paused":true}}`, "ünïcødé", "'", "''",
		"a\x1b[2Jb", "cr\r\nlf", "bell\a", "rlo\u202egnp.exe", "zero\u200bwidth", "c1\u009b31m", "del\x7f", "not utf-8 \xff\xfe",
		"both ' and \\ and \x1b",
	}
	var script strings.Builder
	for _, w := range words {
		script.WriteString("printf '%s\\0' " + shQuote(w) + "\n")
	}
	out, err := exec.Command(bashPath(t), "-c", script.String()).Output()
	require.NoError(t, err)
	got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	assert.Equal(t, words, got)
}

// A word with a control or format character is written in $'...' with the
// character as \xHH: the script holds no raw escape sequence, bidi override
// or carriage return, which a terminal or an editor would act on.
func TestShQuoteShowsHiddenCharacters(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"a\x1b[2Jb", `$'a\x1b[2Jb'`},
		{"cr\r\n", `$'cr\x0d\n'`},
		{"rlo\u202eexe", `$'rlo\xe2\x80\xaeexe'`},
		{"it's \a", `$'it\'s \x07'`},
		{"tab\tonly", "'tab\tonly'"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			got := shQuote(tc.in)
			assert.Equal(t, tc.want, got)
			assert.False(t, hasHidden(got), "the quoted word shows every character")
		})
	}
}

func TestShQuoteLeavesPlainWordsBare(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"web", "web"},
		{"deployment/web", "deployment/web"},
		{"--replicas=5", "--replicas=5"},
		{"app=web,tier=fe", "app=web,tier=fe"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, shQuote(tc.in))
		})
	}
}

// The paths of expects as kubectl's JSONPath (k8s.io/client-go
// util/jsonpath parser.go: parseField reads a field up to an unescaped
// terminator and drops every backslash; parseFilter reads
// [?(@.key==literal)]). The rows follow the kinds of parser_test.go's
// TestParser cases they rely on: "field", "quote" (a filter's string),
// "array" (an index), "filter".
func TestJSONPathOfExpectPaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, expect, want string
	}{
		{"field", `deployment/web .status.availableReplicas == 3`, `{.status.availableReplicas}`},
		{"key with dots and a slash", `deployment/web .metadata.annotations["deployment.kubernetes.io/revision"] == "2"`,
			`{.metadata.annotations.deployment\.kubernetes\.io/revision}`},
		{"filter on a string", `deployment/web .status.conditions[?(@.type=="Available")].status == "True"`,
			`{.status.conditions[?(@.type=="Available")].status}`},
		{"filter on a number", `service/web .spec.ports[?(@.port==80)].targetPort == 8080`, `{.spec.ports[?(@.port==80)].targetPort}`},
		{"index", `deployment/web .spec.template.spec.containers[0].image == nginx`, `{.spec.template.spec.containers[0].image}`},
		{"key with terminators", `configmap/c .data["a b,c[d]{e}$f@g"] == x`, `{.data.a\ b\,c\[d\]\{e\}\$f\@g}`},
		{"filter string with a quote", `deployment/web .status.conditions[?(@.reason=="a\"b")].status == x`,
			`{.status.conditions[?(@.reason=="a\"b")].status}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := scenario.ParseExpect(tc.expect)
			require.NoError(t, err)
			got, err := JSONPath(e.Path)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestJSONPathRefusesWhatItCannotWrite(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, expect string }{
		{"a key with a backslash", `configmap/c .data["a\\b"] == x`},
		{"a key with a line break", `configmap/c .data["a\nb"] == x`},
		{"a filter on null", `deployment/web .status.conditions[?(@.reason==null)].status == x`},
		{"a filter string ending in a backslash", `deployment/web .status.conditions[?(@.reason=="a\\")].status == x`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := scenario.ParseExpect(tc.expect)
			require.NoError(t, err)
			_, err = JSONPath(e.Path)
			assert.ErrorIs(t, err, ErrNoJSONPath)
		})
	}
}

// shQuote's word reads back as the one word s, as a POSIX shell splits it
// (kubectl.Split, which the bash round trip above agrees with).
func FuzzShQuote(f *testing.F) {
	for _, s := range []string{"web", "", "it's", `a\b`, "$(id)", "a b", "'", "\t\n", "ünï"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := kubectl.Split(shQuote(s))
		if err != nil {
			t.Fatalf("Split(shQuote(%q)) = %v", s, err)
		}
		if len(words) != 1 || words[0] != s {
			t.Fatalf("Split(shQuote(%q)) = %q, want [%q]", s, words, s)
		}
	})
}
