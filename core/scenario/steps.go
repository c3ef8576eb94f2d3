package scenario

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"converge/core/kubectl"
	"converge/core/manifest"
)

// steps reads every step; it returns them sorted by at, and the at of each
// entry in file order.
func (p *parser) steps(raw []rawStep) ([]Step, []time.Duration) {
	out := make([]Step, 0, len(raw))
	srcAt := make([]time.Duration, len(raw))
	for i, rs := range raw {
		path := fmt.Sprintf("steps[%d]", i)
		st, ok := p.step(rs, path)
		srcAt[i] = st.At
		if ok {
			out = append(out, st)
		}
	}
	sortSteps(out)
	return out, srcAt
}

// action is one present action field of a step.
type action struct {
	name string
	node *yaml.Node
}

func (p *parser) step(rs rawStep, path string) (Step, bool) {
	spos := p.pos.Lookup(path)
	st := Step{Line: spos.Line, Col: spos.Col}
	before := len(p.probs)
	if rs.At == nil {
		p.problem(spos, "%s: missing required field \"at\"", path)
	} else if d, ok := p.duration(rs.At, path+".at", true); ok {
		st.At = d
	}
	var acts []action
	for _, a := range []action{{"kubectl", rs.Kubectl}, {"apply", rs.Apply}, {"fault", rs.Fault}, {"expect", rs.Expect},
		{"commit", rs.Commit}, {"load", rs.Load}, {"note", rs.Note}} {
		if a.node != nil {
			acts = append(acts, a)
		}
	}
	switch len(acts) {
	case 0:
		p.problem(spos, "%s: %v", path, errNoAction)
	case 1:
	default:
		names := make([]string, len(acts))
		for i, a := range acts {
			names[i] = a.name
		}
		p.problem(p.pos.Lookup(path+"."+acts[1].name), "%s: %v; this one has %s", path, errNoAction, strings.Join(names, " and "))
	}
	// An apply step that expects an error may hold a manifest the API
	// server rejects (that is what it shows), so its objects are decoded
	// strictly but not validated here; the step checks the error when it runs.
	p.noValidate = rs.ExpectError != nil
	for _, a := range acts {
		p.action(&st, a, path+"."+a.name)
	}
	p.noValidate = false
	if rs.ExpectError != nil {
		kind := ""
		if len(acts) > 0 {
			kind = acts[0].name
		}
		if kind != "kubectl" && kind != "apply" {
			p.problem(p.pos.Lookup(path+".expectError"), "%s.expectError: only kubectl and apply steps may expect an error", path)
		} else if s, ok := p.str(rs.ExpectError, path+".expectError"); ok {
			if s == "" {
				p.problem(nodePos(rs.ExpectError), "%s.expectError: must not be empty", path)
			}
			st.ExpectError = s
		}
	}
	isNote := len(acts) > 0 && acts[0].name == "note"
	p.noteOptions(&st, rs, path, isNote)
	if len(acts) > 1 {
		// Keep only the first action.
		first := Step{At: st.At, ExpectError: st.ExpectError, Line: st.Line, Col: st.Col}
		switch acts[0].name {
		case "kubectl":
			first.Kubectl = st.Kubectl
		case "apply":
			first.Apply = st.Apply
		case "fault":
			first.Fault = st.Fault
		case "expect":
			first.Expect = st.Expect
		case "commit":
			first.Commit = st.Commit
		case "load":
			first.Load = st.Load
		case "note":
			first.Note = st.Note
		}
		st = first
	}
	return st, len(p.probs) == before
}

// action reads one action of a step into st.
func (p *parser) action(st *Step, a action, path string) {
	n := a.node
	switch a.name {
	case "apply":
		st.Apply = p.apply(n, path)
		return
	case "commit":
		st.Commit = p.commit(n, path)
		return
	case "note":
		st.Note = p.note(n, path)
		return
	}
	s, ok := p.str(n, path)
	if !ok {
		return
	}
	if strings.TrimSpace(s) == "" {
		p.problem(nodePos(n), "%s: must not be empty", path)
		return
	}
	if strings.ContainsAny(s, "\n\r") {
		p.problem(nodePos(n), "%s: must be one line", path)
		return
	}
	switch a.name {
	case "kubectl":
		line, off := kubectlLine(s)
		st.Kubectl = line
		if !p.noValidate {
			p.checkKubectl(n, path, line, off)
		}
	case "fault":
		f, err := ParseFault(s)
		if err != nil {
			p.exprError(n, path, "invalid fault", err)
			return
		}
		if f.IsNodeFault() && !p.nodes[f.Target] {
			p.problem(p.exprPos(n, strings.LastIndex(s, f.Target)), "%s: unknown node %q; the cluster's nodes are %s", path, f.Target, p.nodeList())
			return
		}
		st.Fault = f
	case "expect":
		e, err := ParseExpect(s)
		if err != nil {
			p.exprError(n, path, "invalid expect", err)
			return
		}
		st.Expect = e
	case "load":
		l, err := ParseLoad(s)
		if err != nil {
			p.exprError(n, path, "invalid load", err)
			return
		}
		st.Load = l
	}
}

