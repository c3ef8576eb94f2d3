// Package yamlprint is kubectl's YAML printer (-o yaml): it renders a
// JSON-shaped value as sigs.k8s.io/yaml's JSONToYAML does with go-yaml v2,
// so that the YAML Converge prints is byte for byte what kubectl prints.
package yamlprint

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Marshal renders a JSON-shaped value (map[string]any, []any, string,
// json.Number, bool, nil) as kubectl's YAML printer does, that is as
// sigs.k8s.io/yaml's JSONToYAML with go-yaml v2: block style, mapping keys
// in go-yaml's order, sequences not indented under their key, strings plain
// when that reads back as the same string, else double-quoted when they
// would read as another type (`"1"`, `"True"`, `"2026-01-01T00:00:00Z"`),
// single-quoted when they only contain indicators (`'*'`), a literal block
// when they span lines, and long scalars folded at 80 columns.
func Marshal(v any) string {
	w := &yamlWriter{}
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			return "{}\n"
		}
		w.mapping(t, 0, true)
	case []any:
		if len(t) == 0 {
			return "[]\n"
		}
		w.sequence(t, 0, true)
	default:
		w.column = -1 // no leading space before a top-level scalar
		w.scalar(v, 0)
	}
	w.put("\n")
	return w.b.String()
}

// yamlBestWidth is go-yaml's line width for folding scalars.
const yamlBestWidth = 80

type yamlWriter struct {
	b      strings.Builder
	column int
}

// put writes s, keeping track of the column (in characters).
func (w *yamlWriter) put(s string) {
	w.b.WriteString(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		w.column = utf8.RuneCountInString(s[i+1:])
		return
	}
	w.column += utf8.RuneCountInString(s)
}

func (w *yamlWriter) newline(indent int) { w.put("\n" + strings.Repeat(" ", indent)) }

// mapping writes a block mapping whose keys start at column indent; first
// means the writer already stands there (top of document, after "- ").
func (w *yamlWriter) mapping(m map[string]any, indent int, first bool) {
	for i, k := range sortedYAMLKeys(m) {
		if i > 0 || !first {
			w.newline(indent)
		}
		if complexKey(k) {
			w.complexEntry(k, m[k], indent)
			continue
		}
		w.key(k)
		w.put(":")
		w.value(m[k], indent)
	}
}

// complexKey is the opposite of go-yaml's yaml_emitter_check_simple_key
// for a string: a key that spans lines or is longer than 128 bytes is
// written as a complex key, "? KEY" then ": VALUE" on the next line.
func complexKey(k string) bool {
	return len(k) > 128 || strings.ContainsAny(k, "\n\r\u0085\u2028\u2029")
}

// complexEntry writes "? KEY" (the key styled as a value: a literal block
// is allowed) and ": VALUE", a nested mapping or sequence starting on the
// ":" line as go-yaml's emitter indents it there.
func (w *yamlWriter) complexEntry(k string, v any, indent int) {
	w.put("?")
	w.scalar(k, indent+2)
	w.newline(indent)
	w.put(":")
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			w.put(" {}")
			return
		}
		w.put(" ")
		w.mapping(t, indent+2, true)
	case []any:
		if len(t) == 0 {
			w.put(" []")
			return
		}
		w.put(" ")
		w.sequence(t, indent+2, true)
	default:
		w.scalar(v, indent+2)
	}
}

// sequence writes a block sequence whose dashes stand at column indent.
func (w *yamlWriter) sequence(s []any, indent int, first bool) {
	for i, item := range s {
		if i > 0 || !first {
			w.newline(indent)
		}
		w.put("-")
		switch t := item.(type) {
		case map[string]any:
			if len(t) == 0 {
				w.put(" {}")
				continue
			}
			w.put(" ")
			w.mapping(t, indent+2, true)
		case []any:
			if len(t) == 0 {
				w.put(" []")
				continue
			}
			w.put(" ")
			w.sequence(t, indent+2, true)
		default:
			w.scalar(item, indent+2)
		}
	}
}

// value writes what follows "key:" for a key at column indent.
func (w *yamlWriter) value(v any, indent int) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 {
			w.put(" {}")
			return
		}
		w.mapping(t, indent+2, false)
	case []any:
		if len(t) == 0 {
			w.put(" []")
			return
		}
		w.sequence(t, indent, false)
	default:
		w.scalar(v, indent+2)
	}
}

