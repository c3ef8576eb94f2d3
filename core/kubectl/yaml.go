package kubectl

import (
	"encoding/json"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// toYAML renders a JSON-shaped value (map[string]any, []any, string,
// json.Number, bool, nil) as kubectl's YAML printer does, that is as
// sigs.k8s.io/yaml's JSONToYAML with go-yaml v2: block style, mapping keys
// in go-yaml's order, sequences not indented under their key, strings plain
// when that reads back as the same string, else double-quoted when they
// would read as another type (`"1"`, `"True"`, `"2026-01-01T00:00:00Z"`),
// single-quoted when they only contain indicators (`'*'`), a literal block
// when they span lines, and long scalars folded at 80 columns.
func toYAML(v any) string {
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
		w.key(k)
		w.put(":")
		w.value(m[k], indent)
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
	spaces := false
	for i, r := range runes {
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

// yamlEscape escapes what go-yaml escapes inside double quotes.
func yamlEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 0:
			b.WriteString(`\0`)
		case 7:
			b.WriteString(`\a`)
		case 8:
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case 0x0b:
			b.WriteString(`\v`)
		case 0x0c:
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		case 0x1b:
			b.WriteString(`\e`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case 0x85:
			b.WriteString(`\N`)
		case 0x2028:
			b.WriteString(`\L`)
		case 0x2029:
			b.WriteString(`\P`)
		default:
			if yamlPrintable(r) {
				b.WriteRune(r)
				continue
			}
			switch {
			case r <= 0xFF:
				b.WriteString(`\x` + hexUpper(int64(r), 2))
			case r <= 0xFFFF:
				b.WriteString(`\u` + hexUpper(int64(r), 4))
			default:
				b.WriteString(`\U` + hexUpper(int64(r), 8))
			}
		}
	}
	return b.String()
}

func hexUpper(v int64, width int) string {
	s := strings.ToUpper(strconv.FormatInt(v, 16))
	return strings.Repeat("0", max(0, width-len(s))) + s
}

// yamlPrintable is go-yaml's is_printable for a decoded rune.
func yamlPrintable(r rune) bool {
	return r == 0x0A || r >= 0x20 && r <= 0x7E || r == 0x85 || r >= 0xA0 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF || r >= 0x10000 && r <= 0x10FFFF
}

type scalarStyle int

const (
	stylePlain scalarStyle = iota
	styleSingle
	styleDouble
	styleLiteral
)

// yamlStyle chooses a string's style as go-yaml v2's encoder and emitter
// do, for a mapping key or a value in block context.
func yamlStyle(s string, isKey bool) scalarStyle {
	a := analyzeScalar(s)
	var style scalarStyle
	switch {
	case strings.Contains(s, "\n"):
		style = styleLiteral
	case !resolvesToString(s) || isBase60Float(s):
		style = styleDouble
	default:
		style = stylePlain
	}
	if style == stylePlain && (!a.blockPlain || s == "" && isKey) {
		style = styleSingle
	}
	if style == styleSingle && !a.singleQuoted {
		style = styleDouble
	}
	if style == styleLiteral && (!a.block || isKey) {
		style = styleDouble
	}
	return style
}

type scalarAnalysis struct {
	blockPlain, singleQuoted, block bool
}

// analyzeScalar is go-yaml's yaml_emitter_analyze_scalar, block context.
func analyzeScalar(s string) scalarAnalysis {
	if s == "" {
		return scalarAnalysis{blockPlain: true, singleQuoted: true}
	}
	var blockIndicators, special, lineBreaks bool
	var leadingSpace, leadingBreak, trailingSpace, trailingBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockIndicators = true
	}
	runes := []rune(s)
	precededByWhitespace := true
	prevSpace, prevBreak := false, false
	for i, r := range runes {
		followedByWhitespace := i+1 >= len(runes) || isYAMLBlank(runes[i+1])
		if i == 0 {
			switch r {
			case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
				blockIndicators = true
			case '?', ':', '-':
				if followedByWhitespace {
					blockIndicators = true
				}
			}
		} else {
			switch r {
			case ':':
				if followedByWhitespace {
					blockIndicators = true
				}
			case '#':
				if precededByWhitespace {
					blockIndicators = true
				}
			}
		}
		if !yamlPrintable(r) || r == 0xFEFF {
			special = true
		}
		isBreak := r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029
		if isBreak {
			lineBreaks = true
		}
		switch {
		case r == ' ':
			if i == 0 {
				leadingSpace = true
			}
			if i == len(runes)-1 {
				trailingSpace = true
			}
			if prevBreak {
				breakSpace = true
			}
			prevSpace, prevBreak = true, false
		case isBreak:
			if i == 0 {
				leadingBreak = true
			}
			if i == len(runes)-1 {
				trailingBreak = true
			}
			if prevSpace {
				spaceBreak = true
			}
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		precededByWhitespace = isYAMLBlank(r) || isBreak
	}
	a := scalarAnalysis{blockPlain: true, singleQuoted: true, block: true}
	if leadingSpace || leadingBreak || trailingSpace || trailingBreak {
		a.blockPlain = false
	}
	if trailingSpace {
		a.block = false
	}
	if breakSpace {
		a.blockPlain, a.singleQuoted = false, false
	}
	if spaceBreak || special {
		a.blockPlain, a.singleQuoted, a.block = false, false, false
	}
	if lineBreaks || blockIndicators {
		a.blockPlain = false
	}
	return a
}

func isYAMLBlank(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029
}

var (
	yamlFloatRe   = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	base60FloatRe = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)
	yamlSpecial   = map[string]bool{
		"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "true": true, "True": true, "TRUE": true,
		"on": true, "On": true, "ON": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
		"false": true, "False": true, "FALSE": true, "off": true, "Off": true, "OFF": true,
		"": true, "~": true, "null": true, "Null": true, "NULL": true,
		".nan": true, ".NaN": true, ".NAN": true, ".inf": true, ".Inf": true, ".INF": true,
		"+.inf": true, "+.Inf": true, "+.INF": true, "-.inf": true, "-.Inf": true, "-.INF": true, "<<": true,
	}
	yamlTimestampFormats = []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999", "2006-1-2"}
)

