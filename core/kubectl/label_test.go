package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/labels"
)

const labelValueReason = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"

// TestParseLabels ports kubectl's pkg/cmd/label/label_test.go
// TestParseLabels, with the texts parseLabels returns.
func TestParseLabels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		labels []string
		set    map[string]string
		remove []string
		err    string
	}{
		{"two", []string{"a=b", "c=d"}, map[string]string{"a": "b", "c": "d"}, nil, ""},
		{"none", []string{}, map[string]string{}, nil, ""},
		{"two and a removal", []string{"a=b", "c=d", "e-"}, map[string]string{"a": "b", "c": "d"}, []string{"e"}, ""},
		{"no value", []string{"ab", "c=d"}, nil, nil, "unknown label spec: ab"},
		{"modify and remove", []string{"a=b", "c=d", "a-"}, nil, nil, "can not both modify and remove a label in the same command"},
		{"empty value", []string{"a="}, map[string]string{"a": ""}, nil, ""},
		{"invalid value", []string{"a=%^$"}, nil, nil, `invalid label value: "a=%^$": ` + labelValueReason},
		// Converge's rows: the spec kubectl splits on every "=".
		{"two equals signs", []string{"k=v=w"}, nil, nil, "invalid label spec: k=v=w"},
		{"value too long", []string{"a=" + strings.Repeat("v", 64)}, nil, nil,
			`invalid label value: "a=` + strings.Repeat("v", 64) + `": must be no more than 63 bytes`},
		{"both reasons, joined by ;", []string{"a=" + strings.Repeat("v", 63) + "-"}, nil, nil,
			`invalid label value: "a=` + strings.Repeat("v", 63) + `-": must be no more than 63 bytes;` + labelValueReason},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ch, err := parseLabels(tc.labels)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, rawMessage(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.set, ch.set)
			assert.Equal(t, tc.remove, ch.remove)
		})
	}
}

// TestLabelFunc ports kubectl's label_test.go TestLabelFunc and
// TestValidateLabels (validateNoOverwrites): a label may only get another
// value with --overwrite.
func TestLabelFunc(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		have           map[string]string
		overwrite      bool
		set            []string // KEY=VALUE
		remove         []string
		want           map[string]string
		added, removed int
		err            string
	}{
		{"same value", map[string]string{"a": "b"}, false, []string{"a=b"}, nil, map[string]string{"a": "b"}, 0, 0, ""},
		{"other value", map[string]string{"a": "b"}, false, []string{"a=c"}, nil, nil, 0, 0, "'a' already has a value (b), and --overwrite is false"},
		{"other value, overwrite", map[string]string{"a": "b"}, true, []string{"a=c"}, nil, map[string]string{"a": "c"}, 1, 0, ""},
		{"new key", map[string]string{"a": "b"}, false, []string{"c=d"}, nil, map[string]string{"a": "b", "c": "d"}, 1, 0, ""},
		{"remove", map[string]string{"a": "b"}, false, nil, []string{"a"}, nil, 0, 1, ""},
		{"add and remove", map[string]string{"a": "b", "c": "d"}, false, []string{"e=f"}, []string{"a"}, map[string]string{"c": "d", "e": "f"}, 1, 1, ""},
		{"no labels yet", nil, false, []string{"a=b"}, nil, map[string]string{"a": "b"}, 1, 0, ""},
		// TestValidateLabels
		{"one shared", map[string]string{"a": "b", "c": "d"}, false, []string{"a=c", "d=b"}, nil, nil, 0, 0, "'a' already has a value (b), and --overwrite is false"},
		{"second shared", map[string]string{"a": "b", "c": "d"}, false, []string{"b=d", "c=a"}, nil, nil, 0, 0, "'c' already has a value (d), and --overwrite is false"},
		{"no overlap", map[string]string{"a": "b", "c": "d"}, false, []string{"b=a", "d=c"}, nil, map[string]string{"a": "b", "b": "a", "c": "d", "d": "c"}, 2, 0, ""},
		{"remove a missing label", map[string]string{"a": "b"}, false, nil, []string{"x"}, map[string]string{"a": "b"}, 0, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ch, err := parseLabels(append(append([]string{}, tc.set...), dashed(tc.remove)...))
			require.NoError(t, err)
			m := &api.ObjectMeta{Labels: api.CopyStringMap(tc.have)}
			added, removed, err := labelFunc(m, tc.overwrite, ch)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, rawMessage(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, m.Labels)
			assert.Equal(t, tc.added, added, "added")
			assert.Equal(t, tc.removed, removed, "removed")
		})
	}
}

