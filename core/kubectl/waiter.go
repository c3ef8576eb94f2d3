package kubectl

import (
	"fmt"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/labels"
)

// Waiter is a command that goes on after Exec returned, as real kubectl
// blocks on a watch: `rollout status` watching a Deployment until it is
// rolled out, `wait --for=...` until a condition holds, `drain` retrying its
// evictions. Exec prints what the command printed at once and hands back
// the rest of the command as Result.Wait, a continuation; the simulation
// (core/sim) polls it once every simulated second, after the control
// plane's round, until a Poll reports Done. A Waiter is deterministic: it
// reads the time and the cluster from the Env it is polled with, and keeps
// its own state (what it printed, its deadline) in itself, which Clone
// copies for the simulation's checkpoints.
//
// A command that waits is written as Exec's run function plus a Waiter:
// the run function checks its arguments and looks once (as kubectl's first
// List), prints, and either ends (x.wait stays nil) or sets x.wait.
type Waiter interface {
	// Poll looks at the cluster again and returns what the command printed
	// since the last poll and whether it has ended.
	Poll(env *Env) Poll
	// Clone returns an independent copy.
	Clone() Waiter
}

// Poll is what a waiting command did in one poll.
type Poll struct {
	// Output is what it printed (stdout), without the final newline.
	Output string
	// Error is kubectl's error text when it ended in failure.
	Error string
	// Done reports that the command has ended; Error says how.
	Done bool
}

// errTimedOut is the text of wait.ErrorInterrupted, what a watch whose
// --timeout ran out returns.
const errTimedOut = "timed out waiting for the condition"

// deadlineOf returns when a --timeout of d from now runs out; zero for none.
func deadlineOf(now time.Time, d time.Duration) time.Time {
	if d <= 0 {
		return time.Time{}
	}
	return now.Add(d)
}

// expired reports whether a deadline has run out at now. A poll runs
// after the second's control-plane round: what changed in second t happened
// after the instant t, so a deadline of t has run out by then.
func expired(deadline, now time.Time) bool { return !deadline.IsZero() && !now.Before(deadline) }

// timeoutFlag returns --timeout's value (checked by Parse).
func (c *Command) timeoutFlag() time.Duration {
	d, _ := time.ParseDuration(c.str("timeout"))
	return d
}

// rolloutStatusWait is `rollout status` watching a Deployment: at each poll
// it prints the status line when it changed (kubectl prints it on every
// watch event of the Deployment, so the same line often repeats there), and
// ends when the rollout is done, when the Deployment is gone, when the
// progress deadline is exceeded, or when --timeout runs out.
type rolloutStatusWait struct {
	ns, name, uid string
	revision      int64
	deadline      time.Time
	last          string
}

var _ Waiter = (*rolloutStatusWait)(nil)

func (w *rolloutStatusWait) Clone() Waiter { x := *w; return &x }

func (w *rolloutStatusWait) Poll(env *Env) Poll {
	if expired(w.deadline, env.Store.Clock().Now()) {
		return Poll{Done: true, Error: withErrorPrefix(errTimedOut)}
	}
	d, err := env.Store.GetDeployment(w.ns, w.name)
	if err != nil || d.UID != w.uid {
		// The watch saw a Deleted event: kubectl aborts rather than watch
		// a new object of the same name.
		return Poll{Done: true, Error: withErrorPrefix("object has been deleted")}
	}
	line, done, err := RolloutStatus(d, w.revision)
	if err != nil {
		return Poll{Done: true, Error: trimNL(renderError(err))}
	}
	var p Poll
	if line != w.last {
		p.Output, w.last = line, line
	}
	p.Done = done
	return p
}

// waitCondition is one --for of `kubectl wait`.
type waitCondition struct {
	kind string // "create", "delete", "condition", "jsonpath"
	// condition=NAME[=VALUE]
	name, value string
	// jsonpath='{...}'[=VALUE]
	path     jsonPath
	anyValue bool
}

// waitTarget is one object `kubectl wait` waits on.
type waitTarget struct {
	rt        *resourceType
	ns, name  string
	uid       string // at the start ("" when it did not exist)
	printName string // what the name printer prints: deployment.apps/web
}

// waitWait is `kubectl wait`: it goes through the objects in order and, for
// each, through the conditions in order, printing "<object> condition met"
// for each that holds, and waits where one does not yet. --timeout (30s by
// default) counts from the start for the whole command.
type waitWait struct {
	targets    []waitTarget
	conds      []waitCondition
	output     string // -o: "" or "name"
	deadline   time.Time
	next, cond int // the object and the condition being waited on
	// create is set for --for=create on a resource type (with -l or --all)
	// of which nothing existed yet: the first poll that finds objects of it
	// waits on them.
	create *waitCreate
}

// waitCreate is what `wait --for=create TYPE -l SEL` lists until it finds
// something.
type waitCreate struct {
	rt  *resourceType
	ns  string
	sel labels.Selector
}

var _ Waiter = (*waitWait)(nil)

func (w *waitWait) Clone() Waiter {
	x := *w
	x.targets = append([]waitTarget(nil), w.targets...)
	return &x
}

