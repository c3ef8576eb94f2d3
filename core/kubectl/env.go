package kubectl

import (
	"converge/core/controller"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"converge/core/api"
	"converge/core/store"
)

// Env is what a command runs against.
type Env struct {
	Store *store.Store
	// Files is the filesystem `-f FILE` reads. FILE is a slash-separated
	// path as the user typed it: an absolute one (/tmp/web.yaml) names
	// tmp/web.yaml in Files, a relative one is below Dir. With a nil Files
	// there are no files and every FILE "does not exist" (a scenario's
	// kubectl steps).
	Files fs.FS
	// Dir is the working directory inside Files, an io/fs path such as
	// "home/me/demo" ("" or "." for its root).
	Dir string
	// Stdin is what `-f -` reads, once; nil reads nothing.
	Stdin io.Reader
	// Decode turns manifest YAML/JSON into objects (the core/manifest
	// decoder, injected to avoid an import cycle).
	Decode func(data []byte, source string) ([]api.Object, error)
	// Metrics is the resource metrics API (the simulation's metrics
	// server) that kubectl top reads; nil when the cluster serves none.
	Metrics controller.MetricsAPI
}

// Result is what a command printed.
type Result struct {
	// Output is what kubectl prints on stdout, plus its informational stderr
	// lines (warnings, "No resources found ..."), without the final newline.
	Output string
	// Error is kubectl's stderr text for a failure, "" on success.
	Error string
	// Mutated reports whether the command changed the store.
	Mutated bool
	// Wait is set when the command has not ended: it goes on as the
	// simulation advances (rollout status, wait, drain), see Waiter.
	Wait Waiter
}

// OK reports whether the command succeeded.
func (r Result) OK() bool { return r.Error == "" }

// Run parses a command line and runs it.
func Run(env *Env, line string) Result {
	c, err := Parse(line)
	if _, ok := err.(rootHelpError); ok {
		return Result{Output: rootHelp()}
	}
	if err != nil {
		return Result{Error: trimNL(err.Error())}
	}
	return c.Exec(env)
}

// Exec runs the command against env. A command that fails changes nothing,
// except where kubectl itself gets half-way: drain cordons the node before
// it finds pods it cannot evict, and commands on several objects keep the
// changes made before the failing one.
func (c *Command) Exec(env *Env) (res Result) {
	if c == nil || c.spec == nil || env == nil || env.Store == nil {
		return Result{Error: withErrorPrefix(msgNoStore)}
	}
	if c.help() || c.spec.run == nil {
		return Result{Output: trimNL(helpText(c.spec))}
	}
	x := &execCtx{env: env, cmd: c, st: env.Store, ns: c.namespace(), dry: c.dryRun()}
	if x.dry != "" {
		x.st = env.Store.Clone(env.Store.Clock().Clone())
	}
	before := env.Store.ResourceVersion()
	prev := x.st.SetWriter(store.Writer{Manager: c.fieldManager(), By: c.path()})
	err := c.spec.run(x)
	x.st.SetWriter(prev)
	if err != nil {
		x.errText(renderError(err))
	}
	res = Result{Output: trimNL(x.out.String()), Error: trimNL(x.errw.String()), Mutated: env.Store.ResourceVersion() != before}
	if err == nil && x.dry == "" {
		res.Wait = x.wait
	}
	return res
}

// fieldManager is the manager the command's writes carry: its
// --field-manager (whose default is the command's own, such as
// kubectl-set), or, for a command without the flag, "kubectl", the first
// word of kubectl's user agent, which the API server takes instead.
func (c *Command) fieldManager() string {
	if c.flagSpec(fFieldManager.name) != nil {
		if m := c.str(fFieldManager.name); m != "" {
			return m
		}
	}
	return store.ManagerKubectl
}

// execCtx is one running command.
type execCtx struct {
	env  *Env
	cmd  *Command
	st   *store.Store // env.Store, or a scratch copy for --dry-run
	ns   string
	dry  string // "", "client" or "server"
	out  strings.Builder
	errw strings.Builder
	// printed counts objects printed as YAML: kubectl's YAML printer puts
	// "---" before every document but the first.
	printed int
	// listMany is set by label and annotate --list when they list several
	// objects: each gets a "Listing labels for ..." header.
	listMany bool
	// wait is the rest of a command that goes on (see Waiter).
	wait Waiter
	// watchRows: get -w printing the rows of a watch event, without
	// headers.
	watchRows bool
	// warned: the API server's warnings printed so far; kubectl prints
	// each once a command (its warning writer deduplicates).
	warned map[string]bool
}

// printf writes to stdout.
func (x *execCtx) printf(format string, a ...any) { fmt.Fprintf(&x.out, format, a...) }

// warn prints kubectl's "Warning: ..." line.
func (x *execCtx) warn(msg string) { x.printf(msgWarning+"\n", msg) }

// serverWarning prints a warning the API server sends with its answer
// (the Warning header), once a command, as kubectl's deduplicating
// warning writer does.
func (x *execCtx) serverWarning(msg string) {
	if x.warned[msg] {
		return
	}
	if x.warned == nil {
		x.warned = map[string]bool{}
	}
	x.warned[msg] = true
	x.warn(msg)
}

// errText writes a line of error text (stderr).
func (x *execCtx) errText(s string) {
	if s == "" {
		return
	}
	x.errw.WriteString(s)
	if !strings.HasSuffix(s, "\n") {
		x.errw.WriteByte('\n')
	}
}

// printName is kubectl's name printer: "deployment.apps/web scaled", with
// the dry-run suffix when there is one.
func (x *execCtx) printName(rt *resourceType, name, operation string) {
	if x.cmd.str("output") == "name" {
		x.printf("%s\n", ref(rt, name))
		return
	}
	x.printf("%s %s\n", ref(rt, name), x.withDryRun(operation))
}

func (x *execCtx) withDryRun(operation string) string {
	switch x.dry {
	case "client":
		return operation + " (dry run)"
	case "server":
		return operation + " (server dry run)"
	}
	return operation
}

// now is the simulated time.
func (x *execCtx) now() api.Time { return x.st.Now() }

func trimNL(s string) string { return strings.TrimRight(s, "\n") }
