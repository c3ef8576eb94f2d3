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
		if col, ok := p.cols.quotedColumn(n, off); ok {
			return manifest.Position{Line: n.Line, Col: col}
		}
	}
	return nodePos(n)
}

// columns finds columns in the file's lines. A line is read once, the first
// time a problem needs a column on it (see runeStart); then each problem
// reads only the quoted scalar it is in, so that placing every problem of a
// file is linear in its size however many share a line.
type columns struct {
	lines []string
	// starts holds, for a line with non-ASCII characters that has been
	// read, the byte offset of each of its characters; ascii marks the
	// lines read that have none, where the offset is the column.
	starts map[int][]int
	ascii  map[int]bool
	// scanned counts the bytes read to place problems (the tests bound it).
	scanned int
}

func newColumns(data []byte) *columns {
	return &columns{lines: manifest.SourceLines(data), starts: map[int][]int{}, ascii: map[int]bool{}}
}

// runeStart is the byte offset of character c (0-based) of line l
// (0-based), or len(line) past its end.
func (p *columns) runeStart(l, c int) int {
	line := p.lines[l]
	if !p.ascii[l] && p.starts[l] == nil {
		p.scanned += len(line)
		if isASCII(line) {
			p.ascii[l] = true
		} else {
			starts := make([]int, 0, len(line))
			for i := range line {
				starts = append(starts, i)
			}
			p.starts[l] = starts
		}
	}
	if p.ascii[l] {
		return min(max(c, 0), len(line))
	}
	if starts := p.starts[l]; c >= 0 && c < len(starts) {
		return starts[c]
	}
	return len(line)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// quotedColumn walks the source of a quoted scalar on its line until off
// bytes of its value have been seen, counting columns in characters.
func (p *columns) quotedColumn(n *yaml.Node, off int) (int, bool) {
	if n.Line < 1 || n.Line > len(p.lines) {
		return 0, false
	}
	line := p.lines[n.Line-1]
	i := p.runeStart(n.Line-1, n.Column-1) + 1 // after the opening quote
	defer func(start int) { p.scanned += i - start }(i)
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
