package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/export"
	"converge/core/scenario"
	"converge/core/version"
)

func TestEscapeTerminal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"plain text is unchanged", "deployment.apps/web scaled\n\tok", "deployment.apps/web scaled\n\tok"},
		{"multi-byte characters are kept", "wéb ✓ 🚀", "wéb ✓ 🚀"},
		// kubectl's own two (cli-runtime's printers.EscapeTerminal).
		{"ESC as kubectl shows it", "\x1b[31mred\x1b[0m", "^[[31mred^[[0m"},
		{"a lone carriage return as kubectl shows it", "100%\rdone", `100%\rdone`},
		{"a carriage return before a newline is a line end", "a\r\nb", "a\r\nb"},
		{"other C0 controls in caret notation", "bell\a nul\x00 bs\b", "bell^G nul^@ bs^H"},
		{"DEL", "a\x7fb", "a^?b"},
		{"C1 controls, such as the 8-bit CSI", "a\u009b31mb\u0085", `a\u009b31mb\u0085`},
		{"bytes that are not UTF-8", "a\x9b31m\xffb", `a\x9b31m\xffb`},
		{"an OSC title sequence", "\x1b]0;owned\x07", "^[]0;owned^G"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, escapeTerminal(tc.in))
		})
	}
}

// TestTerminalWriterAcrossWrites: a carriage return at the end of one Write
// and a character split between two are escaped as if written at once.
func TestTerminalWriterAcrossWrites(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	w := &terminalWriter{w: &b}
	for _, s := range []string{"a\r", "\nb\r", "c é"[:3], "c é"[3:], "\x1b", "[0m\r"} {
		_, err := w.Write([]byte(s))
		require.NoError(t, err)
	}
	require.NoError(t, w.Flush())
	assert.Equal(t, "a\r\nb\\rc é^[[0m\\r", b.String())
}

// escapes is a scenario whose title, change-cause annotation and image
// carry terminal escape sequences (YAML's double-quoted \e and \a).
const escapes = `name: esc
title: "Rolling \e]0;owned\a update"
duration: 5s
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
    annotations: {kubernetes.io/change-cause: "set \e[2J image"}
  spec:
    replicas: 1
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "nginx\e[31m"}]}
`