// kubectlLine is a kubectl step's command line as it runs: trimmed, without
// a leading "kubectl". off is where it starts in s.
func kubectlLine(s string) (line string, off int) {
	line = strings.TrimSpace(s)
	off = strings.Index(s, line)
	if rest, ok := strings.CutPrefix(line, "kubectl "); ok {
		trimmed := strings.TrimSpace(rest)
		off += len("kubectl ") + strings.Index(rest, trimmed)
		line = trimmed
	}
	return line, off
}

// checkKubectl parses a kubectl step's line (written at off in n's value)
// as kubectl will when the step runs, and reports what kubectl rejects
// before it runs anything, in kubectl's words, at the word at fault.
func (p *parser) checkKubectl(n *yaml.Node, path, line string, off int) {
	pe := kubectl.Check(line)
	if pe == nil {
		return
	}
	pos := nodePos(n)
	if pe.Offset >= 0 {
		pos = p.exprPos(n, off+pe.Offset)
	}
	msg := pe.Msg
	if len(pe.Suggestions) > 0 {
		quoted := make([]string, len(pe.Suggestions))
		for i, s := range pe.Suggestions {
			quoted[i] = strconv.Quote(s)
		}
		msg += "; did you mean " + orList(quoted) + "?"
	}
	p.problem(pos, "%s: %s", path, msg)
}

// orList is "a", "a or b", "a, b or c".
func orList(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " or " + items[len(items)-1]
}

func (p *parser) exprError(n *yaml.Node, path, what string, err error) {
	if se, ok := err.(*SyntaxError); ok {
		p.problem(p.exprPos(n, se.Offset), "%s: %s: %s", path, what, se.Msg)
		return
	}
	p.problem(nodePos(n), "%s: %s: %v", path, what, err)
}

func (p *parser) nodeList() string {
	names := make([]string, 0, len(p.nodes))
	for n := range p.nodes {
		names = append(names, n)
	}
	sortNodeNames(names)
	if len(names) > 10 {
		names = append(names[:10], "...")
	}
	return strings.Join(names, ", ")
}

// apply reads one manifest, or a list of them.
func (p *parser) apply(n *yaml.Node, path string) []manifest.Doc {
	var items []*yaml.Node
	switch n.Kind {
	case yaml.MappingNode:
		items = []*yaml.Node{n}
	case yaml.SequenceNode:
		items = n.Content
		if len(items) == 0 {
			p.problem(nodePos(n), "%s: needs at least one manifest", path)
			return nil
		}
	default:
		p.problem(nodePos(n), "%s: must be a manifest or a list of manifests", path)
		return nil
	}
	docs := p.objects(items)
	p.checkReplicas(docs, path+" asks for")
	if len(docs) == 0 {
		return nil
	}
	return docs
}

// note reads a note's text (its pause and focus are read by noteOptions).
func (p *parser) note(n *yaml.Node, path string) *Note {
	s, ok := p.str(n, path)
	if !ok {
		return nil
	}
	if err := CheckNote(s); err != nil {
		p.exprError(n, path, "invalid note", err)
		return nil
	}
	return &Note{Text: s}
}

// noteOptions reads pause and focus, which only a note step may have.
func (p *parser) noteOptions(st *Step, rs rawStep, path string, isNote bool) {
	for _, o := range []struct {
		name string
		node *yaml.Node
	}{{"pause", rs.Pause}, {"focus", rs.Focus}} {
		if o.node != nil && !isNote {
			p.problem(p.pos.Lookup(path+"."+o.name), "%s.%s: only a note step may have %s", path, o.name, o.name)
		}
	}
	if !isNote || st.Note == nil {
		return
	}
	if rs.Pause != nil {
		if rs.Pause.Kind != yaml.ScalarNode || rs.Pause.ShortTag() != "!!bool" {
			p.problem(nodePos(rs.Pause), "%s.pause: must be true or false", path)
		} else {
			st.Note.Pause = rs.Pause.Value == "true" || rs.Pause.Value == "True" || rs.Pause.Value == "TRUE"
		}
	}
	if rs.Focus != nil {
		if f, ok := p.str(rs.Focus, path+".focus"); ok {
			if err := CheckFocus(f); err != nil {
				p.exprError(rs.Focus, path+".focus", "invalid focus", err)
			} else {
				st.Note.Focus = f
			}
		}
	}
}