func dashed(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k + "-"
	}
	return out
}

// TestLabelErrors ports kubectl's label_test.go TestLabelErrors and
// annotate_test.go TestAnnotateErrors: what kubectl refuses before it
// contacts the server, in its order (the pairs, a resource, a change).
func TestLabelErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, line, err string }{
		{"no args", "label", "error: " + msgOneOrMoreResources},
		{"not enough labels", "label pods", "error: " + msgLabelRequired},
		{"wrong labels", "label pods -", "error: " + msgLabelRequired},
		{"wrong labels 2", "label pods =bar", "error: " + msgLabelRequired},
		{"no resources", "label pods-", "error: " + msgOneOrMoreResources},
		{"no resources 2", "label pods=bar", "error: " + msgOneOrMoreResources},
		{"resources but no selectors", "label pods app=bar", "error: " + msgNoNameSpecified},
		{"multiple resources but no selectors", "label pods,deployments app=bar", "error: " + msgNoNameSpecified},
		{"an invalid value comes before the missing resource", "label a=b=c", "error: invalid label spec: a=b=c"},
		{"invalid value", "label deploy web app=web!", `error: invalid label value: "app=web!": ` + labelValueReason},
		{"k=v=w", "label deploy web k=v=w", "error: invalid label spec: k=v=w"},
		{"pairs after a resource", "label deploy a=b web", "error: all resources must be specified before label changes: web"},
		{"list and output", "label deploy web --list -o yaml", "error: " + msgListAndOutput},
		{"annotate: no args", "annotate", "error: " + msgOneOrMoreResources},
		{"annotate: not enough annotations", "annotate pods", "error: " + msgAnnotationRequired},
		{"annotate: wrong annotations", "annotate pods -", "error: " + msgAnnotationRequired},
		{"annotate: wrong annotations 2", "annotate pods =bar", "error: " + msgAnnotationRequired},
		{"annotate: no resources remove annotations", "annotate pods-", "error: " + msgOneOrMoreResources},
		{"annotate: no resources add annotations", "annotate pods=bar", "error: " + msgOneOrMoreResources},
		{"annotate: any value is fine client-side", "annotate deploy web a=b=c", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			rv := f.st.ResourceVersion()
			r := f.run(tc.line)
			assert.Equal(t, tc.err, r.Error)
			if tc.err != "" {
				assert.Empty(t, r.Output, "the buffer should be empty")
				assert.Equal(t, rv, f.st.ResourceVersion(), "a refused command wrote")
			}
		})
	}
}

// TestRunLabelMsg ports kubectl's label_test.go TestRunLabelMsg and
// TestLabelMsg: "labeled", "unlabeled", "modified", "not labeled", the
// "label "x" not found." line, and the dry-run suffixes; a label command
// that changes nothing writes nothing.
func TestRunLabelMsg(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line, out, err string
		wrote                bool
	}{
		{"add", "label deploy/web foo=bar", "deployment.apps/web labeled", "", true},
		{"existing without overwrite", "label deploy/web existing=bar", "", "error: 'existing' already has a value (abc), and --overwrite is false", false},
		{"existing with overwrite", "label deploy/web existing=bar --overwrite", "deployment.apps/web labeled", "", true},
		{"remove", "label deploy/web existing-", "deployment.apps/web unlabeled", "", true},
		{"remove a missing label", "label deploy/web foo-", "label \"foo\" not found.\ndeployment.apps/web not labeled", "", false},
		{"server dry run", "label deploy/web foo=bar --dry-run=server", "deployment.apps/web labeled (server dry run)", "", false},
		{"client dry run", "label deploy/web foo=bar --dry-run=client", "deployment.apps/web labeled (dry run)", "", false},
		{"server dry run remove", "label deploy/web existing- --dry-run=server", "deployment.apps/web unlabeled (server dry run)", "", false},
		{"client dry run remove", "label deploy/web existing- --dry-run=client", "deployment.apps/web unlabeled (dry run)", "", false},
		{"client dry run of a missing label prints no not-found line", "label deploy/web foo- --dry-run=client", "deployment.apps/web not labeled (dry run)", "", false},
		// TestLabelMsg
		{"same value", "label deploy/web existing=abc", "deployment.apps/web not labeled", "", false},
		{"add and remove", "label deploy/web foo=bar existing-", "deployment.apps/web modified", "", true},
		{"same value and remove", "label deploy/web app=web existing-", "deployment.apps/web unlabeled", "", true},
		{"nothing to change, with a stale resource version", "label deploy/web existing=abc --resource-version=1", "deployment.apps/web not labeled", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			require.True(t, f.run("label deploy/web existing=abc").OK())
			rv := f.st.ResourceVersion()
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
			assert.Equal(t, tc.wrote, rv != f.st.ResourceVersion())
		})
	}
}

