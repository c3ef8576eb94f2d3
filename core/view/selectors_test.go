package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var unowned = `name: unowned
objects:
` + deploymentDoc("2", "web:1") + serviceDoc + `- apiVersion: v1
  kind: Pod
  metadata: {name: bare, labels: {app: web, extra: "yes"}}
  spec:
    containers: [{name: web, image: "web:1"}]
- apiVersion: v1
  kind: Pod
  metadata: {name: loner, labels: {app: other}}
  spec:
    containers: [{name: web, image: "web:1"}]
`

func TestOwnershipShowsSelectorsLabelsAndControllers(t *testing.T) {
	t.Parallel()
	o := OwnershipOf(at(t, unowned, 10))
	require.Len(t, o.Selectors, 3)
	d, rs, svc := o.Selectors[0], o.Selectors[1], o.Selectors[2]
	assert.Equal(t, SelectorRow{Key: "deployment/web", Kind: "Deployment", Name: "web", Selector: "app=web", Labels: "app=web", Pods: 3}, d)
	assert.Equal(t, "ReplicaSet", rs.Kind)
	assert.Equal(t, "app=web,pod-template-hash="+rs.Hash, rs.Selector)
	assert.Equal(t, "deployment/web", rs.Owner)
	assert.Equal(t, 2, rs.Pods)
	assert.Equal(t, SelectorRow{Key: "service/web", Kind: "Service", Name: "web", Selector: "app=web", Pods: 3}, svc)

	require.Len(t, o.Groups, 3)
	groups := map[string]PodGroup{}
	for _, g := range o.Groups {
		groups[g.Controller] = g
	}
	owned := groups["replicaset/"+rs.Name]
	assert.Equal(t, 2, owned.Pods)
	assert.Equal(t, []string{"deployment/web", "replicaset/" + rs.Name, "service/web"}, owned.MatchedBy)
	assert.True(t, owned.Traffic)
	assert.Empty(t, owned.Warning)
	assert.Len(t, owned.Names, 2)

	var bare, loner PodGroup
	for _, g := range o.Groups {
		if g.Controller != "none" {
			continue
		}
		if g.Names[0] == "bare" {
			bare = g
		} else {
			loner = g
		}
	}
	assert.Equal(t, "app=web,extra=yes", bare.Labels)
	assert.Equal(t, []string{"deployment/web", "service/web"}, bare.MatchedBy)
	assert.True(t, bare.Traffic)
	assert.Contains(t, bare.Warning, "yet a Service sends them traffic")
	assert.False(t, loner.Traffic)
	assert.Empty(t, loner.MatchedBy)
	assert.Contains(t, loner.Warning, "No controller: nothing replaces these pods")
	require.Len(t, o.Notes, 1)
	assert.Equal(t, "unowned-traffic", o.Notes[0].Key)
}

func TestCheckSelectorEditAsksTheAPIServer(t *testing.T) {
	t.Parallel()
	s := at(t, rolling, 5)
	d := Focus(s, "")
	cur := CurrentEdit(d)
	assert.Equal(t, SelectorEdit{Selector: "app=web", Labels: "app=web"}, cur)
	tests := []struct {
		name    string
		edit    SelectorEdit
		ok      bool
		message string
		command string
	}{
		{"no change", cur, true, "no change: the selector and the template labels are as stored", ""},
		{"an extra template label is fine", SelectorEdit{Selector: "app=web", Labels: "app=web, tier=front"}, true,
			"deployment.apps/web patched (server dry run)",
			`patch deployment web --type=merge -p '{"spec":{"template":{"metadata":{"labels":{"tier":"front"}}}}}'`},
		{"template labels outside the selector", SelectorEdit{Selector: "app=web", Labels: "app=api-v2"}, false,
			"The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api-v2\"}: `selector` does not match template `labels`", ""},
		{"the selector is immutable", SelectorEdit{Selector: "app=api-v2", Labels: "app=api-v2"}, false,
			"spec.selector: Invalid value: {\"matchLabels\":{\"app\":\"api-v2\"}}: field is immutable", ""},
		{"a removed label", SelectorEdit{Selector: "app=web", Labels: ""}, false, "`selector` does not match template `labels`", ""},
		{"not key=value", SelectorEdit{Selector: "app", Labels: "app=web"}, false, `error: selector: "app" is not key=value`, ""},
		{"a quote", SelectorEdit{Selector: "app=web", Labels: "app='x"}, false, "a quote cannot be part of a label", ""},
		{"a key twice", SelectorEdit{Selector: "app=web", Labels: "a=1,a=2"}, false, `key "a" given twice`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := CheckSelectorEdit(s, "web", tc.edit)
			assert.Equal(t, tc.ok, v.OK, v.Message)
			assert.Contains(t, v.Message, tc.message)
			assert.Equal(t, tc.command, v.Command)
		})
	}
	assert.Equal(t, "there is no Deployment to edit", CheckSelectorEdit(load(t, "name: e\n"), "", cur).Message)
}

func TestCheckedEditAppliesThroughTheConsole(t *testing.T) {
	t.Parallel()
	s := at(t, rolling, 5)
	v := CheckSelectorEdit(s, "web", SelectorEdit{Selector: "app=web", Labels: "app=web,tier=front"})
	require.True(t, v.OK)
	r := s.Run(v.Command)
	assert.True(t, r.OK, r.Error)
	assert.Equal(t, "deployment.apps/web patched", r.Output)
	assert.Equal(t, SelectorEdit{Selector: "app=web", Labels: "app=web,tier=front"}, CurrentEdit(Focus(s, "web")))
}
