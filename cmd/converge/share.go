package main

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"strings"

	"converge/core/scenario"
	"converge/core/session"
)

// defaultShareBase is where share links point unless --base says otherwise:
// the page that `converge serve` serves.
const defaultShareBase = "http://127.0.0.1:8080/"

var shareCommand = &command{
	name:    "share",
	args:    "FILE [--base URL]",
	summary: "print a share link for a scenario",
	help: `Checks FILE like 'converge validate', then prints a link that opens the page
with this exact scenario: BASE#s=SHARE, where SHARE is the base64url (no
padding) of the raw DEFLATE of the file's YAML, at most 64 KiB (the format is
in docs/embedding.md). The link
replays the scenario exactly, steps included.`,
	flags: func(fs *flag.FlagSet) runFunc {
		base := fs.String("base", defaultShareBase, "`URL` of the page the link opens")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("share needs exactly one FILE")
			}
			u, err := url.Parse(*base)
			if err != nil || u.Scheme == "" || u.Host == "" {
				return usageErrorf("--base: %q is not an absolute URL such as https://example.com/converge/", *base)
			}
			data, err := readInput(e, args[0])
			if err != nil {
				return badInput(err)
			}
			if _, probs := scenario.Parse(data, args[0]); probs.HasErrors() {
				printProblems(e.stderr, probs)
				return badInput(nil)
			}
			link, err := session.ShareLink(u.String(), data)
			if err != nil {
				return badInput(fmt.Errorf("%s: %w", args[0], err))
			}
			fmt.Fprintln(e.stdout, link)
			return nil
		}
	},
}

var unshareCommand = &command{
	name:    "unshare",
	args:    "LINK",
	summary: "print the scenario YAML that a share link carries",
	help: `Decodes a share link (a whole URL with #s=SHARE, or SHARE alone) and prints the
scenario YAML it carries. A corrupt link, or one that inflates beyond 64 KiB,
is refused.`,
	flags: func(fs *flag.FlagSet) runFunc {
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) != 1 {
				return usageError("unshare needs exactly one LINK")
			}
			payload, err := session.ShareOfLink(strings.TrimSpace(args[0]))
			if err != nil {
				return badInput(err)
			}
			data, err := scenario.DecodeShare(payload)
			if err != nil {
				return badInput(err)
			}
			e.stdout.Write(data)
			if len(data) > 0 && data[len(data)-1] != '\n' {
				fmt.Fprintln(e.stdout)
			}
			return nil
		}
	},
}
