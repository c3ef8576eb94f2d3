package scenario

import (
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"converge/core/manifest"
)

// exprPos is where byte offset off of a one-line scalar's value is written
// in the file. A plain scalar's value is its source; a quoted one is mapped
// through its quote and escapes (`\"`, `\u00e9`, `”`), so an error inside a
// quoted expect points at the right character. Anything else (block
// scalars, values folded over several lines) falls back to the node.
func (p *parser) exprPos(n *yaml.Node, off int) manifest.Position {
	value := n.Value
	off = min(max(off, 0), len(value))
	switch n.Style {
	case 0, yaml.TaggedStyle:
		return manifest.Position{Line: n.Line, Col: n.Column + utf8.RuneCountInString(value[:off])}
	case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
		if col, ok := p.quotedColumn(n, off); ok {
			return manifest.Position{Line: n.Line, Col: col}
		}
	}
	return nodePos(n)
}

// quotedColumn walks the source of a quoted scalar on its line until off
// bytes of its value have been seen, counting columns in characters.
func (p *parser) quotedColumn(n *yaml.Node, off int) (int, bool) {
	if n.Line < 1 || n.Line > len(p.lines) {
		return 0, false
	}
	line := p.lines[n.Line-1]
	i := runeIndex(line, n.Column-1) + 1 // after the opening quote
	col := n.Column + 1
	for seen := 0; seen < off; {
		if i >= len(line) {
			return 0, false
		}
		var src, dec int
		switch {
		case n.Style == yaml.SingleQuotedStyle && line[i] == '\'':
			src, dec = 2, 1 // '' is one quote
		case n.Style == yaml.DoubleQuotedStyle && line[i] == '\\':
			src, dec = escapeLen(line[i:])
		default:
			_, src = utf8.DecodeRuneInString(line[i:])
			dec = src
		}
		src = min(src, len(line)-i)
		col += utf8.RuneCountInString(line[i : i+src])
		i, seen = i+src, seen+dec
	}
	return col, true
}

// escapeLen returns the source length of a double-quoted escape and the
// length in bytes of what it decodes to.
func escapeLen(s string) (src, dec int) {
	if len(s) < 2 {
		return 1, 1
	}
	switch s[1] {
	case 'N', '_':
		return 2, 2
	case 'L', 'P':
		return 2, 3
	}
	hex := map[byte]int{'x': 2, 'u': 4, 'U': 8}[s[1]]
	if hex == 0 || len(s) < 2+hex {
		return 2, 1
	}
	v, err := strconv.ParseUint(s[2:2+hex], 16, 32)
	if err != nil {
		return 2, 1
	}
	return 2 + hex, max(utf8.RuneLen(rune(v)), 1)
}

// runeIndex returns the byte index of the n-th rune of s.
func runeIndex(s string, n int) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}
