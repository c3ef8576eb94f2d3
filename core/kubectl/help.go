package kubectl

import (
	"sort"
	"strings"
	"text/tabwriter"
)

// rootHelp is what `kubectl` alone prints: the commands Converge knows.
func rootHelp() string {
	var b strings.Builder
	b.WriteString("kubectl controls the Kubernetes cluster manager.\n\n")
	b.WriteString("Available Commands (the subset Converge simulates):\n")
	b.WriteString(commandList(sortedCommands()))
	b.WriteString("\nUsage:\n  kubectl [flags] [options]\n\nUse \"kubectl <command> --help\" for more information about a given command.")
	return b.String()
}

// rootHelpError is Parse's error for a line without a command: kubectl
// alone prints its help (to stdout, and succeeds).
type rootHelpError struct{}

func (rootHelpError) Error() string { return rootHelp() }

// helpText is a command's short help: description, subcommands, usage.
func helpText(spec *cmdSpec) string {
	var b strings.Builder
	b.WriteString(spec.short + ".\n")
	if len(spec.subs) > 0 {
		b.WriteString("\nAvailable Commands:\n")
		b.WriteString(commandList(spec.subs))
	}
	b.WriteString("\nUsage:\n  kubectl " + spec.use + " [options]\n")
	if len(spec.subs) > 0 {
		b.WriteString("\nUse \"kubectl " + strings.Join(spec.path, " ") + " <command> --help\" for more information about a given command.\n")
	}
	return b.String()
}

func commandList(cmds []*cmdSpec) string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 8, 3, ' ', 0)
	for _, c := range cmds {
		w.Write([]byte("  " + c.path[len(c.path)-1] + "\t" + c.short + "\n"))
	}
	w.Flush()
	return b.String()
}

// sortedCommands lists the top-level commands by name.
func sortedCommands() []*cmdSpec {
	out := append([]*cmdSpec(nil), commands...)
	sort.Slice(out, func(i, j int) bool { return out[i].path[0] < out[j].path[0] })
	return out
}