// TestAnnotateOverwrites ports kubectl's annotate_test.go
// TestValidateAnnotationOverwrites, TestParseAnnotations and
// TestValidateAnnotations: the same value is no overwrite, ParsePairs'
// "invalid annotation format", and the modify-and-remove list.
func TestAnnotateOverwrites(t *testing.T) {
	t.Parallel()
	url := "https://test.com/index.htm?id=123#u=user-name"
	tests := []struct {
		name  string
		setup string
		line  string
		out   string
		err   string
		want  map[string]string
	}{
		{"share first annotation", "annotate deploy web a=A b=B", "annotate deploy web a=a c=C", "",
			"error: --overwrite is false but found the following declared annotation(s): 'a' already has a value (A)", map[string]string{"a": "A", "b": "B"}},
		{"share second annotation", "annotate deploy web a=A c=C", "annotate deploy web b=B c=c", "",
			"error: --overwrite is false but found the following declared annotation(s): 'c' already has a value (C)", map[string]string{"a": "A", "c": "C"}},
		{"no overlap", "annotate deploy web a=A c=C", "annotate deploy web b=B d=D", "deployment.apps/web annotated", "",
			map[string]string{"a": "A", "b": "B", "c": "C", "d": "D"}},
		{"no annotations", "", "annotate deploy web a=A b=B", "deployment.apps/web annotated", "", map[string]string{"a": "A", "b": "B"}},
		{"the same value is no overwrite", "annotate deploy web a=A", "annotate deploy web a=A", "deployment.apps/web annotated", "", map[string]string{"a": "A"}},
		{"special characters", "", "annotate deploy web url=" + url, "deployment.apps/web annotated", "", map[string]string{"url": url}},
		{"empty value", "", "annotate deploy web a=", "deployment.apps/web annotated", "", map[string]string{"a": ""}},
		{"remove an added annotation", "", "annotate deploy web a=b c=d a-", "",
			"error: can not both modify and remove the following annotation(s) in the same command: a", nil},
		{"remove added annotations", "", "annotate deploy web a=b c=d a- c-", "",
			"error: can not both modify and remove the following annotation(s) in the same command: a, c", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.setup != "" {
				require.True(t, f.run(tc.setup).OK())
			}
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
			assert.Equal(t, tc.want, f.deployment(t, "web").Annotations)
		})
	}
	for _, tc := range []struct {
		pairs []string
		err   string
	}{
		{[]string{"ab", "c=d"}, "invalid annotation format: ab"},
		{[]string{"ab", "a="}, "invalid annotation format: ab"},
		{[]string{"-"}, "invalid annotation format: -"},
		{[]string{"=bar"}, "invalid annotation format: =bar"},
	} {
		_, _, _, err := parsePairs(tc.pairs, "annotation", true)
		require.Error(t, err, tc.pairs)
		assert.Equal(t, tc.err, rawMessage(err))
	}
}

// TestLabelList: --list prints KEY=VALUE sorted, under a "Listing labels
// for" header per object when there are several (kubectl's RunLabel).
func TestLabelList(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	r := f.run("label deploy,svc -l app=web --list")
	require.True(t, r.OK(), r.Error)
	assert.Contains(t, r.Output, "Listing labels for Deployment.apps/web:\n app=web")
	r = f.run("annotate deploy web --list")
	require.True(t, r.OK(), r.Error)
	assert.NotContains(t, r.Output, "Listing")
}

// FuzzParseLabels: parseLabels never panics, and what it accepts holds
// kubectl's rules: one "=" per pair, valid values, no key both set and
// removed.
func FuzzParseLabels(f *testing.F) {
	for _, s := range []string{"a=b", "k=v=w", "a=%^$", "a-", "a=b a-", "a= b=c", "=x", "-", "ab", "x/y=z", "a=" + strings.Repeat("v", 64)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		pairs := strings.Fields(line)
		ch, err := parseLabels(pairs)
		if err != nil {
			assert.NotEmpty(t, rawMessage(err))
			return
		}
		for k, v := range ch.set {
			assert.Empty(t, labels.IsValidLabelValue(v), "value of %q", k)
			assert.NotContains(t, k, "=")
		}
		for _, r := range ch.remove {
			_, both := ch.set[r]
			assert.False(t, both, "%q set and removed", r)
		}
	})
}
