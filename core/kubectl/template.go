package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"converge/core/api"
)

// -o jsonpath=TEMPLATE and -o custom-columns=SPEC, kubectl's JSONPath
// and custom-columns printers (k8s.io/client-go/util/jsonpath,
// cli-runtime's CustomColumnsPrinter), on the JSONPath subset of
// jsonpath.go: text, {.path} (several values joined by a space, maps and
// lists as compact JSON, a missing key printing nothing), {"literal"}
// with Go escapes, {$...} and {@...}, and {range .path}...{end}.

// tmplNode is one piece of a template: text, a path (at root or the
// current element), or a range with its body.
type tmplNode struct {
	text   string
	isPath bool
	root   bool // the path starts at $ (the whole object)
	path   jsonPath
	body   []tmplNode // a range's body
	isRng  bool
}

// parseTemplate parses a jsonpath template.
func parseTemplate(tmpl string) ([]tmplNode, error) {
	nodes, rest, err := parseTemplateNodes(tmpl, tmpl, false)
	if err != nil {
		return nil, err
	}
	if rest != "" {
		return nil, fmt.Errorf("error parsing jsonpath %s, not in range, nothing to end", tmpl)
	}
	return nodes, nil
}

// parseTemplateNodes reads nodes up to the end or, inRange, to {end};
// it returns what follows that {end}.
func parseTemplateNodes(all, s string, inRange bool) ([]tmplNode, string, error) {
	var out []tmplNode
	for s != "" {
		i := strings.IndexByte(s, '{')
		if i < 0 {
			out = append(out, tmplNode{text: s})
			break
		}
		if i > 0 {
			out = append(out, tmplNode{text: s[:i]})
		}
		end := closingBrace(s, i)
		if end < 0 {
			return nil, "", fmt.Errorf("error parsing jsonpath %s, unclosed action", all)
		}
		action := strings.TrimSpace(s[i+1 : end])
		s = s[end+1:]
		switch {
		case action == "end":
			if !inRange {
				return nil, "", fmt.Errorf("error parsing jsonpath %s, not in range, nothing to end", all)
			}
			return out, s, nil
		case strings.HasPrefix(action, "range "):
			n, err := pathNode(all, strings.TrimSpace(strings.TrimPrefix(action, "range ")))
			if err != nil {
				return nil, "", err
			}
			body, rest, err := parseTemplateNodes(all, s, true)
			if err != nil {
				return nil, "", err
			}
			n.isRng, n.body = true, body
			out = append(out, n)
			s = rest
		case len(action) >= 2 && action[0] == '"' && action[len(action)-1] == '"':
			text, err := strconv.Unquote(action)
			if err != nil {
				return nil, "", fmt.Errorf("error parsing jsonpath %s, %v", all, err)
			}
			out = append(out, tmplNode{text: text})
		default:
			n, err := pathNode(all, action)
			if err != nil {
				return nil, "", err
			}
			out = append(out, n)
		}
	}
	if inRange {
		return nil, "", fmt.Errorf("error parsing jsonpath %s, unclosed range", all)
	}
	return out, "", nil
}

// closingBrace is the index of the '}' that closes the '{' at open,
// skipping quoted text.
func closingBrace(s string, open int) int {
	var quote byte
	for i := open + 1; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '}':
			return i
		}
	}
	return -1
}

func pathNode(all, action string) (tmplNode, error) {
	n := tmplNode{isPath: true}
	switch {
	case strings.HasPrefix(action, "$"):
		n.root, action = true, action[1:]
	case strings.HasPrefix(action, "@"):
		action = action[1:]
	}
	if action == "" {
		return n, nil
	}
	if action[0] != '.' && action[0] != '[' {
		return tmplNode{}, fmt.Errorf("error parsing jsonpath %s, unrecognized identifier %s", all, action)
	}
	p, err := parseJSONPath("{" + action + "}")
	if err != nil {
		return tmplNode{}, err
	}
	n.path = p
	return n, nil
}