// TestTextOutputIsTerminalSafe: every text output path shows control
// characters escaped; the JSONL trace keeps JSON's own escapes.
func TestTextOutputIsTerminalSafe(t *testing.T) {
	t.Parallel()
	f := writeFile(t, "esc.yaml", escapes)
	bad := writeFile(t, "bad.yaml", escapes+"steps:\n- at: 2s\n  expect: \"deployment/web .spec.replicas == \\\"x\\e[1m\\\"\"\n")
	tests := []struct {
		name string
		args []string
		want string // in stdout, or in stderr when the command fails
	}{
		{"run's timeline", []string{"run", f}, "Scenario esc: Rolling ^[]0;owned^G update"},
		{"kubectl describe", []string{"kubectl", "--scenario", f, "describe", "deployment", "web"}, "Image:         nginx^[[31m"},
		{"rollout history", []string{"kubectl", "--scenario", f, "rollout", "history", "deployment/web"}, "1         set ^[[2J image"},
		{"get -o wide", []string{"kubectl", "--scenario", f, "get", "deploy", "-o", "wide"}, "nginx^[[31m"},
		{"an error", []string{"validate", bad}, `invalid string "x^[[1m"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, out, errOut := runTerminal(t, tc.args...)
			for _, s := range []string{out, errOut} {
				assert.NotContains(t, s, "\x1b", "no raw ESC")
				assert.NotContains(t, s, "\a", "no raw BEL")
			}
			assert.Contains(t, out+errOut, tc.want)
		})
	}
	_, out, _ := runCLI(t, "run", f, "--output", "jsonl")
	assert.Contains(t, out, `"image":"nginx\u001b[31m"`, "the trace is JSON, escaped as JSON")
}

// FuzzTerminalWriter: whatever the split of the text into Writes, the
// writer's output is escapeTerminal of the whole (the plain fast path and
// the escaping one agree, and a held tail is escaped as if written at once).
func FuzzTerminalWriter(f *testing.F) {
	for _, s := range []string{"plain text\n", "a\r\nb\rc", "wé\u009b\x1b[0m\xff", "\r", "é"} {
		f.Add(s, uint8(1), uint8(2))
	}
	f.Fuzz(func(t *testing.T, s string, cut1, cut2 uint8) {
		i := min(int(cut1), len(s))
		j := min(i+int(cut2), len(s))
		var b bytes.Buffer
		w := &terminalWriter{w: &b}
		for _, part := range []string{s[:i], s[i:j], s[j:]} {
			n, err := w.Write([]byte(part))
			require.NoError(t, err)
			require.Equal(t, len(part), n)
		}
		require.NoError(t, w.Flush())
		require.Equal(t, escapeTerminal(s), b.String())
	})
}

// fakeTerminal is a buffer that says it is a terminal.
type fakeTerminal struct{ bytes.Buffer }

func (*fakeTerminal) IsTerminal() bool { return true }

// runTerminal is runCLI with standard output and error a terminal.
func runTerminal(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut fakeTerminal
	code = run(context.Background(), &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut}, args)
	return code, out.String(), errOut.String()
}

// Into a file or a pipe the bytes go as they are; only a terminal gets them
// escaped: `converge unshare LINK > f.yaml` of a scenario with CR line ends
// writes its very bytes (valid YAML), and export-kubectl's script is the
// same bytes as export.Kubectl's, its control characters quoted by the
// script itself ($'\x1b').
func TestFilesAndPipesGetTheExactBytes(t *testing.T) {
	t.Parallel()
	crlf := strings.ReplaceAll(goodScenario, "\n", "\r\n")
	payload, err := scenario.EncodeShare([]byte(crlf))
	require.NoError(t, err)
	code, out, errOut := runCLI(t, "unshare", "https://example.com/#s="+payload)
	require.Equal(t, exitOK, code, errOut)
	assert.Equal(t, crlf, out, "the very bytes into a file")
	_, probs := scenario.Parse([]byte(out), "f.yaml")
	assert.False(t, probs.HasErrors(), "%v", probs)
	_, onTTY, _ := runTerminal(t, "unshare", "https://example.com/#s="+payload)
	assert.Equal(t, crlf, onTTY, "a CR before a newline is a line end on a terminal too")

	lone := strings.Replace(goodScenario, "\n", "\r", 1)
	payload, err = scenario.EncodeShare([]byte(lone))
	require.NoError(t, err)
	_, out, _ = runCLI(t, "unshare", payload)
	assert.Equal(t, lone, out)
	_, onTTY, _ = runTerminal(t, "unshare", payload)
	assert.Contains(t, onTTY, `\r`, "a lone CR is escaped on a terminal")

	f := writeFile(t, "esc.yaml", escapes+"steps:\n- at: 1s\n  kubectl: \"annotate deployment/web 'x=\\e[2J\\a'\"\n")
	code, script, errOut := runCLI(t, "export-kubectl", f)
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, script, `annotate deployment/web $'x=\x1b[2J\x07'`)
	assert.NotContains(t, script, "^[[", "nothing rewritten")
	scn, probs := scenario.Parse([]byte(escapes+"steps:\n- at: 1s\n  kubectl: \"annotate deployment/web 'x=\\e[2J\\a'\"\n"), "esc.yaml")
	require.False(t, probs.HasErrors())
	want, err := export.Kubectl(scn, export.KubectlOptions{File: "esc.yaml", Version: version.Version})
	require.NoError(t, err)
	assert.Equal(t, string(want), script, "export-kubectl writes export.Kubectl's bytes")
}
