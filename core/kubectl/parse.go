package kubectl

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

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
// command, parses its flags and checks their values and the required ones.
// Its errors are *ParseError and print as kubectl prints them, e.g.
//
//	error: unknown command "frobnicate" for "kubectl"
//	error: unknown flag: --selector-typo
//	See 'kubectl scale --help' for usage.
//
// A line without a command is kubectl's help, which Run prints; Parse
// returns it as an error that is not a *ParseError.
func Parse(line string) (*Command, error) {
	c, err := parse(line)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Check reports what kubectl rejects in line before running it: nil when
// Run would run the line (or print kubectl's help), else Parse's error.
// Scenario files check their kubectl steps with it when they load.
func Check(line string) *ParseError {
	_, err := parse(line)
	var pe *ParseError
	if errors.As(err, &pe) {
		return pe
	}
	return nil
}

// ParseError is a command line kubectl rejects before it runs: a shell
// quoting error, an unknown command, an unknown flag, a flag value of the
// wrong type, a missing required flag. Error is the text kubectl prints.
type ParseError struct {
	// Offset is the byte offset in the line of what the error is about (the
	// unknown word, the bad flag value, the unterminated quote), or -1 for
	// the line as a whole (a missing required flag).
	Offset int
	// Msg is kubectl's message alone, on one line, without the "error: "
	// before it and the pointer to --help after it:
	// `unknown flag: --selector-typo`.
	Msg string
	// Suggestions are the commands of kubectl's "Did you mean this?" list.
	Suggestions []string

	err error // what kubectl prints
	at  at    // where, among the words after the leading "kubectl"; word -1: nowhere
}

func (e *ParseError) Error() string { return e.err.Error() }

// parse is Parse with its error as *ParseError (or rootHelpError).
func parse(line string) (*Command, error) {
	words, offs, err := splitWords(line)
	if err != nil {
		return nil, &ParseError{Offset: offs[0], Msg: err.Error(), err: &plainError{msg: err.Error()}}
	}
	if len(words) > 0 && words[0] == "kubectl" {
		words, offs = words[1:], offs[1:]
	}
	c, pe := parseWords(words)
	if pe == nil {
		return c, nil
	}
	if pe.err == nil {
		return nil, rootHelpError{}
	}
	pe.Offset = -1
	if w := pe.at.word; w >= 0 && w < len(words) {
		pe.Offset = offs[w]
		// The point inside the word, where the word is written as is
		// (no quotes before it).
		if k := pe.at.skip; k > 0 && k <= len(words[w]) && strings.HasPrefix(line[offs[w]:], words[w][:k]) {
			pe.Offset += k
		}
	}
	return nil, pe
}

// parseWords parses a line's words. A *ParseError without err is the root
// help.
func parseWords(words []string) (*Command, *ParseError) {
	spec, restAt, pe := findPath(words)
	if pe != nil {
		return nil, pe
	}
	rest := pick(words, restAt)
	fs := &flagSet{specs: append(append([]flagSpec{}, spec.flags...), globalFlags...), path: "kubectl " + strings.Join(spec.path, " ")}
	if pe := fs.parse(rest); pe != nil {
		pe.at.word = restAt[pe.at.word]
		return nil, pe
	}
	c := &Command{Path: append([]string(nil), spec.path...), Args: fs.args, Flags: fs.vals, spec: spec}
	if c.help() {
		return c, nil
	}
	if spec.run == nil {
		pe := groupError(spec, c.Args)
		if len(fs.argAt) > 0 {
			pe.at.word = restAt[fs.argAt[0]]
		}
		return nil, pe
	}
	if err := fs.missingRequired(); err != nil {
		return nil, &ParseError{Msg: err.Error(), err: &plainError{msg: err.Error()}, at: at{word: -1}}
	}
	return c, nil
}

// findPath finds the command the words name and returns the indexes of the
// words left for flag parsing. Like cobra, it skips flags while looking for
// command words.
func findPath(words []string) (*cmdSpec, []int, *ParseError) {
	rest := every(len(words))
	i := commandWord(words, rest)
	if i < 0 {
		return nil, nil, &ParseError{} // the root help
	}
	word := words[rest[i]]
	spec := findCommand(commands, word)
	if spec == nil {
		if pe := notSimulatedError(word, at{word: rest[i]}); pe != nil {
			return nil, nil, pe
		}
		msg := fmt.Sprintf(msgUnknownCommand, word, "kubectl")
		found := suggestions(word)
		return nil, nil, &ParseError{Msg: msg, Suggestions: found, err: &plainError{msg: msg + didYouMean(found)}, at: at{word: rest[i]}}
	}
	rest = remove(rest, i)
	for len(spec.subs) > 0 {
		j := commandWord(words, rest)
		if j < 0 {
			break
		}
		sub := findCommand(spec.subs, words[rest[j]])
		if sub == nil {
			break
		}
		spec, rest = sub, remove(rest, j)
	}
	return spec, rest, nil
}

// commandWord returns the position in idx of the first word that is not a
// flag or the value of a global flag, or -1.
func commandWord(words []string, idx []int) int {
	for i := 0; i < len(idx); i++ {
		w := words[idx[i]]
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

// every is the indexes 0..n-1.
func every(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// pick returns the words at idx.
func pick(words []string, idx []int) []string {
	out := make([]string, len(idx))
	for i, w := range idx {
		out[i] = words[w]
	}
	return out
}

func remove(idx []int, i int) []int {
	out := append([]int(nil), idx[:i]...)
	return append(out, idx[i+1:]...)
}

// groupError is what a command that only groups subcommands (set, rollout)
// says when it gets no known subcommand: its help without one, kubectl's
// "unknown command" with one.
func groupError(spec *cmdSpec, args []string) *ParseError {
	path := "kubectl " + strings.Join(spec.path, " ")
	if len(args) == 0 {
		names := make([]string, len(spec.subs))
		for i, s := range spec.subs {
			names[i] = s.path[len(s.path)-1]
		}
		return &ParseError{Msg: fmt.Sprintf(msgNeedsSubcommand, path, strings.Join(names, ", ")), err: &plainError{text: helpText(spec)}, at: at{word: -1}}
	}
	msg := fmt.Sprintf(msgUnknownSubcommand, strings.Join(args, " "))
	return &ParseError{Msg: msg, err: &usageError{path: path, msg: msg}}
}

// suggestions are cobra's "Did you mean this?" candidates: commands within
// Levenshtein distance 2 of the typed word (ignoring case, and without
// transpositions, as cobra counts), or that start with it.
func suggestions(typed string) []string {
	// kubectl's own commands, the ones the subset leaves out too: kubectl
	// suggests logs for "log".
	names := make([]string, 0, len(commands)+len(notSimulated))
	for _, c := range commands {
		names = append(names, c.path[0])
	}
	for name := range notSimulated {
		names = append(names, name)
	}
	sort.Strings(names)
	var found []string
	for i, name := range names {
		if i > 0 && name == names[i-1] {
			continue
		}
		if spell.Distance(strings.ToLower(typed), strings.ToLower(name), spell.Options{}) <= 2 || strings.HasPrefix(name, strings.ToLower(typed)) {
			found = append(found, name)
		}
	}
	return found
}

// didYouMean is cobra's "Did you mean this?" block, "" for no suggestions.
func didYouMean(found []string) string {
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
