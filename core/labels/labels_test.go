package labels

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// Rows of apimachinery's TestSelectorMatches.
func TestSelectorMatches(t *testing.T) {
	t.Parallel()
	labelset := map[string]string{"foo": "bar", "baz": "blah"}
	tests := []struct {
		sel   string
		set   map[string]string
		match bool
	}{
		{"", map[string]string{"x": "y"}, true},
		{"x=y", map[string]string{"x": "y"}, true},
		{"x=y,z=w", map[string]string{"x": "y", "z": "w"}, true},
		{"x!=y,z!=w", map[string]string{"x": "z", "z": "a"}, true},
		{"notin=in", map[string]string{"notin": "in"}, true},
		{"x", map[string]string{"x": "z"}, true},
		{"!x", map[string]string{"y": "z"}, true},
		{"x>1", map[string]string{"x": "2"}, true},
		{"x<1", map[string]string{"x": "0"}, true},
		{"x=z", map[string]string{}, false},
		{"x=y", map[string]string{"x": "z"}, false},
		{"x=y,z=w", map[string]string{"x": "w", "z": "w"}, false},
		{"x!=y,z!=w", map[string]string{"x": "z", "z": "w"}, false},
		{"x", map[string]string{"y": "z"}, false},
		{"!x", map[string]string{"x": "z"}, false},
		{"x>1", map[string]string{"x": "0"}, false},
		{"x<1", map[string]string{"x": "2"}, false},
		{"x>1", map[string]string{"x": "v2"}, false},
		{"x>1", map[string]string{}, false},
		{"foo=bar", labelset, true},
		{"baz=blah", labelset, true},
		{"foo=bar,baz=blah", labelset, true},
		{"foo=blah", labelset, false},
		{"baz=bar", labelset, false},
		{"foo=bar,foobar=bar,baz=blah", labelset, false},
		{"x in (foo),y notin (alpha)", map[string]string{"x": "foo", "y": "baz"}, true},
		{"x in (foo),y in (alpha)", map[string]string{"x": "foo", "y": "baz"}, false},
		{"x notin (),y", map[string]string{"y": ""}, true},
		{"!x,y", map[string]string{"y": ""}, true},
		{"x notin (),!y", map[string]string{"y": ""}, false},
		{"x in ()", map[string]string{"y": "baz"}, false},
		{"x notin (a)", nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.sel, func(t *testing.T) {
			t.Parallel()
			sel, err := Parse(tc.sel)
			require.NoError(t, err)
			assert.Equal(t, tc.match, sel.Matches(tc.set))
		})
	}
}

// Rows of apimachinery's TestRequirementConstructor, plus the error texts.
func TestNewRequirement(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		key     string
		op      Operator
		vals    []string
		wantErr string
	}{
		{"in without values", "x", In, nil, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
		{"notin with an empty list", "x", NotIn, []string{}, "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty"},
		{"in", "x", In, []string{"foo"}, ""},
		{"notin", "x", NotIn, []string{"foo"}, ""},
		{"exists", "x", Exists, nil, ""},
		{"does not exist", "x", DoesNotExist, nil, ""},
		{"key starting with a digit", "1foo", In, []string{"bar"}, ""},
		{"numeric key", "1234", In, []string{"bar"}, ""},
		{"greater than", "y", GreaterThan, []string{"1"}, ""},
		{"less than", "z", LessThan, []string{"6"}, ""},
		{"greater than a word", "foo", GreaterThan, []string{"bar"}, `values[0]: Invalid value: "bar": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"less than a word", "barz", LessThan, []string{"blah"}, `values[0]: Invalid value: "blah": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"key too long", strings.Repeat("a", 254), Exists, nil, `key: Invalid value: "` + strings.Repeat("a", 254) + `": name part must be no more than 63 bytes`},
		{"equals with two values", "x", Equals, []string{"a", "b"}, `values: Invalid value: ["a","b"]: exact-match compatibility requires one single value`},
		{"exists with a value", "x", Exists, []string{"a"}, `values: Invalid value: ["a"]: values set must be empty for exists and does not exist`},
		{"gt with two values", "x", GreaterThan, []string{"1", "2"}, `values: Invalid value: ["1","2"]: for 'Gt', 'Lt' operators, exactly one value is required`},
		{"unknown operator", "x", Operator("~"), nil, `operator: Unsupported value: "~": supported values: "in", "notin", "=", "==", "!=", "gt", "lt", "exists", "!"`},
		{"bad value", "x", In, []string{"a b"}, `values[0][x]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{"several problems", "", Equals, nil, `[key: Invalid value: "": name part must be non-empty; name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), values: Invalid value: null: exact-match compatibility requires one single value]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r, err := NewRequirement(tc.key, tc.op, tc.vals)
			if tc.wantErr == "" {
				require.NoError(t, err)
				assert.Equal(t, tc.key, r.Key)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tc.wantErr, err.Error())
		})
	}
}

func TestNewRequirementSortsAndCopiesValues(t *testing.T) {
	t.Parallel()
	vals := []string{"b", "a"}
	r, err := NewRequirement("k", In, vals)
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, r.Values)
	assert.Equal(t, []string{"b", "a"}, vals, "the caller's slice is not touched")
}