// key writes a mapping key: never folded, never a block.
func (w *yamlWriter) key(k string) {
	switch yamlStyle(k, true) {
	case stylePlain:
		w.put(k)
	case styleSingle:
		w.put("'" + strings.ReplaceAll(k, "'", "''") + "'")
	default:
		w.put(`"` + yamlEscape(k) + `"`)
	}
}

// scalar writes " " and a scalar; folded lines continue at column indent.
func (w *yamlWriter) scalar(v any, indent int) {
	sep := " "
	if w.column < 0 {
		sep, w.column = "", 0
	}
	switch t := v.(type) {
	case nil:
		w.put(sep + "null")
	case bool:
		w.put(sep + strconv.FormatBool(t))
	case json.Number:
		w.put(sep + yamlNumber(t))
	case float64:
		w.put(sep + yamlNumber(json.Number(strconv.FormatFloat(t, 'g', -1, 64))))
	case string:
		w.put(sep)
		w.str(t, indent)
	default:
		w.put(sep + `""`)
	}
}

func yamlNumber(n json.Number) string {
	if _, err := strconv.ParseInt(string(n), 10, 64); err == nil {
		return string(n)
	}
	f, err := n.Float64()
	if err != nil {
		return string(n)
	}
	switch {
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	case math.IsNaN(f):
		return ".nan"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func (w *yamlWriter) str(s string, indent int) {
	switch yamlStyle(s, false) {
	case stylePlain:
		w.folded(s, indent, false)
	case styleSingle:
		w.put("'")
		w.folded(strings.ReplaceAll(s, "'", "''"), indent, true)
		w.put("'")
	case styleLiteral:
		w.literal(s, indent)
	default:
		w.doubleQuoted(s, indent)
	}
}

// folded writes a plain or single-quoted scalar, breaking a line at a single
// space once the column passes 80, as go-yaml's emitter does.
func (w *yamlWriter) folded(s string, indent int, quoted bool) {
	runes := []rune(s)
	spaces, breaks := false, false
	for i, r := range runes {
		if r == 0x85 || r == 0x2028 || r == 0x2029 {
			// A line break go-yaml writes as it is (only in single
			// quotes: plain scalars hold none); the text after it is
			// indented to the scalar's indentation.
			w.put(string(r))
			w.column, breaks, spaces = 0, true, false
			continue
		}
		if breaks {
			w.put(strings.Repeat(" ", max(0, indent-w.column)))
			breaks = false
		}
		if r == ' ' {
			next := i+1 < len(runes) && runes[i+1] == ' '
			edge := quoted && (i == 0 || i == len(runes)-1)
			if !spaces && w.column > yamlBestWidth && !next && !edge {
				w.newline(indent)
			} else {
				w.put(" ")
			}
			spaces = true
			continue
		}
		w.put(string(r))
		spaces = false
	}
}

// literal writes a "|" block scalar with go-yaml's indentation and chomping
// hints.
func (w *yamlWriter) literal(s string, indent int) {
	hint := "|"
	if s[0] == ' ' || s[0] == '\n' {
		hint += "2"
	}
	switch {
	case !strings.HasSuffix(s, "\n"):
		hint += "-"
	case s == "\n" || strings.HasSuffix(s, "\n\n"):
		hint += "+"
	}
	w.put(hint)
	lines := strings.Split(s, "\n")
	if strings.HasSuffix(s, "\n") {
		lines = lines[:len(lines)-1]
	}
	for _, l := range lines {
		if l == "" {
			w.put("\n")
			continue
		}
		w.newline(indent)
		w.put(l)
	}
}

func (w *yamlWriter) doubleQuoted(s string, indent int) {
	w.put(`"`)
	runes := []rune(s)
	spaces := false
	for i, r := range runes {
		if r == ' ' {
			if !spaces && w.column > yamlBestWidth && i != 0 && i != len(runes)-1 {
				w.newline(indent)
				if i+1 < len(runes) && runes[i+1] == ' ' {
					w.put(`\`)
				}
			} else {
				w.put(" ")
			}
			spaces = true
			continue
		}
		w.put(yamlEscape(string(r)))
		spaces = false
	}
	w.put(`"`)
}