func (w *waitWait) Poll(env *Env) Poll {
	now := env.Store.Clock().Now()
	if w.create != nil {
		x := &execCtx{env: env, st: env.Store, ns: w.create.ns}
		for _, in := range x.list(w.create.rt, w.create.sel, false) {
			m := in.obj.GetObjectMeta()
			w.targets = append(w.targets, waitTarget{rt: in.rt, ns: m.Namespace, name: m.Name, uid: m.UID, printName: ref(in.rt, m.Name)})
		}
		if len(w.targets) == 0 {
			if expired(w.deadline, now) {
				return Poll{Done: true, Error: withErrorPrefix(errTimedOut)}
			}
			return Poll{}
		}
		w.create = nil
	}
	var out []string
	for w.next < len(w.targets) {
		t := &w.targets[w.next]
		if expired(w.deadline, now) {
			return Poll{Output: strings.Join(out, "\n"), Done: true, Error: w.timedOut()}
		}
		for w.cond < len(w.conds) {
			ok, err := w.conds[w.cond].met(env, t)
			if err != nil {
				return Poll{Output: strings.Join(out, "\n"), Done: true, Error: withErrorPrefix(err.Error())}
			}
			if !ok {
				return Poll{Output: strings.Join(out, "\n")}
			}
			out = append(out, w.metLine(t))
			w.cond++
		}
		w.next, w.cond = w.next+1, 0
	}
	return Poll{Output: strings.Join(out, "\n"), Done: true}
}

// timedOut is the error of a wait whose --timeout ran out at w.next:
// kubectl's visitor goes on through the objects left (ContinueOnError),
// and each, its watch started with the command's context already done,
// times out at once, even one that meets the condition; CheckErr prints
// one error with "error: ", several one a line without it (an aggregate).
func (w *waitWait) timedOut() string {
	var errs []string
	for _, t := range w.targets[w.next:] {
		errs = append(errs, fmt.Sprintf("%s on %s/%s", errTimedOut, t.rt.Plural, t.name))
	}
	if len(errs) == 1 {
		return withErrorPrefix(errs[0])
	}
	return strings.Join(errs, "\n")
}

func (w *waitWait) metLine(t *waitTarget) string {
	if w.output == outputName {
		return t.printName
	}
	return t.printName + " condition met"
}

// met checks one condition on one object now.
func (c *waitCondition) met(env *Env, t *waitTarget) (bool, error) {
	obj, err := env.Store.Get(t.rt.Kind, t.ns, t.name)
	switch c.kind {
	case "create":
		return err == nil, nil
	case "delete":
		// Gone, or another object of that name (the watch saw a Deleted).
		return err != nil || (t.uid != "" && obj.GetObjectMeta().UID != t.uid), nil
	}
	if err != nil {
		return false, nil // a deleted object: the watch goes on
	}
	v, err := toJSONValue(obj)
	if err != nil {
		return false, err
	}
	if c.kind == "condition" {
		return conditionMet(v, c.name, c.value), nil
	}
	return c.path.met(v, c.value, c.anyValue)
}

// conditionMet is ConditionalWait.checkCondition: the first condition of
// the type (compared ignoring case) decides, its status compared ignoring
// case, and a condition whose observedGeneration (its own, or the
// status's) is behind metadata.generation does not count yet.
func conditionMet(obj any, name, value string) bool {
	m, _ := obj.(map[string]any)
	status, _ := m["status"].(map[string]any)
	conds, _ := status["conditions"].([]any)
	for _, ci := range conds {
		c, ok := ci.(map[string]any)
		if !ok {
			continue
		}
		typ, _ := c["type"].(string)
		if !strings.EqualFold(typ, name) {
			continue
		}
		st, ok := c["status"].(string)
		if !ok {
			continue
		}
		meta, _ := m["metadata"].(map[string]any)
		if gen, ok := number(meta["generation"]); ok {
			og, found := number(c["observedGeneration"])
			if !found {
				og, found = number(status["observedGeneration"])
			}
			if found && og < gen {
				return false
			}
		}
		return strings.EqualFold(st, value)
	}
	return false
}

func number(v any) (int64, bool) {
	switch n := v.(type) {
	case interface{ Int64() (int64, error) }:
		i, err := n.Int64()
		return i, err == nil
	case float64:
		return int64(n), true
	}
	return 0, false
}

// parseWaitConditions is conditionFuncsFor: --for=create, delete,
// condition=NAME[=VALUE] or jsonpath='{EXPR}'[=VALUE], several allowed.
func parseWaitConditions(fors []string) ([]waitCondition, error) {
	var out []waitCondition
	for _, f := range fors {
		lower := strings.ToLower(f)
		switch {
		case lower == "delete" || lower == "create":
			out = append(out, waitCondition{kind: lower})
		case strings.HasPrefix(f, "condition="):
			name, value := strings.TrimPrefix(f, "condition="), "true"
			if i := strings.Index(name, "="); i >= 0 {
				name, value = name[:i], name[i+1:]
			}
			out = append(out, waitCondition{kind: "condition", name: name, value: value})
		case strings.HasPrefix(f, "jsonpath="):
			expr, value, err := processJSONPathInput(strings.TrimPrefix(f, "jsonpath="))
			if err != nil {
				return nil, err
			}
			p, err := parseJSONPath(expr)
			if err != nil {
				return nil, err
			}
			out = append(out, waitCondition{kind: "jsonpath", path: p, value: value, anyValue: value == ""})
		default:
			return nil, fmt.Errorf("unrecognized condition: %q", f)
		}
	}
	if out == nil {
		return nil, fmt.Errorf("unrecognized condition: %q", fors)
	}
	return out, nil
}

