package scenario

import (
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/manifest"
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
)

// Fault is a parsed `fault` step: node-down NODE, node-up NODE, crash
// pod/NAME or crash deployment/NAME.
type Fault struct {
	Type FaultType
	// Target is the node, pod or Deployment name.
	Target string
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
	}
	return fmt.Sprintf("%s %s", f.Type, f.Target)
}

// IsNodeFault reports whether the fault targets a node.
func (f *Fault) IsNodeFault() bool {
	return f != nil && (f.Type == FaultNodeDown || f.Type == FaultNodeUp)
}

const faultUsage = "use node-down NODE, node-up NODE, crash pod/NAME or crash deployment/NAME"

// ParseFault parses `node-down NODE | node-up NODE | crash pod/NAME | crash
// deployment/NAME` (po and deploy work too). Errors are *SyntaxError.
func ParseFault(s string) (*Fault, error) {
	f, err := parseFault(s)
	if err != nil {
		return nil, withColumn(s, err)
	}
	return f, nil
}

func parseFault(s string) (*Fault, error) {
	p := &exprParser{src: s}
	p.skipSpace()
	typ, typOff := p.word()
	p.skipSpace()
	arg, argOff := p.word()
	p.skipSpace()
	if !p.eof() {
		return nil, syntaxErr(p.off, "unexpected %q after the fault; %s", p.src[p.off:], faultUsage)
	}
	switch typ {
	case string(FaultNodeDown), string(FaultNodeUp):
		if arg == "" {
			return nil, syntaxErr(argOff, "%s needs a node name", typ)
		}
		if strings.Contains(arg, "/") {
			return nil, syntaxErr(argOff, "%s takes a node name such as node-2, not %q", typ, arg)
		}
		return &Fault{Type: FaultType(typ), Target: arg}, nil
	case "crash":
		kindName, name, ok := strings.Cut(arg, "/")
		kind, known := LookupKind(kindName)
		if !ok || !known || (kind != api.KindPod && kind != api.KindDeployment) {
			return nil, syntaxErr(argOff, "crash takes pod/NAME or deployment/NAME, not %q", arg)
		}
		if name == "" || strings.Contains(name, "/") {
			return nil, syntaxErr(argOff+len(kindName)+1, "invalid name %q after %q", name, kindName+"/")
		}
		if kind == api.KindPod {
			return &Fault{Type: FaultCrashPod, Target: name}, nil
		}
		return &Fault{Type: FaultCrashDeployment, Target: name}, nil
	case "":
		return nil, syntaxErr(typOff, "empty fault; %s", faultUsage)
	}
	msg := fmt.Sprintf("unknown fault %q", typ)
	if sug := manifest.Suggest(typ, []string{string(FaultNodeDown), string(FaultNodeUp), "crash"}); sug != "" {
		msg += fmt.Sprintf("; did you mean %q?", sug)
	}
	return nil, syntaxErr(typOff, "%s; %s", msg, faultUsage)
}
