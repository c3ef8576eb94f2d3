package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/manifest"
	"converge/core/store"
)

// FaultType is what a fault does.
type FaultType string

// Fault types.
const (
	// FaultNodeDown stops a node's kubelet: no heartbeats, nothing runs.
	FaultNodeDown FaultType = "node-down"
	// FaultNodeUp brings a stopped node back.
	FaultNodeUp FaultType = "node-up"
	// FaultCrashPod makes a pod's container exit (`crash pod/NAME`).
	FaultCrashPod FaultType = "crash-pod"
	// FaultCrashDeployment makes the containers of every pod of a Deployment
	// exit (`crash deployment/NAME`).
	FaultCrashDeployment FaultType = "crash-deployment"
	// FaultCrashSelector makes the containers of the pods a label selector
	// matches exit, the first Count by name (`crash -l SELECTOR
	// [--count=N]`).
	FaultCrashSelector FaultType = "crash-selector"
	// FaultDeleteSelector deletes the pods a label selector matches, the
	// first Count by name, gracefully (`delete pod -l SELECTOR [--count=N]`).
	FaultDeleteSelector FaultType = "delete-selector"
)

// Fault is a parsed `fault` step: node-down NODE, node-up NODE, crash
// pod/NAME, crash deployment/NAME, crash -l SELECTOR [--count=N] or delete
// pod -l SELECTOR [--count=N].
type Fault struct {
	Type FaultType
	// Target is the node, pod or Deployment name.
	Target string
	// Selector is the label selector of the -l forms, as written (checked
	// by labels.Parse); Count is how many of the pods it matches, 0 for all.
	Selector string
	Count    int
}

// String renders the fault as ParseFault reads it.
func (f *Fault) String() string {
	if f == nil {
		return ""
	}
	switch f.Type {
	case FaultCrashPod:
		return "crash pod/" + f.Target
	case FaultCrashDeployment:
		return "crash deployment/" + f.Target
	case FaultCrashSelector, FaultDeleteSelector:
		s := "crash"
		if f.Type == FaultDeleteSelector {
			s = "delete pod"
		}
		s += " -l " + quoteSelector(f.Selector)
		if f.Count > 0 {
			s += " --count=" + strconv.Itoa(f.Count)
		}
		return s
	}
	return fmt.Sprintf("%s %s", f.Type, f.Target)
}

// quoteSelector quotes a selector that has blanks (app in (web, api)).
func quoteSelector(sel string) string {
	if !strings.ContainsAny(sel, " \t") {
		return sel
	}
	if !strings.Contains(sel, "'") {
		return "'" + sel + "'"
	}
	return `"` + sel + `"`
}

// IsNodeFault reports whether the fault targets a node.
func (f *Fault) IsNodeFault() bool {
	return f != nil && (f.Type == FaultNodeDown || f.Type == FaultNodeUp)
}

// MaxFaultCount bounds --count (the pods of a simulation).
const MaxFaultCount = store.MaxPods

const faultUsage = "use node-down NODE, node-up NODE, crash pod/NAME, crash deployment/NAME, " +
	"crash -l SELECTOR [--count=N] or delete pod -l SELECTOR [--count=N]"

// ParseFault parses `node-down NODE | node-up NODE | crash pod/NAME | crash
// deployment/NAME | crash -l SELECTOR [--count=N] | delete pod -l SELECTOR
// [--count=N]` (po and deploy work too; --selector for -l; a selector with
// blanks is quoted, 'app in (web, api)'). Errors are *SyntaxError.
func ParseFault(s string) (*Fault, error) {
	f, err := parseFault(s)
	if err != nil {
		return nil, withColumn(s, err)
	}
	return f, nil
}

// faultWord is a word of a fault, unquoted, with its offset.
type faultWord struct {
	text string
	off  int
}

// faultWords splits s on blanks; a word may be quoted with ' or ".
func faultWords(s string) ([]faultWord, error) {
	var out []faultWord
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '\'' || c == '"':
			end := strings.IndexByte(s[i+1:], c)
			if end < 0 {
				return nil, syntaxErr(i, "unterminated %c quote", c)
			}
			out = append(out, faultWord{text: s[i+1 : i+1+end], off: i})
			i += end + 2
		default:
			j := i
			for j < len(s) && s[j] != ' ' && s[j] != '\t' {
				j++
			}
			out = append(out, faultWord{text: s[i:j], off: i})
			i = j
		}
	}
	return out, nil
}