// runWait is `kubectl wait`.
func runWait(x *execCtx) error {
	c := x.cmd
	conds, err := parseWaitConditions(c.list("for"))
	if err != nil {
		return &plainError{msg: err.Error()}
	}
	out := c.str("output")
	if out != "" && out != outputName {
		return checkOutput(out, false)
	}
	timeout := c.timeoutFlag()
	if timeout < 0 {
		timeout = 168 * time.Hour
	}
	hasCreate, hasDelete := false, false
	for _, k := range conds {
		hasCreate = hasCreate || k.kind == "create"
		hasDelete = hasDelete || k.kind == "delete"
	}
	targets, _, err := x.targetsFromArgsOrFiles(c.Args)
	if err != nil {
		return err
	}
	sel, err := x.selector()
	if err != nil {
		return err
	}
	if c.boolean("all") {
		sel = everything()
	}
	w := &waitWait{conds: conds, output: out, deadline: deadlineOf(x.now().Time, timeout)}
	infos, errs := x.visit(targets, sel, c.boolean("all-namespaces"))
	for _, e := range errs {
		if hasCreate || (hasDelete && isNotFound(e)) {
			continue
		}
		return e
	}
	for _, in := range infos {
		m := in.obj.GetObjectMeta()
		w.targets = append(w.targets, waitTarget{rt: in.rt, ns: m.Namespace, name: m.Name, uid: m.UID, printName: ref(in.rt, m.Name)})
	}
	if hasCreate {
		// Named objects that do not exist yet are waited for too.
		for _, t := range targets {
			if t.name == "" || w.has(t.rt, t.name) {
				continue
			}
			w.targets = append(w.targets, waitTarget{rt: t.rt, ns: x.nsFor(t.rt), name: t.name, printName: ref(t.rt, t.name)})
		}
	}
	if len(w.targets) == 0 && hasCreate {
		for _, t := range targets {
			if t.name == "" {
				w.create = &waitCreate{rt: t.rt, ns: x.nsFor(t.rt), sel: sel}
				break
			}
		}
	}
	if len(w.targets) == 0 && w.create == nil {
		if hasDelete {
			return nil
		}
		return &plainError{msg: "no matching resources found"}
	}
	if timeout == 0 {
		// Check once and do not wait.
		p := w.Poll(x.env)
		x.printf("%s", withNL(p.Output))
		if p.Done {
			if p.Error != "" {
				return &plainError{text: p.Error}
			}
			return nil
		}
		if w.next >= len(w.targets) {
			return &plainError{msg: "no matching resources found"}
		}
		return &plainError{msg: fmt.Sprintf("condition not met for %s/%s", w.targets[w.next].rt.Plural, w.targets[w.next].name)}
	}
	p := w.Poll(x.env)
	x.printf("%s", withNL(p.Output))
	switch {
	case p.Done && p.Error != "":
		return &plainError{text: p.Error}
	case !p.Done:
		x.wait = w
	}
	return nil
}

func (w *waitWait) has(rt *resourceType, name string) bool {
	for _, t := range w.targets {
		if t.rt.Kind == rt.Kind && t.name == name {
			return true
		}
	}
	return false
}

func withNL(s string) string {
	if s == "" {
		return ""
	}
	return s + "\n"
}

// runRolloutStatus is `rollout status`: it prints the rollout's line and,
// unless the rollout is done (or --watch=false), goes on watching it (a
// rolloutStatusWait).
func runRolloutStatus(x *execCtx) error {
	rev := x.cmd.integer("revision")
	if err := x.requireResources(); err != nil {
		return err
	}
	if rev < 0 {
		return &plainError{msg: fmt.Sprintf(msgRevisionPositive, rev)}
	}
	infos, err := x.rolloutInfos()
	if err != nil {
		return err
	}
	if len(infos) != 1 {
		return &plainError{msg: fmt.Sprintf(msgStatusOneResource, len(infos))}
	}
	d, ok := infos[0].obj.(*api.Deployment)
	if !ok {
		return &plainError{msg: fmt.Sprintf(msgNoStatusViewer, infos[0].rt.GroupKind())}
	}
	line, done, err := RolloutStatus(d, rev)
	if err != nil {
		return err
	}
	x.printf("%s\n", line)
	if done || !x.cmd.boolean("watch") {
		return nil
	}
	x.wait = &rolloutStatusWait{ns: d.Namespace, name: d.Name, uid: d.UID, revision: rev, last: line,
		deadline: deadlineOf(x.now().Time, x.cmd.timeoutFlag())}
	return nil
}
