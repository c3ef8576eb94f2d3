package manifest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize bounds an input, from any source (a file, standard input, a
// share link, the JS API's load: core/scenario's MaxFileSize is this one),
// and what its aliases expand to: the bytes that alias expansion adds to a
// stream count against the same 4 MiB as the stream itself (see
// ParseDocuments), so that a "billion laughs" input of a few kilobytes is
// refused at the alias that goes over instead of exhausting memory. Real
// manifests use a handful of aliases. docs/limits.md lists every limit.
const MaxFileSize = 4 << 20

// ParseDocuments parses a YAML (or JSON) stream into its documents, as
// yaml.Nodes of kind DocumentNode with their lines and columns, aliases not
// yet expanded (see Expand). Empty documents are skipped. A syntax error ends
// the stream: the documents before it are returned with a problem at the
// error's line. So does a document whose aliases would expand the stream
// beyond MaxFileSize: the stream's own bytes and what its aliases add, in
// bytes (aliasBudget), are checked as each document is read, before
// anything is expanded, and the problem is at the alias that goes over; and
// so does a document nested deeper than MaxDepth (depthCheck), at the first
// node beyond it.
func ParseDocuments(data []byte, file string) ([]*yaml.Node, Problems) {
	return parseDocuments(data, file, MaxFileSize)
}

// parseDocuments is ParseDocuments with limit in place of MaxFileSize (the
// fuzz test explores small ones).
func parseDocuments(data []byte, file string, limit int) ([]*yaml.Node, Problems) {
	budget := newAliasBudget(len(data), limit)
	depth := newDepthCheck(MaxDepth)
	if looksLikeJSON(data) {
		// JSON allows tabs between tokens, YAML does not; a raw tab
		// cannot occur inside a valid JSON string, so this is safe.
		data = bytes.ReplaceAll(data, []byte("\t"), []byte(" "))
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var n yaml.Node
		err := decodeNode(dec, &n)
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		if err != nil {
			return docs, Problems{syntaxProblem(err, data, file)}
		}
		if len(n.Content) == 0 || isEmptyDoc(&n) {
			continue
		}
		if at := budget.walk(&n); at != nil {
			return docs, Problems{aliasProblem(file, at, budget.detail())}
		}
		if at := depth.tooDeep(&n); at != nil {
			return docs, Problems{depthProblem(file, at, MaxDepth)}
		}
		docs = append(docs, &n)
	}
}

// decodeNode reads one document. The YAML library reports bad input as an
// error; the recover is a last line of defence so that no input can crash the
// caller through a bug in the parser.
func decodeNode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: %v", r)
		}
	}()
	return dec.Decode(n)
}

func isEmptyDoc(n *yaml.Node) bool {
	c := n.Content[0]
	return c.Kind == yaml.ScalarNode && c.ShortTag() == "!!null"
}

func looksLikeJSON(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) > 0 && (t[0] == '{' || t[0] == '[')
}

