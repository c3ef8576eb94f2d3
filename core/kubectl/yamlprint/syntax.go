package yamlprint

// This file is self-contained on purpose: besides yamlprint, the wasm
// build compiles it into go.yaml.in/yaml/v3 (tools/wasmmod), whose
// resolve.go and encode.go use the same two regular expressions. The page
// then links no regexp package, and with it no Unicode tables: about 85 KB
// of the wasm's brotli size (docs/performance.md). It may import nothing,
// and its names must not clash with the yaml package's.

// stringMatcher is a func with regexp.Regexp's MatchString, so that a
// hand-written matcher stands in for a compiled expression.
type stringMatcher func(string) bool

// MatchString reports whether s matches.
func (m stringMatcher) MatchString(s string) bool { return m(s) }

// isYAMLStyleFloat matches YAML 1.1's float syntax, without the base-60 and
// special forms: `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
// (go-yaml's yamlStyleFloat).
func isYAMLStyleFloat(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// isYAMLBase60Float matches YAML 1.1's sexagesimal floats ("190:20:30.15"):
// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$` (go-yaml's
// base60float). After each ':' come one or two digits, the first of two at
// most 5.
func isYAMLBase60Float(s string) bool {
	i := 0
	isDigit := func(j int) bool { return j < len(s) && s[j] >= '0' && s[j] <= '9' }
	digitsOrUnderscores := func() {
		for isDigit(i) || i < len(s) && s[i] == '_' {
			i++
		}
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if !isDigit(i) {
		return false
	}
	i++
	digitsOrUnderscores()
	groups := 0
	for i < len(s) && s[i] == ':' {
		i++
		n := 0
		for isDigit(i + n) {
			n++
		}
		if n == 0 || n > 2 || n == 2 && s[i] > '5' {
			return false
		}
		i += n
		groups++
	}
	if groups == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		digitsOrUnderscores()
	}
	return i == len(s)
}