// resolvesToString is go-yaml v2's resolve: whether s, written plain, reads
// back as a string (not a bool, null, number or timestamp).
func resolvesToString(s string) bool {
	if yamlSpecial[s] {
		return false
	}
	if s == "" {
		return false
	}
	c := s[0]
	switch {
	case c == '.':
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		if isYAMLTimestamp(s) {
			return false
		}
		plain := strings.ReplaceAll(s, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return false
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return false
		}
		if yamlFloatRe.MatchString(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return false
			}
		}
		if strings.HasPrefix(plain, "0b") {
			if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
				return false
			}
		} else if strings.HasPrefix(plain, "-0b") {
			if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
				return false
			}
		}
	}
	return true
}

func isYAMLTimestamp(s string) bool {
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	for _, f := range yamlTimestampFormats {
		if _, err := time.Parse(f, s); err == nil {
			return true
		}
	}
	return false
}

func isBase60Float(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if !(c == '+' || c == '-' || c >= '0' && c <= '9') || !strings.Contains(s, ":") {
		return false
	}
	return base60FloatRe.MatchString(s)
}

// sortedYAMLKeys orders keys as go-yaml v2's keyList does: runs of digits
// compare by value, and at the first difference a non-letter sorts before a
// letter.
func sortedYAMLKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return yamlKeyLess(keys[i], keys[j]) })
	return keys
}

func yamlKeyLess(a, b string) bool {
	ar, br := []rune(a), []rune(b)
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			continue
		}
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			return bl
		}
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for ; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

// toJSONValue turns an object into the generic value kubectl's printers see.
func toJSONValue(obj any) (any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