// execTemplate writes the template over root.
func execTemplate(b *strings.Builder, nodes []tmplNode, root, cur any) {
	for _, n := range nodes {
		switch {
		case n.isRng:
			from := cur
			if n.root {
				from = root
			}
			for _, v := range n.path.results(from) {
				execTemplate(b, n.body, root, v)
			}
		case n.isPath:
			from := cur
			if n.root {
				from = root
			}
			for i, v := range n.path.results(from) {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(jsonPathText(v))
			}
		default:
			b.WriteString(n.text)
		}
	}
}

// jsonPathText is JSONPath.PrintResults for one value: maps and lists as
// compact JSON, anything else as fmt prints it.
func jsonPathText(v any) string {
	switch v.(type) {
	case map[string]any, []any:
		b, err := json.Marshal(v)
		if err != nil {
			return ""
		}
		return string(b)
	}
	return fmt.Sprint(v)
}

// templateFormat splits -o jsonpath=T / custom-columns=S into the printer
// and its argument ("" and false for other formats); -o jsonpath takes its
// template from --template.
func (x *execCtx) templateFormat(format string) (kind, arg string, ok bool) {
	name, value, hasValue := strings.Cut(format, "=")
	switch name {
	case "jsonpath", "custom-columns":
		if !hasValue {
			value = x.cmd.str("template")
		}
		return name, value, true
	}
	return "", "", false
}

// printJSONPath is -o jsonpath: one object as itself, else the List.
func (x *execCtx) printJSONPath(infos []info, single bool, tmpl string) error {
	if tmpl == "" {
		return errors.New("template format specified but no template given")
	}
	nodes, err := parseTemplate(tmpl)
	if err != nil {
		return &plainError{msg: err.Error()}
	}
	var v any
	if single && len(infos) == 1 {
		v = x.printValue(infos[0].obj)
	} else {
		objs := make([]api.Object, len(infos))
		for i, in := range infos {
			objs[i] = in.obj
		}
		var err error
		if v, err = x.listValueWithin(objs, "jsonpath"); err != nil {
			return err
		}
	}
	var b strings.Builder
	execTemplate(&b, nodes, v, v)
	x.out.WriteString(b.String())
	return nil
}

// customColumn is one HEADER:path of -o custom-columns.
type customColumn struct {
	header string
	path   jsonPath
}

// parseCustomColumns is NewCustomColumnsPrinterFromSpec.
func parseCustomColumns(spec string) ([]customColumn, error) {
	if spec == "" {
		return nil, errors.New("custom-columns format specified but no custom columns given")
	}
	var out []customColumn
	for _, part := range strings.Split(spec, ",") {
		header, expr, ok := strings.Cut(part, ":")
		if !ok || header == "" {
			return nil, fmt.Errorf("unexpected custom-columns spec: %s, expected <header>:<json-path-expr>", part)
		}
		rel, err := relaxedJSONPathExpression(expr)
		if err != nil {
			return nil, err
		}
		p, err := parseJSONPath(rel)
		if err != nil {
			return nil, err
		}
		out = append(out, customColumn{header: header, path: p})
	}
	return out, nil
}

// printCustomColumns is the CustomColumnsPrinter: a header row (unless
// --no-headers), then per object each column's values joined by ",", or
// <none>.
func (x *execCtx) printCustomColumns(infos []info, spec string) error {
	cols, err := parseCustomColumns(spec)
	if err != nil {
		return &plainError{msg: err.Error()}
	}
	var b strings.Builder
	w := newTabWriter(&b)
	if !x.cmd.boolean("no-headers") {
		hs := make([]string, len(cols))
		for i, c := range cols {
			hs[i] = c.header
		}
		fmt.Fprintln(w, strings.Join(hs, "\t"))
	}
	for _, in := range infos {
		v := x.printValue(in.obj)
		cells := make([]string, len(cols))
		for i, c := range cols {
			var vals []string
			for _, r := range c.path.results(v) {
				vals = append(vals, jsonPathText(r))
			}
			cells[i] = "<none>"
			if len(vals) > 0 {
				cells[i] = strings.Join(vals, ",")
			}
		}
		fmt.Fprintln(w, strings.Join(cells, "\t"))
	}
	_ = w.Flush()
	x.out.WriteString(b.String())
	return nil
}