// lineError reads go-yaml's "yaml: line N: MESSAGE" (one line of text),
// as `^yaml: line (\d+): (.*)$` would.
func lineError(msg string) (line int, rest string, ok bool) {
	rest, ok = strings.CutPrefix(msg, "yaml: line ")
	if !ok {
		return 0, "", false
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || !strings.HasPrefix(rest[n:], ": ") || strings.Contains(rest[n+2:], "\n") {
		return 0, "", false
	}
	line, err := strconv.Atoi(rest[:n])
	if err != nil {
		line = 0 // too many digits: no line to go by
	}
	return line, rest[n+2:], true
}

// unknownAnchor finds the NAME of go-yaml's "unknown anchor 'NAME'
// referenced", as `unknown anchor '(.*)' referenced` would: the first
// occurrence that has "' referenced" later on its line, up to the last one.
func unknownAnchor(msg string) (string, bool) {
	const start, end = "unknown anchor '", "' referenced"
	for rest := msg; ; {
		i := strings.Index(rest, start)
		if i < 0 {
			return "", false
		}
		rest = rest[i+len(start):]
		line, _, _ := strings.Cut(rest, "\n")
		if j := strings.LastIndex(line, end); j >= 0 {
			return line[:j], true
		}
	}
}

// syntaxProblem turns a parser error ("yaml: line 3: could not find expected
// ':'") into a Problem at that line. Errors without a line are placed where
// they can be found (an unknown alias at its first use) or at line 1.
func syntaxProblem(err error, data []byte, file string) Problem {
	msg := err.Error()
	p := Problem{File: file, Line: 1, Col: 1}
	if line, rest, ok := lineError(msg); ok {
		p.Line, msg = line, rest
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
		if name, ok := unknownAnchor(msg); ok {
			p.Line, p.Col = offsetPosition(data, bytes.Index(data, []byte("*"+name)))
		} else if off, found, ok := badCharacter(data); ok && encodingErrors[msg] {
			// The reader's errors have no position: it is the first
			// character the reader refuses.
			p.Line, p.Col = offsetPosition(data, off)
			msg += " (found " + found + ")"
		}
	}
	p.Line = max(p.Line, 1)
	p.Message = "invalid YAML: " + msg
	return p
}

// offsetPosition converts a byte offset into a line and column (1-based;
// the column counts characters, as the parser's do).
func offsetPosition(data []byte, off int) (int, int) {
	if off < 0 || off > len(data) {
		return 1, 1
	}
	line, start := 1, 0
	for i := 0; i < off; {
		if n := breakLen(data[i:]); n > 0 {
			line, i = line+1, i+n
			start = i
			continue
		}
		i++
	}
	return line, 1 + utf8.RuneCount(data[start:off])
}

// encodingErrors are the YAML reader's errors about the characters of the
// input, which carry no position.
var encodingErrors = map[string]bool{
	"control characters are not allowed": true,
	"invalid leading UTF-8 octet":        true,
	"invalid trailing UTF-8 octet":       true,
	"incomplete UTF-8 octet sequence":    true,
	"invalid Unicode character":          true,
}

// badCharacter finds the first character the YAML reader refuses: a byte
// that is not UTF-8, or a character outside YAML's printable set (tab, line
// feed, carriage return, U+0020–U+007E, U+0085, U+00A0–U+D7FF,
// U+E000–U+FFFD, U+10000 and above; a byte order mark may open the file).
// It returns its offset and what was found ("U+0007", "byte 0xff; ...").
func badCharacter(data []byte) (off int, found string, ok bool) {
	i := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return i, fmt.Sprintf("byte 0x%02x; a file must be UTF-8", data[i]), true
		case r == '\t', r == '\n', r == '\r', r >= 0x20 && r <= 0x7e, r == 0x85,
			r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000:
		default:
			return i, fmt.Sprintf("U+%04X", r), true
		}
		i += size
	}
	return 0, "", false
}

// Expand returns a copy of n with every alias replaced by a copy of its
// anchored node and every merge key (`<<: *base`) merged, so that later
// passes see a plain tree. Anchor names are cleared in the copy. It refuses,
// with a problem at the alias, aliases that refer to a node that contains
// them and expansions that would add more than MaxFileSize bytes (counted as
// aliasBudget counts them; ParseDocuments has already refused a stream whose
// expansion goes beyond what is left of MaxFileSize, so this only bounds
// nodes that did not come from it); the offending alias becomes null.
func Expand(n *yaml.Node, file string) (*yaml.Node, Problems) {
	return expandWithin(n, file, MaxFileSize)
}

// expandWithin is Expand with limit in place of MaxFileSize.
func expandWithin(n *yaml.Node, file string, limit int64) (*yaml.Node, Problems) {
	e := &expander{file: file, limit: limit, active: map[*yaml.Node]bool{}}
	out := e.expand(n, false)
	return out, e.probs
}

