package view

import (
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/sim"
	"converge/core/store"
)

// Rejection is a step or console command that the API server or kubectl
// refused, with the refusal's exact text. The page shows the ones of the
// current second where the eye is: the why panel's "Rejected" line, a
// Warning row in Events, the selector it is about in Selectors, the
// console and the editor.
type Rejection struct {
	// Key is "step/INDEX" for a scenario step, "console/KEY" for a
	// console command.
	Key string
	// T is the second it was refused at, At the same as "20s".
	T  int64
	At string
	// Action is what was refused: "apply deployment/web", "kubectl scale
	// deployment/web --replicas=-1".
	Action string
	// Message is the API server's or kubectl's text, as kubectl prints it.
	Message string
	// Object is what it is about, "deployment/web", when the text or the
	// manifest says so; "" otherwise.
	Object string
	// Age is "now" or "3s ago": how long it has been on screen
	// (RefusalsOnScreen); "" elsewhere.
	Age string
	// Expected is set when the scenario's expectError expected it.
	Expected bool
	// Console is set for a command typed in the console (it did not
	// become a step).
	Console bool
	// Line is where the step is written in the scenario (0 for a console
	// command or a step added at run time).
	Line int
	// Selector and Labels are the refused manifest's selector and pod
	// template labels (the -l form) when the refusal is about a
	// selector; "" otherwise.
	Selector, Labels string
}

// StepRejections lists the kubectl and apply steps of the scenario that
// were refused by the current second, in scenario order (a step that
// failed after it started waiting, rollout status timing out, is no
// refusal).
func StepRejections(s *sim.Sim) []Rejection {
	var out []Rejection
	steps := s.Scenario().Steps
	for _, r := range s.StepResults() {
		if r.Expect || r.Error == "" || r.Index < 0 || r.Index >= len(steps) {
			continue
		}
		st := steps[r.Index]
		if st.Kubectl == "" && len(st.Apply) == 0 {
			continue
		}
		if r.Waiting || waits(st.Kubectl) || (st.ExpectError != "" && !r.OK) {
			// Still waiting, or a wait that ended badly; or a step that
			// did not fail as its expectError said (no refusal to show).
			continue
		}
		t := int64(st.At / time.Second)
		rej := Rejection{Key: "step/" + strconv.Itoa(r.Index), T: t, At: strconv.FormatInt(t, 10) + "s", Action: r.Action,
			Message: r.Error, Expected: st.ExpectError != "", Line: st.Line}
		rej.Object = objectOf(r.Error)
		for _, d := range st.Apply {
			dep, ok := d.Object.(*api.Deployment)
			if !ok {
				continue
			}
			if rej.Object == "" {
				rej.Object = store.ShortRef(api.KindDeployment, dep.Name)
			}
			if strings.Contains(rej.Message, "selector") && dep.Spec.Selector != nil {
				if sel, err := labels.FromLabelSelector(dep.Spec.Selector); err == nil {
					rej.Selector = sel.String()
				}
				rej.Labels = labels.FormatLabels(dep.Spec.Template.Labels)
			}
		}
		out = append(out, rej)
	}
	return out
}

// objectOf is the object an API server text names, "deployment/web", or
// "": the first of `The Deployment "web" is invalid` and `deployments.apps
// "web" not found` in msg. (The page's wasm links no regexp package:
// findObject is the expression
// `The ([A-Za-z]+) "([^"]+)" is invalid|([a-z]+(?:\.[a-z.]+)?) "([^"]+)" not found`
// written out, which its test checks against it.)
func objectOf(msg string) string {
	kind, name, resource, ok := findObject(msg)
	switch {
	case !ok:
		return ""
	case kind != "":
		return store.ShortRef(kind, name)
	}
	if rt, found := api.LookupResource(resource); found {
		return store.ShortRef(rt.Kind, name)
	}
	return ""
}

// findObject returns the leftmost match in msg of the API server's two
// texts that name an object: a kind and name for "is invalid", a resource
// and name for "not found".
func findObject(msg string) (kind, name, resource string, ok bool) {
	for start := 0; start < len(msg); start++ {
		if k, n, found := invalidAt(msg[start:]); found {
			return k, n, "", true
		}
		if r, n, found := notFoundAt(msg[start:]); found {
			return "", n, r, true
		}
	}
	return "", "", "", false
}

// invalidAt matches `The ([A-Za-z]+) "([^"]+)" is invalid` at the start of s.
func invalidAt(s string) (kind, name string, ok bool) {
	rest, found := strings.CutPrefix(s, "The ")
	if !found {
		return "", "", false
	}
	i := 0
	for i < len(rest) && (rest[i] >= 'a' && rest[i] <= 'z' || rest[i] >= 'A' && rest[i] <= 'Z') {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	name, ok = quotedThen(rest[i:], `" is invalid`)
	return rest[:i], name, ok
}

// notFoundAt matches `([a-z]+(?:\.[a-z.]+)?) "([^"]+)" not found` at the
// start of s.
func notFoundAt(s string) (resource, name string, ok bool) {
	lower := func(c byte) bool { return c >= 'a' && c <= 'z' }
	i := 0
	for i < len(s) && lower(s[i]) {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	if i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && (lower(s[j]) || s[j] == '.') {
			j++
		}
		if j > i+1 {
			if name, ok := quotedThen(s[j:], `" not found`); ok {
				return s[:j], name, true
			}
		}
	}
	name, ok = quotedThen(s[i:], `" not found`)
	return s[:i], name, ok
}

// quotedThen matches ` "([^"]+)` followed by tail at the start of s.
func quotedThen(s, tail string) (string, bool) {
	rest, found := strings.CutPrefix(s, ` "`)
	if !found {
		return "", false
	}
	end := strings.IndexByte(rest, '"')
	if end <= 0 || !strings.HasPrefix(rest[end:], tail) {
		return "", false
	}
	return rest[:end], true
}

// Rejections are the refusals of second t: the scenario's steps and the
// console's commands (Console.Refusals), steps first.
func Rejections(s *sim.Sim, console []Rejection) []Rejection {
	var out []Rejection
	t := s.T()
	for _, r := range StepRejections(s) {
		if r.T == t {
			out = append(out, r)
		}
	}
	for _, r := range console {
		if r.T == t {
			out = append(out, r)
		}
	}
	return out
}

// waits reports whether a kubectl command line waits (rollout status,
// wait): its error is an outcome it waited for, not a refusal.
func waits(line string) bool {
	f := strings.Fields(line)
	return len(f) > 0 && (f[0] == "wait" || len(f) > 1 && f[0] == "rollout" && f[1] == "status")
}