func parseFault(s string) (*Fault, error) {
	words, err := faultWords(s)
	if err != nil {
		return nil, err
	}
	if len(words) == 0 {
		return nil, syntaxErr(len(s)-len(strings.TrimLeft(s, " \t")), "empty fault; %s", faultUsage)
	}
	typ, end := words[0], len(s)
	arg := faultWord{off: end}
	if len(words) > 1 {
		arg = words[1]
	}
	switch typ.text {
	case string(FaultNodeDown), string(FaultNodeUp):
		if arg.text == "" {
			return nil, syntaxErr(arg.off, "%s needs a node name", typ.text)
		}
		if len(words) > 2 {
			return nil, syntaxErr(words[2].off, "unexpected %q after the fault; %s", s[words[2].off:], faultUsage)
		}
		if strings.Contains(arg.text, "/") {
			return nil, syntaxErr(arg.off, "%s takes a node name such as node-2, not %q", typ.text, arg.text)
		}
		return &Fault{Type: FaultType(typ.text), Target: arg.text}, nil
	case "crash":
		if strings.HasPrefix(arg.text, "-") {
			return selectorFault(FaultCrashSelector, "crash", words[1:], end)
		}
		if len(words) > 2 {
			return nil, syntaxErr(words[2].off, "unexpected %q after the fault; %s", s[words[2].off:], faultUsage)
		}
		kindName, name, ok := strings.Cut(arg.text, "/")
		kind, known := LookupKind(kindName)
		if !ok || !known || (kind != api.KindPod && kind != api.KindDeployment) {
			return nil, syntaxErr(arg.off, "crash takes pod/NAME, deployment/NAME or -l SELECTOR, not %q", arg.text)
		}
		if name == "" || strings.Contains(name, "/") {
			return nil, syntaxErr(arg.off+len(kindName)+1, "invalid name %q after %q", name, kindName+"/")
		}
		if kind == api.KindPod {
			return &Fault{Type: FaultCrashPod, Target: name}, nil
		}
		return &Fault{Type: FaultCrashDeployment, Target: name}, nil
	case "delete":
		if kind, known := LookupKind(arg.text); !known || kind != api.KindPod {
			return nil, syntaxErr(arg.off, "delete takes pod -l SELECTOR [--count=N], not %q", arg.text)
		}
		return selectorFault(FaultDeleteSelector, "delete pod", words[2:], end)
	}
	msg := fmt.Sprintf("unknown fault %q", typ.text)
	if sug := manifest.Suggest(typ.text, []string{string(FaultNodeDown), string(FaultNodeUp), "crash", "delete"}); sug != "" {
		msg += fmt.Sprintf("; did you mean %q?", sug)
	}
	return nil, syntaxErr(typ.off, "%s; %s", msg, faultUsage)
}

// selectorFault parses the flags of `crash -l ...` and `delete pod -l ...`:
// -l SELECTOR (or -l=SELECTOR, --selector), required, and --count N (or
// --count=N), at least 1.
func selectorFault(typ FaultType, what string, words []faultWord, end int) (*Fault, error) {
	f := &Fault{Type: typ}
	selAt := -1
	for i := 0; i < len(words); i++ {
		w := words[i]
		name, value, inline := strings.Cut(w.text, "=")
		valOff := w.off + len(name) + 1
		if !inline {
			if i+1 >= len(words) {
				switch name {
				case "-l", "--selector", "--count":
					return nil, syntaxErr(end, "%s needs a value", name)
				}
			} else {
				value, valOff = words[i+1].text, words[i+1].off
			}
		}
		switch name {
		case "-l", "--selector":
			if selAt >= 0 {
				return nil, syntaxErr(w.off, "%s given twice", name)
			}
			if _, err := labels.Parse(value); err != nil || strings.TrimSpace(value) == "" {
				msg := "a selector such as app=web is required"
				if err != nil {
					msg = err.Error()
				}
				return nil, syntaxErr(valOff, "invalid selector %q: %s", value, msg)
			}
			f.Selector, selAt = value, w.off
		case "--count":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 || n > MaxFaultCount {
				return nil, syntaxErr(valOff, "--count takes a number of pods from 1 to %d, not %q", MaxFaultCount, value)
			}
			f.Count = n
		default:
			return nil, syntaxErr(w.off, "unexpected %q; %s takes -l SELECTOR [--count=N]", w.text, what)
		}
		if !inline {
			i++
		}
	}
	if selAt < 0 {
		return nil, syntaxErr(end, "%s needs -l SELECTOR, e.g. %s -l app=web --count=1", what, what)
	}
	return f, nil
}
