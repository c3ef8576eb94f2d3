// Command converge is Converge's command line: it serves the page, and runs,
// checks and shares scenarios natively. `converge --help` lists the commands.
//
// Each subcommand lives in its own file as a *command value (serve.go has
// serveCommand) and is listed once in the commands table below. The table
// entry is all the dispatcher needs: `converge NAME --help`, the flags, the
// exit status and the error line all come from it.
//
// Exit status (docs/cli.md): 0 success; 1 an expect did not hold; 2 bad
// input or usage. No input ever produces a Go panic or a stack trace: a bug
// that panics is reported as one line and exits 2.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"converge/core/version"
)

// commands is the table of subcommands, in the order `converge --help` lists
// them.
var commands = []*command{
	serveCommand,
	exportSiteCommand,
	exportNPMCommand,
	runCommand,
	compareCommand,
	validateCommand,
	shareCommand,
	unshareCommand,
	kubectlCommand,
	exportKubectlCommand,
	posterCommand,
}

// command is one subcommand.
type command struct {
	// name is the word after `converge`.
	name string
	// args is the synopsis after the name, e.g. "[--addr ADDR]".
	args string
	// summary is the one line that `converge --help` shows.
	summary string
	// help is the description that `converge NAME --help` shows under the
	// synopsis; it may be empty.
	help string
	// passthrough ends the command's own flags at its first positional
	// argument: that argument and everything after it reach run untouched
	// (for `converge kubectl`, whose arguments carry kubectl's flags).
	// Otherwise flags and positional arguments may be mixed, as in
	// `converge run FILE --output jsonl`, and `--` ends the flags.
	passthrough bool
	// flags registers the command's flags on fs and returns the function
	// that runs the command with the positional arguments once fs has parsed
	// them. A nil flags means the command has no flags and takes no arguments.
	flags func(fs *flag.FlagSet) runFunc
}

// runFunc runs a command. Its error decides the exit status (see exitError).
type runFunc func(ctx context.Context, e *env, args []string) error

// env is what a command may use of the process. Tests pass buffers.
type env struct {
	stdin io.Reader
	// stdout and stderr are terminal-safe (terminal.go) once runWith has
	// set them up: what a command prints is escaped there.
	stdout, stderr io.Writer
	// trace is standard output as it is, for the JSONL trace, which JSON
	// escapes itself; progress is standard error as it is, for run's
	// progress line on a terminal, which writes its own control sequences.
	// Nil until runWith sets them.
	trace, progress io.Writer
}

// terminalSafe returns e with its standard output and error escaped
// (terminalWriter) where they are a terminal, the raw ones kept as trace
// and progress, and the func that flushes what the writers hold. Into a
// file or a pipe the bytes go as they are (`converge unshare LINK >
// f.yaml` writes the scenario's very bytes).
func (e *env) terminalSafe() (*env, func()) {
	safe := &env{stdin: e.stdin, stdout: e.stdout, stderr: e.stderr, trace: e.stdout, progress: e.stderr}
	var writers []*terminalWriter
	if isTerminal(e.stdout) {
		w := &terminalWriter{w: e.stdout}
		safe.stdout, writers = w, append(writers, w)
	}
	if isTerminal(e.stderr) {
		w := &terminalWriter{w: e.stderr}
		safe.stderr, writers = w, append(writers, w)
	}
	return safe, func() {
		for _, w := range writers {
			w.Flush()
		}
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// After the first signal, a second one kills the process the usual way.
	context.AfterFunc(ctx, stop)
	code := run(ctx, &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr}, os.Args[1:])
	stop()
	os.Exit(code)
}

// run dispatches args (without the program name) to a subcommand of the
// table and returns the exit status.
func run(ctx context.Context, e *env, args []string) int {
	return runWith(ctx, e, commands, args)
}

// runWith is run with a given command table (tests pass their own).
func runWith(ctx context.Context, e *env, table []*command, args []string) (code int) {
	e, flush := e.terminalSafe()
	defer flush()
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "converge: internal error: %s\n", oneLine(fmt.Sprint(r)))
			code = exitBadInput
		}
	}()
	if len(args) == 0 {
		printUsage(e.stderr, table)
		return exitBadInput
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printUsage(e.stdout, table)
		return exitOK
	case "help":
		if len(args) == 1 {
			printUsage(e.stdout, table)
			return exitOK
		}
		cmd := lookup(table, args[1])
		if cmd == nil {
			return unknownCommand(e, args[1])
		}
		fs, _ := cmd.flagSet()
		cmd.printHelp(e.stdout, fs)
		return exitOK
	case "-version", "--version":
		fmt.Fprintf(e.stdout, "converge %s\n", version.Version)
		return exitOK
	}
	cmd := lookup(table, args[0])
	if cmd == nil {
		return unknownCommand(e, args[0])
	}
	return cmd.execute(ctx, e, args[1:])
}

// lookup returns the command of table called name, or nil.
func lookup(table []*command, name string) *command {
	for _, c := range table {
		if c.name == name {
			return c
		}
	}
	return nil
}

func unknownCommand(e *env, name string) int {
	if strings.HasPrefix(name, "-") {
		fmt.Fprintf(e.stderr, "converge: unknown flag %q\n", name)
	} else {
		fmt.Fprintf(e.stderr, "converge: unknown command %q\n", name)
	}
	fmt.Fprintln(e.stderr, "Run 'converge --help' for usage.")
	return exitBadInput
}

// flagSet returns a new flag set with the command's flags registered, and
// the function that runs the command (nil when the command has no flags).
func (c *command) flagSet() (*flag.FlagSet, runFunc) {
	fs := flag.NewFlagSet("converge "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors and help are printed by execute
	fs.Usage = func() {}
	if c.flags == nil {
		return fs, nil
	}
	return fs, c.flags(fs)
}

// execute parses the command's arguments, runs it and reports its error.
func (c *command) execute(ctx context.Context, e *env, args []string) int {
	fs, runCmd := c.flagSet()
	positional, err := parseArgs(fs, args, c.passthrough)
	switch {
	case errors.Is(err, flag.ErrHelp):
		c.printHelp(e.stdout, fs)
		return exitOK
	case err != nil:
		return c.report(e, usageError(flagErrorText(err)))
	case runCmd == nil && len(positional) > 0:
		return c.report(e, usageErrorf("unexpected argument %q", positional[0]))
	case runCmd == nil:
		return exitOK
	}
	return c.report(e, runCmd(ctx, e, positional))
}

// report prints err, if any, as the command's one error line and returns the
// exit status it stands for.
func (c *command) report(e *env, err error) int {
	if err == nil {
		return exitOK
	}
	code := exitStatus(err)
	var xe *exitError
	if errors.As(err, &xe) && xe.err == nil {
		return code // the command already printed its report
	}
	fmt.Fprintf(e.stderr, "converge %s: %s\n", c.name, err)
	var ue *usageErr
	if errors.As(err, &ue) {
		fmt.Fprintf(e.stderr, "Run 'converge %s --help' for usage.\n", c.name)
	}
	return code
}

// flagErrorText rewords the flag package's errors in the double-dash form
// the docs use: "unknown flag: --bogus", as kubectl says it.
func flagErrorText(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return "unknown flag: -" + name
	}
	return msg
}

// oneLine joins the lines of s, so that a report is always one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
