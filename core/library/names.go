package library

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxNameLength bounds a saved scenario's name, in characters.
const MaxNameLength = 64

// forbiddenInNames are the characters a name may not hold: path
// separators, and what a downloaded file's name may not hold on common
// systems.
const forbiddenInNames = `/\:*?"<>|`

// CheckName reports whether name may name a saved scenario: 1 to 64
// characters of valid UTF-8, no control characters, no invisible or
// direction-changing ones (invisible), none of / \ : * ? " <
// > |, no blank at either end and no dot at the start (so no "." or "..",
// and nothing that reads as a path). Its errors wrap ErrInvalidName and say
// what is wrong:
//
//	"rollout test"   ok
//	"../etc/passwd"  invalid name "../etc/passwd": a name may not contain "/"
//	".hidden"        invalid name ".hidden": a name may not start with "."
func CheckName(name string) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %q: %s", ErrInvalidName, name, fmt.Sprintf(format, args...))
	}
	switch {
	case name == "":
		return fmt.Errorf("%w: a name may not be empty", ErrInvalidName)
	case !utf8.ValidString(name):
		return bad("a name must be valid UTF-8")
	case utf8.RuneCountInString(name) > MaxNameLength:
		return bad("a name may have at most %d characters", MaxNameLength)
	case strings.TrimSpace(name) != name:
		return bad("a name may not start or end with a blank")
	case strings.HasPrefix(name, "."):
		return bad("a name may not start with \".\"")
	}
	for _, r := range name {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return bad("a name may not contain control characters")
		}
		if invisible(r) {
			return bad("a name may not contain invisible or direction-changing characters (%U)", r)
		}
		if strings.ContainsRune(forbiddenInNames, r) {
			return bad("a name may not contain %q", string(r))
		}
	}
	return nil
}

// invisible reports whether r is not seen, or changes how the text around
// it is seen: a format character (the bidi overrides and isolates such as
// U+202E RIGHT-TO-LEFT OVERRIDE, which would show "evil\u202eLMY.exe" as
// "evilexe.YML"; zero-width spaces and joiners; the BOM) or a line or
// paragraph separator.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// SanitizeName makes a valid name of s (a file name, a scenario's name):
// without a .yaml or .yml ending, with each forbidden or control character
// as "-", invisible ones dropped, blanks collapsed, no leading dots, at most MaxNameLength
// characters; "scenario" when nothing is left.
func SanitizeName(s string) string {
	s = strings.ToValidUTF8(s, "-")
	for _, ext := range []string{".yaml", ".yml", ".YAML", ".YML"} {
		s = strings.TrimSuffix(s, ext)
	}
	s = strings.Map(func(r rune) rune {
		if invisible(r) {
			return -1
		}
		if unicode.IsControl(r) || strings.ContainsRune(forbiddenInNames, r) {
			return '-'
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimLeft(s, ". ")
	s = strings.TrimSpace(cutRunes(s, MaxNameLength))
	if s == "" {
		return "scenario"
	}
	return s
}

// cutRunes is s cut to at most n characters.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}
