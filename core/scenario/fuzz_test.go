package scenario

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func seedFiles(f *testing.F) {
	for _, dir := range []string{"testdata/ok", "testdata/errors"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

// FuzzParseScenario: Parse never panics, every problem has a line and a
// column (but the one of an input beyond MaxFileSize, which is about the
// whole file), and a valid scenario survives Marshal and Parse unchanged.
func FuzzParseScenario(f *testing.F) {
	seedFiles(f)
	f.Add([]byte("name: a\nsteps:\n- {at: 1s, expect: 'pod/p .status.phase == Running'}\n"))
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"))
	f.Add([]byte("name: a\nsteps:\n- {at: 1s, kubectl: \"scael deploy/web --replicas='3'\"}\n- {at: 2s, kubectl: kubectl  get pods -Ax}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, probs := Parse(data, "f.yaml")
		if len(data) > MaxFileSize {
			return
		}
		for _, p := range probs {
			if p.Line < 1 || p.Col < 1 {
				t.Fatalf("problem without a position: %s", p)
			}
		}
		if s == nil {
			if !probs.HasErrors() {
				t.Fatal("no scenario and no error")
			}
			return
		}
		if probs.HasErrors() {
			t.Fatal("a scenario with errors")
		}
		out, err := s.Marshal()
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		back, probs := Parse(out, "f.yaml")
		if probs.HasErrors() {
			t.Fatalf("marshalled scenario does not parse: %v\n%s", probs, out)
		}
		a, b := summarize(s), summarize(back)
		if a.Name != b.Name || a.Seed != b.Seed || a.Duration != b.Duration || len(a.Steps) != len(b.Steps) || len(a.Objects) != len(b.Objects) {
			t.Fatalf("round trip changed the scenario:\n%+v\n%+v\n%s", a, b, out)
		}
		for i := range a.Steps {
			if a.Steps[i] != b.Steps[i] {
				t.Fatalf("round trip changed step %d: %s → %s", i, a.Steps[i], b.Steps[i])
			}
		}
	})
}

// FuzzParseExpect: ParseExpect never panics, errors point into the
// expression, and a parsed expect round-trips through String.
func FuzzParseExpect(f *testing.F) {
	for _, s := range []string{
		"deployment/web .status.availableReplicas == 3",
		`deploy/web .metadata.annotations["deployment.kubernetes.io/revision"] >= "2"`,
		`pod/x .status.conditions[?(@.type=="Ready")].status == True`,
		"rs/x .spec.replicas != null",
		"svc/x .spec.ports[0].port < 1e3",
		"node/n .spec.taints[0].key == a b c",
		`cm/c .data["\u00e9"] == "\ud83d\ude00"`,
	} {
		f.Add(s)
	}
	obj := map[string]any{"status": map[string]any{"replicas": 3.0, "conditions": []any{map[string]any{"type": "Ready"}}}}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseExpect(s)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Col < 1 || se.Col > len(s)+1 {
				t.Fatalf("bad error for %q: %v", s, err)
			}
			return
		}
		again, err := ParseExpect(e.String())
		if err != nil {
			t.Fatalf("String %q of %q does not parse: %v", e.String(), s, err)
		}
		if again.String() != e.String() {
			t.Fatalf("String does not round-trip: %q → %q", e.String(), again.String())
		}
		if _, _, err := e.Eval(obj); err != nil {
			t.Fatalf("eval: %v", err)
		}
	})
}

// FuzzShare: DecodeShare(EncodeShare(x)) == x for every x up to 64 KiB, and
// DecodeShare never panics on any link.
func FuzzShare(f *testing.F) {
	f.Add([]byte("name: web\n"))
	f.Add([]byte{})
	f.Add([]byte("y0vMTbVSSCvKz9UtqCzJyM_jAgA"))
	f.Fuzz(func(t *testing.T, x []byte) {
		_, _ = DecodeShare(string(x))
		if len(x) > MaxShareSize {
			return
		}
		s, err := EncodeShare(x)
		if err != nil {
			t.Fatal(err)
		}
		out, err := DecodeShare(s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, x) {
			t.Fatalf("round trip changed %q into %q", x, out)
		}
	})
}

// FuzzErrorPositions: every problem of any input is inside the file (its
// line exists and its column is at most one past the line's last
// character), and columns inside quoted strings agree with a plain count
// from the start of the line, however many problems a line has.
func FuzzErrorPositions(f *testing.F) {
	seedFiles(f)
	f.Add([]byte("name: q\nsteps: [{at: 1s, expect: 'deployment/wéb .x ~= 3'}, {at: 2s, expect: \"d/\\u00e9 .x ~= 3\"}]\n"))
	f.Add([]byte("name: q\nsteps: [{at: 1s, kubectl: 'scale deploy/web --replicas=''3'''}, {at: 2s, fault: \"node-down nope\"}]\n"))
	f.Add([]byte("name: \"\\x01\"\nsteps: [{at: 1s, expect: \"\\t\\\"x\\\" == 3\"}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<14 {
			return
		}
		cols := newColumns(data)
		_, probs := parse(data, "f.yaml", cols)
		lines := yamlLines(data)
		for _, p := range probs {
			if p.Line < 1 || p.Line > len(lines) {
				t.Fatalf("problem on line %d of %d: %s", p.Line, len(lines), p)
			}
			if n := utf8.RuneCountInString(lines[p.Line-1]); p.Col < 1 || p.Col > n+1 {
				t.Fatalf("problem at column %d of a %d-character line: %s", p.Col, n, p)
			}
		}
		if cols.scanned > 2*len(data) {
			t.Fatalf("%d bytes scanned to place the problems of %d", cols.scanned, len(data))
		}
	})
}

// yamlLines splits data at the line breaks of YAML (CR LF, CR, LF) and of
// libyaml (NEL, LS, PS), for the fuzz test's own check of positions.
func yamlLines(data []byte) []string {
	s := strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n").Replace(string(data))
	return strings.Split(s, "\n")
}
