package kubectl

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"converge/core/spell"
)

// Command is a parsed command line: which kubectl command, its positional
// arguments and its flags.
type Command struct {
	// Path is the command's words, e.g. ["rollout", "undo"].
	Path []string
	// Args are the positional arguments, in order.
	Args []string
	// Flags are the flags as given, in order, by their long names.
	Flags []FlagValue

	spec *cmdSpec
}

// Parse parses a command line (with or without a leading "kubectl") into a
// Command, doing what cobra does before a command runs: it finds the
// command, parses its flags and checks required ones. Its errors print as
// kubectl prints them, e.g.
//
//	error: unknown command "frobnicate" for "kubectl"
//	error: unknown flag: --selector-typo
//	See 'kubectl scale --help' for usage.
func Parse(line string) (*Command, error) {
	words, err := Split(line)
	if err != nil {
		return nil, &plainError{msg: err.Error()}
	}
	if len(words) > 0 && words[0] == "kubectl" {
		words = words[1:]
	}
	spec, rest, err := findPath(words)
	if err != nil {
		return nil, err
	}
	fs := &flagSet{specs: append(append([]flagSpec{}, spec.flags...), globalFlags...), path: "kubectl " + strings.Join(spec.path, " ")}
	if err := fs.parse(rest); err != nil {
		return nil, err
	}
	c := &Command{Path: append([]string(nil), spec.path...), Args: fs.args, Flags: fs.vals, spec: spec}
	if c.help() {
		return c, nil
	}
	if spec.run == nil {
		return nil, groupError(spec, c.Args)
	}
	if err := fs.missingRequired(); err != nil {
		return nil, &plainError{msg: err.Error()}
	}
	return c, nil
}

// findPath finds the command the words name and returns the words left for
// flag parsing. Like cobra, it skips flags while looking for command words.
func findPath(words []string) (*cmdSpec, []string, error) {
	i := commandWord(words, 0)
	if i < 0 {
		return nil, nil, rootHelpError{}
	}
	spec := findCommand(commands, words[i])
	if spec == nil {
		return nil, nil, &plainError{msg: fmt.Sprintf(msgUnknownCommand, words[i], "kubectl") + suggestions(words[i])}
	}
	rest := remove(words, i)
	for len(spec.subs) > 0 {
		j := commandWord(rest, 0)
		if j < 0 {
			break
		}
		sub := findCommand(spec.subs, rest[j])
		if sub == nil {
			break
		}
		spec, rest = sub, remove(rest, j)
	}
	return spec, rest, nil
}

// commandWord returns the index of the first word from i on that is not a
// flag or the value of a global flag, or -1.
func commandWord(words []string, i int) int {
	for ; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			return -1
		case w == "-n" || w == "--namespace":
			i++
		case strings.HasPrefix(w, "-") && len(w) > 1:
		default:
			return i
		}
	}
	return -1
}

func remove(words []string, i int) []string {
	out := append([]string(nil), words[:i]...)
	return append(out, words[i+1:]...)
}

// groupError is what a command that only groups subcommands (set, rollout)
// says when it gets no known subcommand: its help without one, kubectl's
// "unknown command" with one.
func groupError(spec *cmdSpec, args []string) error {
	if len(args) == 0 {
		return &plainError{text: helpText(spec)}
	}
	return &usageError{path: "kubectl " + strings.Join(spec.path, " "), msg: fmt.Sprintf(msgUnknownSubcommand, strings.Join(args, " "))}
}

// suggestions is cobra's "Did you mean this?" block: commands within
// Levenshtein distance 2 of the typed word (ignoring case, and without
// transpositions, as cobra counts), or that start with it.
func suggestions(typed string) string {
	var found []string
	for _, c := range sortedCommands() {
		name := c.path[0]
		if spell.Distance(strings.ToLower(typed), strings.ToLower(name), spell.Options{}) <= 2 || strings.HasPrefix(name, strings.ToLower(typed)) {
			found = append(found, name)
		}
	}
	if len(found) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n\nDid you mean this?\n")
	for _, f := range found {
		b.WriteString("\t" + f + "\n")
	}
	return b.String()
}

