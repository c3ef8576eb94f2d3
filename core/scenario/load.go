package scenario

import (
	"fmt"
	"strings"

	"converge/core/api"
)

// LoadStep is a parsed `load` step: the total CPU and memory the traffic of a
// Deployment demands, spread over its ready pods (docs/scenarios.md).
type LoadStep struct {
	// Deployment is the Deployment's name.
	Deployment string
	// CPU and Memory are set when the step names them.
	CPU, Memory *api.Quantity
}

// String renders the load as ParseLoad reads it.
func (l *LoadStep) String() string {
	if l == nil {
		return ""
	}
	s := "deployment/" + l.Deployment
	if l.CPU != nil {
		s += " cpu=" + l.CPU.String()
	}
	if l.Memory != nil {
		s += " memory=" + l.Memory.String()
	}
	return s
}

const loadUsage = "use deployment/NAME cpu=QUANTITY [memory=QUANTITY], such as deployment/api cpu=300m"

// ParseLoad parses `deployment/NAME cpu=300m memory=512Mi` (at least one of
// cpu and memory, each at most once, not negative). Errors are *SyntaxError.
func ParseLoad(s string) (*LoadStep, error) {
	l, err := parseLoad(s)
	if err != nil {
		return nil, withColumn(s, err)
	}
	return l, nil
}

func parseLoad(s string) (*LoadStep, error) {
	p := &exprParser{src: s}
	p.skipSpace()
	target, off := p.word()
	kindName, name, ok := strings.Cut(target, "/")
	kind, known := LookupKind(kindName)
	if target == "" {
		return nil, syntaxErr(off, "empty load; %s", loadUsage)
	}
	if !ok || !known || kind != api.KindDeployment {
		return nil, syntaxErr(off, "load takes deployment/NAME, not %q; %s", target, loadUsage)
	}
	if name == "" || strings.Contains(name, "/") {
		return nil, syntaxErr(off+len(kindName)+1, "invalid name %q after %q", name, kindName+"/")
	}
	l := &LoadStep{Deployment: name}
	for {
		p.skipSpace()
		if p.eof() {
			break
		}
		w, woff := p.word()
		key, val, ok := strings.Cut(w, "=")
		var dst **api.Quantity
		switch key {
		case api.ResourceCPU:
			dst = &l.CPU
		case api.ResourceMemory:
			dst = &l.Memory
		default:
			return nil, syntaxErr(woff, "unknown resource %q; a load names cpu=QUANTITY and memory=QUANTITY", key)
		}
		if !ok || val == "" {
			return nil, syntaxErr(woff, "%s needs a quantity: %s=QUANTITY", key, key)
		}
		if *dst != nil {
			return nil, syntaxErr(woff, "%s is given twice", key)
		}
		q, err := api.ParseQuantity(val)
		if err != nil {
			return nil, syntaxErr(woff+len(key)+1, "invalid %s quantity %q: %v", key, val, err)
		}
		if q.Sign() < 0 {
			return nil, syntaxErr(woff+len(key)+1, "%s must not be negative, not %s", key, val)
		}
		*dst = &q
	}
	if l.CPU == nil && l.Memory == nil {
		return nil, syntaxErr(len(s), "a load needs cpu=QUANTITY or memory=QUANTITY; %s", loadUsage)
	}
	return l, nil
}

// errNoGitOps is a commit step's error in a scenario without cluster.gitops.
var errNoGitOps = fmt.Errorf("a commit step needs cluster.gitops: the repository it commits to")
