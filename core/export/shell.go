package export

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"converge/core/scenario"
)

// shQuote quotes s as one bash word that expands to nothing but s: as is
// when it holds only characters no shell treats specially, else in single
// quotes, where nothing expands, each single quote written as the four
// characters quote, backslash, quote, quote:
//
//	web            → web
//	app=web        → app=web
//	{"a": 1}       → '{"a": 1}'
//	it's           → 'it'\''s'
//
// A word that holds a control character, a Unicode format character (the
// bidi overrides among them) or bytes that are not UTF-8 is written in
// bash's ANSI-C quotes instead, each such byte as \xHH, so that the script
// holds no raw escape sequence (which `cat replay.sh` would run in the
// terminal) and reads as it runs, yet the word is the very bytes:
//
//	a<ESC>[2Jb     → $'a\x1b[2Jb'
func shQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool { return !isPlainShellRune(r) }) < 0 {
		return s
	}
	if hasHidden(s) {
		return ansiQuote(s)
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// hidden reports whether r is not shown as itself: a control character, a
// format character (bidi overrides, zero-width ones), a separator other
// than the space, or the mark of bytes that are not UTF-8. Tab and newline
// are shown as themselves.
func hidden(r rune) bool {
	if r == '\t' || r == '\n' {
		return false
	}
	return r == utf8.RuneError || !unicode.IsPrint(r) && r != ' '
}

func hasHidden(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if hidden(r) {
			return true
		}
		i += size
	}
	return false
}

// ansiQuote is s in bash's $'...' quotes: a hidden character's bytes as
// \xHH, a backslash and a quote escaped, the rest as it is.
func ansiQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' || r == '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case hidden(r):
			for _, c := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	b.WriteString("'")
	return b.String()
}

// visible is s with each hidden character written as \xHH per byte, for the
// script's comments, where it means nothing to bash but could to a terminal.
func visible(s string) string {
	if !hasHidden(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if hidden(r) && r != '\n' {
			for _, c := range []byte(s[i : i+size]) {
				fmt.Fprintf(&b, `\x%02x`, c)
			}
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isPlainShellRune reports whether r needs no quoting anywhere in a word.
func isPlainShellRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("_@%+=:,./-", r)
}

// dqEscape escapes s for the inside of a double-quoted bash word: $, `,
// \, " and ! (history expansion in an interactive shell) get a backslash.
func dqEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("$`\\\"!", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// heredocDelimiter is a here-document delimiter that no line of body
// equals: CONVERGE_EOF, or CONVERGE_EOF_2, _3... when the body holds it.
func heredocDelimiter(body string) string {
	lines := strings.Split(body, "\n")
	for n := 1; ; n++ {
		d := "CONVERGE_EOF"
		if n > 1 {
			d += "_" + strconv.Itoa(n)
		}
		clash := false
		for _, l := range lines {
			if l == d {
				clash = true
				break
			}
		}
		if !clash {
			return d
		}
	}
}

// ErrNoJSONPath is the error of an expect path that kubectl's JSONPath
// cannot express.
var ErrNoJSONPath = errors.New("kubectl's JSONPath cannot express this path")

// JSONPath renders an expect's path as the template of kubectl get -o
// jsonpath=TEMPLATE (k8s.io/client-go/util/jsonpath):
//
//	.status.availableReplicas                         → {.status.availableReplicas}
//	.metadata.annotations["deployment.kubernetes.io/revision"]
//	                                                  → {.metadata.annotations.deployment\.kubernetes\.io/revision}
//	.status.conditions[?(@.type=="Available")].status → {.status.conditions[?(@.type=="Available")].status}
//	.spec.template.spec.containers[0].image           → {.spec.template.spec.containers[0].image}
//
// A key is written after a dot with a backslash before each character that
// ends a field in kubectl's parser (. , [ ] $ @ { } and blanks); the parser
// drops every backslash, so a key holding one, or a line break, cannot be
// written (ErrNoJSONPath), nor can a filter on null.
func JSONPath(p scenario.Path) (string, error) {
	var b strings.Builder
	b.WriteString("{")
	for _, s := range p {
		switch s.Kind {
		case scenario.SegField:
			if s.Key == "" || strings.ContainsAny(s.Key, "\\\n\r") {
				return "", fmt.Errorf("%w: the key %q", ErrNoJSONPath, s.Key)
			}
			b.WriteString(".")
			for _, r := range s.Key {
				if strings.ContainsRune(".,[]$@{} \t", r) {
					b.WriteByte('\\')
				}
				b.WriteRune(r)
			}
		case scenario.SegIndex:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case scenario.SegFilter:
			lit, err := filterLiteral(s.Value)
			if err != nil {
				return "", err
			}
			b.WriteString("[?(@." + s.Key + "==" + lit + ")]")
		}
	}
	b.WriteString("}")
	return b.String(), nil
}

// filterLiteral is a filter's value as kubectl's JSONPath reads it: a
// double-quoted string (Go escapes, which its UnquoteExtend reads), a
// number or a bool.
func filterLiteral(v any) (string, error) {
	switch x := v.(type) {
	case string:
		if strings.HasSuffix(x, `\`) || strings.ContainsAny(x, "\n\r") {
			// The parser takes a quote after a backslash for an escaped one.
			return "", fmt.Errorf("%w: the filter value %q", ErrNoJSONPath, x)
		}
		return strconv.Quote(x), nil
	case bool:
		return strconv.FormatBool(x), nil
	case nil:
		return "", fmt.Errorf("%w: a filter on null", ErrNoJSONPath)
	}
	return fmt.Sprint(v), nil
}