// Mutates reports whether the command can change the cluster: false for
// get, describe, rollout status, rollout history, version, api-resources
// and for --help; true for everything else (even when it turns out to
// change nothing).
func (c *Command) Mutates() bool {
	if c == nil || c.spec == nil || c.help() {
		return false
	}
	if c.spec.mutates && c.dryRun() != "" {
		return false
	}
	return c.spec.mutates
}

// String renders the command as a normalized command line, without the
// leading "kubectl": command words, arguments, then flags as --name=value in
// the order given. Parse reads it back to the same Command.
func (c *Command) String() string {
	parts := append([]string(nil), c.Path...)
	dashed := false
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			dashed = true
		}
	}
	if !dashed {
		for _, a := range c.Args {
			parts = append(parts, quoteWord(a))
		}
	}
	for _, f := range c.Flags {
		spec := c.flagSpec(f.Name)
		if spec != nil && spec.kind == boolFlag && f.Value == "true" {
			parts = append(parts, "--"+f.Name)
			continue
		}
		parts = append(parts, quoteWord("--"+f.Name+"="+f.Value))
	}
	if dashed {
		parts = append(parts, "--")
		for _, a := range c.Args {
			parts = append(parts, quoteWord(a))
		}
	}
	return strings.Join(parts, " ")
}

func (c *Command) flagSpec(name string) *flagSpec {
	for _, specs := range [][]flagSpec{c.spec.flags, globalFlags} {
		for i := range specs {
			if specs[i].name == name {
				return &specs[i]
			}
		}
	}
	return nil
}

// changed reports whether the flag was given.
func (c *Command) changed(name string) bool {
	for _, f := range c.Flags {
		if f.Name == name {
			return true
		}
	}
	return false
}

// str returns the flag's last value, or its default.
func (c *Command) str(name string) string {
	for i := len(c.Flags) - 1; i >= 0; i-- {
		if c.Flags[i].Name == name {
			return c.Flags[i].Value
		}
	}
	if s := c.flagSpec(name); s != nil {
		return s.def
	}
	return ""
}

// boolean returns a bool flag's value (values were checked by Parse).
func (c *Command) boolean(name string) bool {
	b, _ := strconv.ParseBool(c.str(name))
	return b
}

// integer returns an int flag's value (values were checked by Parse).
func (c *Command) integer(name string) int64 {
	n, _ := strconv.ParseInt(c.str(name), 0, 64)
	return n
}

// duration returns a duration flag's value.
func (c *Command) duration(name string) time.Duration {
	d, _ := time.ParseDuration(c.str(name))
	return d
}

// list returns every value of a repeatable flag; string slices split on
// commas as pflag's do.
func (c *Command) list(name string) []string {
	spec := c.flagSpec(name)
	var out []string
	for _, f := range c.Flags {
		if f.Name != name {
			continue
		}
		if spec != nil && spec.kind == stringSliceFlag {
			if f.Value == "" {
				continue
			}
			out = append(out, strings.Split(f.Value, ",")...)
			continue
		}
		out = append(out, f.Value)
	}
	return out
}

func (c *Command) help() bool { return c.boolean("help") }

// namespace is -n, or "default".
func (c *Command) namespace() string {
	if ns := c.str("namespace"); ns != "" {
		return ns
	}
	return "default"
}

// dryRun returns "client", "server" or "" (none).
func (c *Command) dryRun() string {
	if c.flagSpec("dry-run") == nil {
		return ""
	}
	switch v := c.str("dry-run"); v {
	case "client", "server":
		return v
	case "unchanged":
		return "client"
	}
	return ""
}

// path is "kubectl rollout undo", as usage errors name the command.
func (c *Command) path() string { return "kubectl " + strings.Join(c.Path, " ") }
