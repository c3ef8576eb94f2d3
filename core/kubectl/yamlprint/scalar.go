package yamlprint

import (
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
)

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
	yamlFloatRe   = stringMatcher(isYAMLStyleFloat)
	base60FloatRe = stringMatcher(isYAMLBase60Float)
	yamlSpecial   = map[string]bool{
		"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "true": true, "True": true, "TRUE": true,
		"on": true, "On": true, "ON": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
		"false": true, "False": true, "FALSE": true, "off": true, "Off": true, "OFF": true,
		"": true, "~": true, "null": true, "Null": true, "NULL": true,
		".nan": true, ".NaN": true, ".NAN": true, ".inf": true, ".Inf": true, ".INF": true,
		"+.inf": true, "+.Inf": true, "+.INF": true, "-.inf": true, "-.Inf": true, "-.INF": true,
	}
	yamlTimestampFormats = []string{"2006-1-2T15:4:5.999999999Z07:00", "2006-1-2t15:4:5.999999999Z07:00",
		"2006-1-2 15:4:5.999999999", "2006-1-2"}
)

// resolvesToString is go-yaml v2's resolve (where "<<", the merge key,
// has no hint in its resolve table and so stays a plain string): whether s, written plain, reads
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
