package yamlprint

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Expected renderings follow go-yaml v2 (sigs.k8s.io/yaml), which is what
// kubectl's -o yaml prints.
func TestYAMLScalarStyles(t *testing.T) {
	t.Parallel()
	tests := []struct {
		value string
		want  string
	}{
		{"web", "web"},
		{"", `""`},
		{"1", `"1"`},
		{"0x1F", `"0x1F"`},
		{"1e3", `"1e3"`},
		{"3.14", `"3.14"`},
		{".5", `".5"`},
		{"True", `"True"`},
		{"yes", `"yes"`},
		{"y", `"y"`},
		{"null", `"null"`},
		{"~", `"~"`},
		{"2026-01-01T00:00:00Z", `"2026-01-01T00:00:00Z"`},
		{"2026-01-01", `"2026-01-01"`},
		{"1:20", `"1:20"`},
		{"25%", "25%"},
		{"nginx:1.25", "nginx:1.25"},
		{"10.244.1.5", "10.244.1.5"},
		{"-", "'-'"},
		{"-x", "-x"},
		{"*", "'*'"},
		{"<<", "<<"}, // the merge key has no hint in go-yaml v2's resolve table: plain
		{"a: b", "'a: b'"},
		{"a:b", "a:b"},
		{"a #b", "'a #b'"},
		{"a#b", "a#b"},
		{"#a", "'#a'"},
		{"%x", "'%x'"},
		{"@a", "'@a'"},
		{" lead", "' lead'"},
		{"trail ", "'trail '"},
		{"it's", "it's"},
		{"'a", "'''a'"},
		{`{"a":1}`, `'{"a":1}'`},
		{"tab\tx", `"tab\tx"`},
		{"bell\a", `"bell\a"`},
		{"line1\nline2", "|-\n  line1\n  line2"},
		{"line\n", "|\n  line"},
		{"a\n\n", "|+\n  a\n"},
		{" indented\n", "|2\n   indented"},
		{"blank\n\nline", "|-\n  blank\n\n  line"},
		{"trailing space \nx", `"trailing space \nx"`},
		{"é", "é"},
	}
	for _, tc := range tests {
		t.Run(tc.value, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, "k: "+tc.want+"\n", Marshal(map[string]any{"k": tc.value}))
		})
	}
}

func TestYAMLLayoutMatchesKubectl(t *testing.T) {
	t.Parallel()
	v := map[string]any{
		"spec": map[string]any{
			"containers": []any{map[string]any{"name": "web", "ports": []any{map[string]any{"containerPort": json.Number("80")}}, "args": []any{"a", "b"}}},
			"empty":      map[string]any{},
			"none":       []any{},
			"nested":     []any{[]any{"x", "y"}},
			"flag":       true,
			"gone":       nil,
		},
		"a10": "x", "a9": "y", "A": "z", "a_b": "w", "ab": "v",
	}
	want := `A: z
a_b: w
a9: "y"
a10: x
ab: v
spec:
  containers:
  - args:
    - a
    - b
    name: web
    ports:
    - containerPort: 80
  empty: {}
  flag: true
  gone: null
  nested:
  - - x
    - "y"
  none: []
`
	assert.Equal(t, want, Marshal(v))
	assert.Equal(t, "{}\n", Marshal(map[string]any{}))
	assert.Equal(t, "- 1\n", Marshal([]any{json.Number("1")}))
	assert.Equal(t, "[]\n", Marshal([]any{}))
	assert.Equal(t, "x\n", Marshal("x"))
}

func TestYAMLFoldsLongScalarsAt80Columns(t *testing.T) {
	t.Parallel()
	msg := `ReplicaSet "web-66b6c48dd5" has timed out progressing because its pods never became ready at all.`
	got := Marshal(map[string]any{"status": map[string]any{"conditions": []any{map[string]any{"message": msg}}}})
	want := "status:\n  conditions:\n  - message: ReplicaSet \"web-66b6c48dd5\" has timed out progressing because its pods\n      never became ready at all.\n"
	assert.Equal(t, want, got)
	for _, line := range strings.Split(got, "\n") {
		assert.LessOrEqual(t, len(line), 90)
	}
	quoted := Marshal(map[string]any{"k": strings.Repeat("word ", 18) + "*: end"})
	assert.Equal(t, "k: 'word word word word word word word word word word word word word word word word\n  word word *: end'\n", quoted)
	double := Marshal(map[string]any{"k": strings.Repeat("word ", 18) + "\tend"})
	assert.Equal(t, "k: \"word word word word word word word word word word word word word word word word\n  word word \\tend\"\n", double)
}

func TestYAMLNumbersAndKeys(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "k: 1.5\n", Marshal(map[string]any{"k": json.Number("1.5")}))
	assert.Equal(t, "k: 1e+21\n", Marshal(map[string]any{"k": json.Number("1e21")}))
	assert.Equal(t, "k: 2.5\n", Marshal(map[string]any{"k": 2.5}))
	assert.Equal(t, "\"1\": x\n", Marshal(map[string]any{"1": "x"}))
	assert.Equal(t, "'*': x\n", Marshal(map[string]any{"*": "x"}))
	assert.Equal(t, "? |-\n  a\n  b\n: x\n", Marshal(map[string]any{"a\nb": "x"}))
}

// TestYAMLComplexKeys: a key that spans lines (or is longer than 128 bytes)
// is written as go-yaml v2 writes it, "? KEY" and ": VALUE" (found by
// tools/k8sdiff's TestLibYAML against sigs.k8s.io/yaml).
func TestYAMLComplexKeys(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 30) + "end"
	tests := []struct {
		name string
		in   map[string]any
		want string
	}{
		{"a line break", map[string]any{"a\nb": json.Number("1")}, "? |-\n  a\n  b\n: 1\n"},
		{"a trailing break", map[string]any{"a\n": "x"}, "? |\n  a\n: x\n"},
		{"a break alone, a mapping value", map[string]any{"\n": map[string]any{"k": json.Number("1")}}, "? |2+\n\n: k: 1\n"},
		{"a sequence value", map[string]any{"line1\nline2\n": []any{"a"}}, "? |\n  line1\n  line2\n: - a\n"},
		{"nested, beside a simple key", map[string]any{"x": []any{map[string]any{"a\nb": json.Number("1"), "z": json.Number("2")}}},
			"x:\n- ? |-\n    a\n    b\n  : 1\n  z: 2\n"},
		{"a space before the break: double-quoted", map[string]any{"a \nb": map[string]any{}}, "? \"a \\nb\"\n: {}\n"},
		{"longer than 128 bytes", map[string]any{long: "v"}, "? " + strings.Repeat("word ", 15) + "word\n  " + strings.Repeat("word ", 14) + "end\n: v\n"},
		{"a line separator in single quotes", map[string]any{"a\u2028b": json.Number("1")}, "? 'a\u2028  b'\n: 1\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Marshal(tc.in))
		})
	}
}