// Rows of apimachinery's TestToString.
func TestRequirementString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		reqs []Requirement
		want string
	}{
		{[]Requirement{req(t, "x", In, "abc", "def"), req(t, "y", NotIn, "jkl"), req(t, "z", Exists)}, "x in (abc,def),y notin (jkl),z"},
		{[]Requirement{req(t, "x", NotIn, "abc", "def"), req(t, "y", NotEquals, "jkl"), req(t, "z", DoesNotExist)}, "x notin (abc,def),y!=jkl,!z"},
		{[]Requirement{req(t, "x", NotIn, "abc"), req(t, "y", In, "jkl", "mno"), req(t, "z", NotIn, "")}, "x notin (abc),y in (jkl,mno),z notin ()"},
		{[]Requirement{req(t, "x", Equals, "abc"), req(t, "y", DoubleEquals, "jkl"), req(t, "z", NotEquals, "a"), req(t, "z", Exists)}, "x=abc,y==jkl,z!=a,z"},
		{[]Requirement{req(t, "x", GreaterThan, "2"), req(t, "y", LessThan, "8"), req(t, "z", Exists)}, "x>2,y<8,z"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Selector{reqs: tc.reqs}.String())
		})
	}
}

func TestFromLabelSelector(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		ls      *api.LabelSelector
		want    string
		nothing bool
		wantErr string
	}{
		{name: "nil selects nothing", ls: nil, want: "<none>", nothing: true},
		{name: "empty selects everything", ls: &api.LabelSelector{}, want: ""},
		{name: "match labels sorted", ls: &api.LabelSelector{MatchLabels: map[string]string{"tier": "web", "app": "shop"}}, want: "app=shop,tier=web"},
		{name: "expressions", ls: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{
			{Key: "env", Operator: api.LabelSelectorOpIn, Values: []string{"prod", "dev"}},
			{Key: "canary", Operator: api.LabelSelectorOpDoesNotExist},
			{Key: "app", Operator: api.LabelSelectorOpExists},
			{Key: "zone", Operator: api.LabelSelectorOpNotIn, Values: []string{"a"}},
		}}, want: "app,!canary,env in (dev,prod),zone notin (a)"},
		{name: "unknown operator", ls: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: "Gt", Values: []string{"1"}}}},
			nothing: true, wantErr: `"Gt" is not a valid label selector operator`},
		{name: "in without values", ls: &api.LabelSelector{MatchExpressions: []api.LabelSelectorRequirement{{Key: "a", Operator: api.LabelSelectorOpIn}}},
			nothing: true, wantErr: "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty"},
		{name: "invalid match label value", ls: &api.LabelSelector{MatchLabels: map[string]string{"app": "a b"}},
			nothing: true, wantErr: `values[0][app]: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sel, err := FromLabelSelector(tc.ls)
			if tc.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, tc.wantErr, err.Error())
				assert.True(t, MustFromLabelSelector(tc.ls).IsNothing())
			} else {
				require.NoError(t, err)
				assert.Equal(t, tc.want, sel.String())
				assert.Equal(t, tc.want, MustFromLabelSelector(tc.ls).String())
			}
			assert.Equal(t, tc.nothing, sel.IsNothing())
		})
	}
}

func TestEverythingAndNothing(t *testing.T) {
	t.Parallel()
	assert.True(t, Everything().Matches(map[string]string{"x": "y"}))
	assert.True(t, Everything().Matches(nil))
	assert.True(t, Everything().Empty())
	assert.False(t, Nothing().Matches(map[string]string{"x": "y"}))
	assert.False(t, Nothing().Matches(nil))
	assert.False(t, Nothing().Empty())
	assert.True(t, Nothing().IsNothing())
	assert.Equal(t, "<none>", Nothing().String())
	assert.Empty(t, Nothing().Requirements())
}

// Rows of apimachinery's TestSetMatches, TestNilMapIsValid and TestSetIsEmpty.
func TestSelectorFromSet(t *testing.T) {
	t.Parallel()
	labelset := map[string]string{"foo": "bar", "baz": "blah"}
	for _, tc := range []struct {
		set   map[string]string
		match bool
	}{
		{map[string]string{}, true},
		{map[string]string{"foo": "bar"}, true},
		{map[string]string{"baz": "blah"}, true},
		{map[string]string{"foo": "bar", "baz": "blah"}, true},
		{map[string]string{"foo": "blah"}, false},
		{map[string]string{"foo": "bar", "foobar": "bar"}, false},
	} {
		t.Run(FormatLabels(tc.set), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.match, SelectorFromSet(tc.set).Matches(labelset))
		})
	}
	assert.True(t, SelectorFromSet(nil).Empty())
	assert.True(t, SelectorFromSet(map[string]string{}).Empty())
	assert.Equal(t, "baz=blah,foo=bar", SelectorFromSet(labelset).String())
}

func TestFormatLabels(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "<none>", FormatLabels(nil))
	assert.Equal(t, "<none>", FormatLabels(map[string]string{}))
	assert.Equal(t, "a=1,b=,c=3", FormatLabels(map[string]string{"c": "3", "a": "1", "b": ""}))
}

func TestRequirementsAreCopies(t *testing.T) {
	t.Parallel()
	sel, err := Parse("a=1,b=2")
	require.NoError(t, err)
	reqs := sel.Requirements()
	reqs[0].Key = "zzz"
	assert.Equal(t, "a=1,b=2", sel.String())
}

func TestRequirementMatchesUnknownOperator(t *testing.T) {
	t.Parallel()
	assert.False(t, Requirement{Key: "a", Op: "~"}.Matches(map[string]string{"a": "b"}))
	assert.False(t, Requirement{Key: "a", Op: GreaterThan, Values: []string{"x"}}.Matches(map[string]string{"a": "2"}))
}
