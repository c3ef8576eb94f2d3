package kubectl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/labels"
)

// TestTaint ports kubectl's pkg/cmd/taint/taint_test.go TestTaint (its
// rows, on node-1 of the fixture) and TestValidateFlags, with kubectl's
// texts.
func TestTaint(t *testing.T) {
	t.Parallel()
	ns, pns, ne := api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute
	tests := []struct {
		name     string
		old      []api.Taint
		line     string
		out, err string
		want     []api.Taint
	}{
		{"taints a node with effect NoSchedule", nil, "taint node node-1 foo=bar:NoSchedule", "node/node-1 tainted", "",
			[]api.Taint{{Key: "foo", Value: "bar", Effect: ns}}},
		{"taints a node with effect PreferNoSchedule", nil, "taint node node-1 foo=bar:PreferNoSchedule", "node/node-1 tainted", "",
			[]api.Taint{{Key: "foo", Value: "bar", Effect: pns}}},
		{"update an existing taint on the node, change the value from bar to barz", []api.Taint{{Key: "foo", Value: "bar", Effect: ns}},
			"taint node node-1 foo=barz:NoSchedule --overwrite", "node/node-1 modified", "", []api.Taint{{Key: "foo", Value: "barz", Effect: ns}}},
		{"taints a node with two taints", nil, "taint node node-1 dedicated=namespaceA:NoSchedule foo=bar:PreferNoSchedule", "node/node-1 tainted", "",
			[]api.Taint{{Key: "dedicated", Value: "namespaceA", Effect: ns}, {Key: "foo", Value: "bar", Effect: pns}}},
		{"two taints with the same key, remove one by key and effect", []api.Taint{{Key: "dedicated", Value: "namespaceA", Effect: ns}, {Key: "dedicated", Value: "namespaceA", Effect: pns}},
			"taint node node-1 dedicated:NoSchedule-", "node/node-1 untainted", "", []api.Taint{{Key: "dedicated", Value: "namespaceA", Effect: pns}}},
		{"two taints with the same key, remove both by key", []api.Taint{{Key: "dedicated", Value: "namespaceA", Effect: ns}, {Key: "dedicated", Value: "namespaceA", Effect: pns}},
			"taint node node-1 dedicated-", "node/node-1 untainted", "", nil},
		{"update one taint and remove the other", []api.Taint{{Key: "dedicated", Value: "namespaceA", Effect: ns}, {Key: "foo", Value: "bar", Effect: pns}},
			"taint node node-1 dedicated:NoSchedule- foo=barz:PreferNoSchedule --overwrite", "node/node-1 modified", "", []api.Taint{{Key: "foo", Value: "barz", Effect: pns}}},
		{"invalid taint key", nil, "taint node node-1 nospecialchars^@=banana:NoSchedule", "",
			"error: invalid taint spec: nospecialchars^@=banana:NoSchedule, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\nSee 'kubectl taint -h' for help and examples", nil},
		{"invalid taint effect", nil, "taint node node-1 foo=bar:NoExcute", "",
			"error: invalid taint effect: NoExcute, unsupported taint effect\nSee 'kubectl taint -h' for help and examples", nil},
		{"duplicated taints with the same key and effect", nil, "taint node node-1 foo=bar:NoExecute foo=barz:NoExecute", "",
			"error: duplicated taints with the same key and effect: {foo barz NoExecute <nil>}\nSee 'kubectl taint -h' for help and examples", nil},
		{"add and remove taint with same key and effect", nil, "taint node node-1 foo=:NoExecute foo=:NoExecute-", "",
			"error: can not both modify and remove the following taint(s) in the same command: foo=NoExecute", nil},
		{"can't update an existing taint without --overwrite", []api.Taint{{Key: "foo", Value: "bar", Effect: ns}},
			"taint node node-1 foo=bar:NoSchedule", "", "error: node node-1 already has foo taint(s) with same effect(s) and --overwrite is false",
			[]api.Taint{{Key: "foo", Value: "bar", Effect: ns}}},
		// Converge's rows: the removal of a missing taint, the spellings, the out-of-service taint.
		{"removing a missing taint", nil, "taint nodes node-1 foo-", "", `error: taint "foo" not found`, nil},
		{"a value that is not a label value", nil, "taint nodes node-1 foo=b@r:NoSchedule", "",
			"error: invalid taint spec: foo=b@r:NoSchedule, a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\nSee 'kubectl taint -h' for help and examples", nil},
		{"no effect: the whole spec is the key", nil, "taint nodes node-1 foo=bar", "",
			"error: invalid taint spec: foo=bar, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\nSee 'kubectl taint -h' for help and examples", nil},
		{"a key alone", nil, "taint nodes node-1 foo:", "", "error: invalid taint effect: , unsupported taint effect\nSee 'kubectl taint -h' for help and examples", nil},
		{"only nodes", nil, "taint pods web-66b6c48dd5-4jw2m foo:NoSchedule", "", "error: invalid resource type pods, only node types are supported", nil},
		{"no change", nil, "taint nodes node-1", "", "error: " + msgTaintRequired, nil},
		{"no resource", nil, "taint foo:NoSchedule", "", "error: " + msgTaintResources, nil},
		{"resources after changes", nil, "taint nodes foo:NoSchedule node-1", "", "error: all resources must be specified before taint changes: node-1", nil},
		{"out of service, key only with an effect", nil, "taint nodes node-1 node.kubernetes.io/out-of-service:NoExecute", "node/node-1 tainted", "",
			[]api.Taint{{Key: api.TaintNodeOutOfService, Effect: ne}}},
		// TestValidateFlags
		{"with selector and without --all", nil, "taint nodes -l kubernetes.io/os=linux a:NoSchedule", "node/node-1 tainted\nnode/node-2 tainted", "",
			[]api.Taint{{Key: "a", Effect: ns}}},
		{"with --all", nil, "taint nodes --all a:NoSchedule", "node/node-1 tainted\nnode/node-2 tainted", "", []api.Taint{{Key: "a", Effect: ns}}},
		{"with selector and --all", nil, "taint nodes --all -l a=b a:NoSchedule", "", "error: " + msgTaintAllSelector, nil},
		{"neither a name nor a selector", nil, "taint nodes a:NoSchedule", "", "error: " + msgTaintNeedName, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.old != nil {
				n, err := f.st.GetNode("node-1")
				require.NoError(t, err)
				next := n.DeepCopy()
				next.Spec.Taints = tc.old
				_, err = f.st.Update(next)
				require.NoError(t, err)
			}
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
			n, err := f.st.GetNode("node-1")
			require.NoError(t, err)
			var got []api.Taint
			for _, t := range n.Spec.Taints {
				t.TimeAdded = nil
				got = append(got, t)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestNoExecuteTaintTimeAdded: a NoExecute taint written without
// timeAdded gets the time of the write, kept on later writes.
func TestNoExecuteTaintTimeAdded(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	require.True(t, f.run("taint nodes node-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute").OK())
	n, _ := f.st.GetNode("node-1")
	require.NotNil(t, n.Spec.Taints[0].TimeAdded)
	at := *n.Spec.Taints[0].TimeAdded
	assert.True(t, at.Equal(f.st.Now()))
	require.True(t, f.run("taint nodes node-1 other:NoSchedule").OK())
	n, _ = f.st.GetNode("node-1")
	for _, tt := range n.Spec.Taints {
		if tt.Effect == api.TaintEffectNoExecute {
			assert.True(t, tt.TimeAdded.Equal(at))
		} else {
			assert.Nil(t, tt.TimeAdded)
		}
	}
}

// FuzzParseTaints: parseTaints never panics, and what it accepts holds
// kubectl's rules: keys are qualified names, values label values, effects
// one of the three (required to add), no key and effect added twice.
func FuzzParseTaints(f *testing.F) {
	for _, s := range []string{"foo=bar:NoSchedule", "foo:NoExecute-", "foo-", "a=b=c:NoSchedule", "k=v:Bad", "a:b:c", ":NoSchedule",
		"foo=:NoExecute foo=:NoExecute", "node.kubernetes.io/out-of-service=nodeshutdown:NoExecute", "x=" + string(make([]byte, 70)) + ":NoSchedule"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		add, remove, err := parseTaints(strings.Fields(line))
		if err != nil {
			assert.NotEmpty(t, err.Error())
			return
		}
		seen := map[string]bool{}
		for _, tt := range add {
			assert.Empty(t, labels.IsQualifiedName(tt.Key))
			assert.Empty(t, labels.IsValidLabelValue(tt.Value))
			assert.Contains(t, []string{api.TaintEffectNoSchedule, api.TaintEffectPreferNoSchedule, api.TaintEffectNoExecute}, tt.Effect)
			assert.False(t, seen[tt.Key+"|"+tt.Effect])
			seen[tt.Key+"|"+tt.Effect] = true
		}
		for _, tt := range remove {
			assert.Empty(t, labels.IsQualifiedName(tt.Key))
		}
	})
}