type expander struct {
	file string
	// alias is the outermost alias being expanded, where budget problems
	// are reported.
	alias  *yaml.Node
	probs  Problems
	added  int64
	limit  int64
	over   bool
	active map[*yaml.Node]bool
}

func (e *expander) problem(n *yaml.Node, format string, args ...any) {
	e.probs = append(e.probs, Problem{File: e.file, Line: max(n.Line, 1), Col: max(n.Column, 1), Message: fmt.Sprintf(format, args...)})
}

func nullAt(n *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null", Line: n.Line, Column: n.Column}
}

// expand copies n; viaAlias counts the copied nodes against the budget.
func (e *expander) expand(n *yaml.Node, viaAlias bool) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.AliasNode {
		switch {
		case n.Alias == nil:
			e.problem(n, "unknown anchor %q", n.Value)
			return nullAt(n)
		case e.over:
			return nullAt(n)
		case e.active[n.Alias]:
			e.problem(n, "alias *%s refers to a node that contains it", n.Value)
			return nullAt(n)
		}
		if !viaAlias {
			e.alias = n
		}
		return e.expand(n.Alias, true)
	}
	if viaAlias {
		e.added += nodeBytes(n)
		if e.added > e.limit {
			if !e.over {
				e.probs = append(e.probs, aliasProblem(e.file, e.alias, ""))
			}
			e.over = true
			return nullAt(n)
		}
	}
	out := *n
	out.Anchor = ""
	out.Content = nil
	if len(n.Content) == 0 {
		return &out
	}
	e.active[n] = true
	defer delete(e.active, n)
	if n.Kind == yaml.MappingNode {
		out.Content = e.expandMapping(n, viaAlias)
		return &out
	}
	out.Content = make([]*yaml.Node, 0, len(n.Content))
	for _, c := range n.Content {
		out.Content = append(out.Content, e.expand(c, viaAlias))
	}
	return &out
}

// expandMapping copies a mapping's pairs and resolves merge keys: keys written
// in the mapping win over merged ones, and of several merged mappings the
// first that has a key wins, as YAML's merge key type says.
func (e *expander) expandMapping(n *yaml.Node, viaAlias bool) []*yaml.Node {
	var explicit []*yaml.Node
	var merged [][]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merged = append(merged, e.mergeSources(v, viaAlias)...)
			continue
		}
		explicit = append(explicit, e.expand(k, viaAlias), e.expand(v, viaAlias))
	}
	if len(n.Content)%2 == 1 {
		explicit = append(explicit, e.expand(n.Content[len(n.Content)-1], viaAlias))
	}
	if len(merged) == 0 {
		return explicit
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(explicit); i += 2 {
		seen[explicit[i].Value] = true
	}
	out := explicit
	for _, pairs := range merged {
		for i := 0; i+1 < len(pairs); i += 2 {
			if k := pairs[i].Value; !seen[k] {
				seen[k] = true
				out = append(out, pairs[i], pairs[i+1])
			}
		}
	}
	return out
}

// mergeSources expands the value of a merge key: one mapping or a list of
// them.
func (e *expander) mergeSources(v *yaml.Node, viaAlias bool) [][]*yaml.Node {
	x := e.expand(v, viaAlias)
	switch x.Kind {
	case yaml.MappingNode:
		return [][]*yaml.Node{x.Content}
	case yaml.SequenceNode:
		var out [][]*yaml.Node
		for _, c := range x.Content {
			if c.Kind != yaml.MappingNode {
				e.problem(c, "a merge key (<<) takes a mapping or a list of mappings")
				continue
			}
			out = append(out, c.Content)
		}
		return out
	case yaml.ScalarNode:
		if x.ShortTag() == "!!null" {
			return nil
		}
	}
	e.problem(v, "a merge key (<<) takes a mapping or a list of mappings")
	return nil
}
