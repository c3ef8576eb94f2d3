package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/version"
)

// runCLI runs the command line with args and returns the exit status and
// what it printed.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

func TestRunDispatch(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout []string
		wantStderr []string
	}{
		{name: "no arguments prints usage to stderr", args: nil, wantCode: exitBadInput,
			wantStderr: []string{"Usage:\n  converge COMMAND", "serve"}},
		{name: "--help lists every command", args: []string{"--help"}, wantCode: exitOK,
			wantStdout: []string{"Commands:\n  serve ", "Exit status: 0 success, 1 an expect did not hold, 2 bad input or usage."}},
		{name: "-h is --help", args: []string{"-h"}, wantCode: exitOK, wantStdout: []string{"Commands:"}},
		{name: "help alone is --help", args: []string{"help"}, wantCode: exitOK, wantStdout: []string{"Commands:"}},
		{name: "help COMMAND is COMMAND --help", args: []string{"help", "serve"}, wantCode: exitOK,
			wantStdout: []string{"Usage: converge serve [--addr ADDR]", "--addr ADDR", `(default "127.0.0.1:8080")`}},
		{name: "help of an unknown command", args: []string{"help", "frobnicate"}, wantCode: exitBadInput,
			wantStderr: []string{`converge: unknown command "frobnicate"`}},
		{name: "--version", args: []string{"--version"}, wantCode: exitOK, wantStdout: []string{"converge " + version.Version + "\n"}},
		{name: "unknown command", args: []string{"frobnicate"}, wantCode: exitBadInput,
			wantStderr: []string{"converge: unknown command \"frobnicate\"\nRun 'converge --help' for usage.\n"}},
		{name: "unknown global flag", args: []string{"--frob"}, wantCode: exitBadInput,
			wantStderr: []string{`converge: unknown flag "--frob"`}},
		{name: "command --help", args: []string{"serve", "--help"}, wantCode: exitOK,
			wantStdout: []string{"Usage: converge serve [--addr ADDR] [--public-url URL]\n\nServe the web page", "  -h, --help\n"}},
		{name: "command -h", args: []string{"serve", "-h"}, wantCode: exitOK, wantStdout: []string{"Usage: converge serve"}},
		{name: "unknown command flag, in kubectl's words", args: []string{"serve", "--bogus"}, wantCode: exitBadInput,
			wantStderr: []string{"converge serve: unknown flag: --bogus\nRun 'converge serve --help' for usage.\n"}},
		{name: "flag without its value", args: []string{"serve", "--addr"}, wantCode: exitBadInput,
			wantStderr: []string{"converge serve: flag needs an argument: -addr\n"}},
		{name: "unexpected argument", args: []string{"serve", "extra"}, wantCode: exitBadInput,
			wantStderr: []string{"converge serve: unexpected argument \"extra\"\nRun 'converge serve --help' for usage.\n"}},
		{name: "an address that cannot be listened on", args: []string{"serve", "--addr", "256.0.0.1:0"}, wantCode: exitBadInput,
			wantStderr: []string{"converge serve: listen tcp"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runCLI(t, tc.args...)
			assert.Equal(t, tc.wantCode, code, "stdout:\n%s\nstderr:\n%s", stdout, stderr)
			for _, want := range tc.wantStdout {
				assert.Contains(t, stdout, want)
			}
			for _, want := range tc.wantStderr {
				assert.Contains(t, stderr, want)
			}
			if tc.wantStdout == nil {
				assert.Empty(t, stdout)
			}
			if tc.wantStderr == nil {
				assert.Empty(t, stderr)
			}
		})
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			require.NotEmpty(t, c.summary)
			assert.Equal(t, strings.ToLower(c.summary[:1]), c.summary[:1], "a summary starts in lowercase, as Go's own do")
			assert.False(t, strings.HasSuffix(c.summary, "."), "a summary has no final period")
			code, stdout, _ := runCLI(t, c.name, "--help")
			assert.Equal(t, exitOK, code)
			assert.True(t, strings.HasPrefix(stdout, "Usage: converge "+c.name), stdout)
		})
		assert.False(t, seen[c.name], "command %q is listed twice", c.name)
		seen[c.name] = true
	}
}

// A panic anywhere in a command is one line on stderr and exit 2.
func TestRunRecoversFromAPanic(t *testing.T) {
	t.Parallel()
	panicky := &command{
		name:    "panicky",
		summary: "panic",
		flags: func(*flag.FlagSet) runFunc {
			return func(context.Context, *env, []string) error { panic("boom\nsecond line") }
		},
	}
	var out, errOut bytes.Buffer
	e := &env{stdout: &out, stderr: &errOut}
	var code int
	require.NotPanics(t, func() {
		code = runWith(context.Background(), e, []*command{panicky}, []string{"panicky"})
	})
	assert.Equal(t, exitBadInput, code)
	assert.Equal(t, "converge: internal error: boom second line\n", errOut.String())
	assert.Empty(t, out.String())
}

func TestReportMapsErrorsToExitStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		err        error
		wantCode   int
		wantStderr string
	}{
		{name: "success", err: nil, wantCode: exitOK, wantStderr: ""},
		{name: "an expect failed", err: expectFailed(errors.New("at 90s: expect failed")), wantCode: exitFailed,
			wantStderr: "converge x: at 90s: expect failed\n"},
		{name: "failures already printed", err: expectFailed(nil), wantCode: exitFailed, wantStderr: ""},
		{name: "bad input", err: badInput(errors.New("f.yaml:1:1: bad")), wantCode: exitBadInput,
			wantStderr: "converge x: f.yaml:1:1: bad\n"},
		{name: "problems already printed", err: badInput(nil), wantCode: exitBadInput, wantStderr: ""},
		{name: "usage", err: usageErrorf("unexpected argument %q", "y"), wantCode: exitBadInput,
			wantStderr: "converge x: unexpected argument \"y\"\nRun 'converge x --help' for usage.\n"},
		{name: "any other error is bad input", err: errors.New("disk on fire"), wantCode: exitBadInput,
			wantStderr: "converge x: disk on fire\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var errOut bytes.Buffer
			code := (&command{name: "x"}).report(&env{stderr: &errOut}, tc.err)
			assert.Equal(t, tc.wantCode, code)
			assert.Equal(t, tc.wantStderr, errOut.String())
		})
	}
}
