package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"converge/core/version"
)

// printUsage writes the overall help, `converge --help`, for a command table.
func printUsage(w io.Writer, table []*command) {
	fmt.Fprintf(w, "Converge %s simulates the Kubernetes Deployment reconcile loop, second by second.\n\n", version.Version)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  converge COMMAND [ARGUMENTS]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	for _, c := range table {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.summary)
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'converge COMMAND --help' for a command's arguments and flags.")
	fmt.Fprintln(w, "Exit status: 0 success, 1 an expect did not hold, 2 bad input or usage.")
}

// printHelp writes the command's help, `converge NAME --help`: synopsis,
// description and flags.
func (c *command) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: converge %s", c.name)
	if c.args != "" {
		fmt.Fprintf(w, " %s", c.args)
	}
	fmt.Fprintf(w, "\n\n%s\n", capitalize(c.summary)+".")
	if c.help != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(c.help))
	}
	printFlags(w, fs)
}

// printFlags lists fs's flags in the GNU style the docs use (--addr ADDR),
// which the flag package accepts along with the single-dash form.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintln(w, "\nFlags:")
			first = false
		}
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s", f.Name)
		if name != "" {
			fmt.Fprintf(w, " %s", name)
		}
		fmt.Fprintf(w, "\n      %s", usage)
		if f.DefValue != "" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %q)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
	fmt.Fprintln(w, "  -h, --help\n      show this help")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
