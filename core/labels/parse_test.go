package labels

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Rows of apimachinery's TestSelectorParse: good strings print back without
// their spaces.
func TestParseGoodStringsRestring(t *testing.T) {
	t.Parallel()
	for _, in := range []string{"x=a,y=b,z=c", "", "x!=a,y=b", "x=", "x= ", "x=,z= ", "x= ,z= ", "!x", "x>1", "x>1,z<5"} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			sel, err := Parse(in)
			require.NoError(t, err)
			assert.Equal(t, strings.ReplaceAll(in, " ", ""), sel.String())
		})
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	labelValueMsg := "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	keyMsg := "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"double bar is part of a value", "x=a||y=b", `unable to parse requirement: values[0][x]: Invalid value: "a||y": ` + labelValueMsg},
		{"two equals", "x==a==b", "found '==', expected: ',' or 'end of string'"},
		{"not with a value", "!x=a", "found '=', expected: ',' or 'end of string'"},
		{"less than a word", "x<a", `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`},
		{"trailing comma", "a in (xyz),", "found '', expected: identifier after ','"},
		{"leading comma", ",x,y", "found ',', expected: !, identifier, or 'end of string'"},
		{"misspelt operator", "x nott in (y)", "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt"},
		{"missing comma after set", "a in (xyz)b notin ()", "found 'b', expected: ',' or 'end of string'"},
		{"no comma in set", "a in (xyz abc)", "unable to parse requirement: found 'abc', expected: ',' or ')'"},
		{"unclosed set", "a notin(", "unable to parse requirement: found '', expected: ',', ')' or identifier"},
		{"set without operator", "a (", "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt"},
		{"open paren", "(", "found '(', expected: !, identifier, or 'end of string'"},
		{"in without set", "x in y", "unable to parse requirement: found 'y' expected: '('"},
		{"invalid key", "-x=a", `unable to parse requirement: <nil>: Invalid value: "-x": ` + keyMsg},
		{"bang alone", "!", "unable to parse requirement: found '', expected: identifier"},
		{"operator in a set", "x in (a,=)", "unable to parse requirement: found '=', expected: ',', or identifier"},
		{"equals then paren", "x=(", "unable to parse requirement: found '(', expected: identifier"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sel, err := Parse(tc.in)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.True(t, sel.IsNothing(), "a failed parse selects nothing")
		})
	}
}

func req(t *testing.T, key string, op Operator, vals ...string) Requirement {
	t.Helper()
	r, err := NewRequirement(key, op, vals)
	require.NoError(t, err)
	return r
}

// Rows of apimachinery's TestSetSelectorParser that the current parser accepts.
func TestParseSetSelectors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want func(t *testing.T) []Requirement
	}{
		{"", func(t *testing.T) []Requirement { return nil }},
		{"\rx", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", Exists)} }},
		{"this-is-a-dns.domain.com/key-with-dash", func(t *testing.T) []Requirement {
			return []Requirement{req(t, "this-is-a-dns.domain.com/key-with-dash", Exists)}
		}},
		{"this-is-another-dns.domain.com/key-with-dash in (so,what)", func(t *testing.T) []Requirement {
			return []Requirement{req(t, "this-is-another-dns.domain.com/key-with-dash", In, "so", "what")}
		}},
		{"0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)", func(t *testing.T) []Requirement {
			return []Requirement{req(t, "0.1.2.domain/99", NotIn, "10.10.100.1", "tick.tack.clock")}
		}},
		{"foo  in\t (abc)", func(t *testing.T) []Requirement { return []Requirement{req(t, "foo", In, "abc")} }},
		{"x notin\n (abc)", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", NotIn, "abc")} }},
		{"x  notin\t\t\t(abc,def)", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", NotIn, "abc", "def")} }},
		{"x in (abc,def)", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", In, "abc", "def")} }},
		{"x in (abc,)", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", In, "", "abc")} }},
		{"x in ()", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", In, "")} }},
		// Two commas before ')': apimachinery 0.35 reads the second comma as
		// its own step (found by tools/k8sdiff's TestLibLabels).
		{"env in (a,,)", func(t *testing.T) []Requirement { return []Requirement{req(t, "env", In, "", "a")} }},
		{"env in (,,)", func(t *testing.T) []Requirement { return []Requirement{req(t, "env", In, "")} }},
		{"env in (a,,b)", func(t *testing.T) []Requirement { return []Requirement{req(t, "env", In, "", "a", "b")} }},
		{"x notin (abc,def),bar,z in (),w", func(t *testing.T) []Requirement {
			return []Requirement{req(t, "bar", Exists), req(t, "w", Exists), req(t, "x", NotIn, "abc", "def"), req(t, "z", In, "")}
		}},
		{"x,y in (a)", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", Exists), req(t, "y", In, "a")} }},
		{"x,y", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", Exists), req(t, "y", Exists)} }},
		{"x=a", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", Equals, "a")} }},
		{"x>1", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", GreaterThan, "1")} }},
		{"x<7", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", LessThan, "7")} }},
		{"x=a,y!=b", func(t *testing.T) []Requirement {
			return []Requirement{req(t, "x", Equals, "a"), req(t, "y", NotEquals, "b")}
		}},
		{"x=a,y!=b,z in (h,i,j)", func(t *testing.T) []Requirement {
			return []Requirement{req(t, "x", Equals, "a"), req(t, "y", NotEquals, "b"), req(t, "z", In, "h", "i", "j")}
		}},
		{"x notin ( )", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", NotIn, "")} }},
		{"x notin (, a)", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", NotIn, "", "a")} }},
		{"a ", func(t *testing.T) []Requirement { return []Requirement{req(t, "a", Exists)} }},
		{"a in (x,y,notin, z,in)", func(t *testing.T) []Requirement {
			return []Requirement{req(t, "a", In, "in", "notin", "x", "y", "z")}
		}},
		{"x in (b,a,b,,c)", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", In, "", "a", "b", "c")} }},
		{"in in (notin),notin=in", func(t *testing.T) []Requirement {
			return []Requirement{req(t, "in", In, "notin"), req(t, "notin", Equals, "in")}
		}},
		{"x==y", func(t *testing.T) []Requirement { return []Requirement{req(t, "x", DoubleEquals, "y")} }},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			sel, err := Parse(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want(t), sel.Requirements())
		})
	}
}

// TestDeterministicParse is apimachinery's: the order of requirements in the
// input does not change the selector.
func TestDeterministicParse(t *testing.T) {
	t.Parallel()
	s1, err1 := Parse("x=a,a=x")
	s2, err2 := Parse("a=x,x=a")
	require.NoError(t, err1)
	require.NoError(t, err2)
	assert.Equal(t, s1.String(), s2.String())
	assert.Equal(t, "a=x,x=a", s1.String())
}

// TestParseNulByte pins kube's lexer: a NUL ends the input where a token
// would start, and ends an identifier inside one.
func TestParseNulByte(t *testing.T) {
	t.Parallel()
	_, err := Parse("x=a,\x00")
	require.Error(t, err)
	assert.Equal(t, "found '', expected: identifier after ','", err.Error())
	sel, err := Parse("x=\x00")
	require.NoError(t, err)
	assert.Equal(t, "x=", sel.String())
	_, err = Parse("x=a\x00b")
	require.Error(t, err)
	assert.Equal(t, "found 'b', expected: ',' or 'end of string'", err.Error())
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "x=a,y=b", "x in (a,b),!y", "k notin ()", "a>1,b<2", "x==a==b", "x in (b,a,b,,)",
		"example.com/k=v", "x=a||y=b", "(", "!", "x in (", "a, b", "x\x00=y", "é=1", "in in (notin)", "x= ,z= "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		sel, err := Parse(in)
		if err != nil {
			if !sel.IsNothing() {
				t.Fatalf("Parse(%q) failed but did not return Nothing", in)
			}
			return
		}
		again, err := Parse(sel.String())
		if err != nil {
			t.Fatalf("Parse(%q).String() = %q does not re-parse: %v", in, sel.String(), err)
		}
		if !equalRequirements(sel.Requirements(), again.Requirements()) {
			t.Fatalf("Parse(%q) = %v, re-parsed %q = %v", in, sel.Requirements(), sel.String(), again.Requirements())
		}
	})
}

func equalRequirements(a, b []Requirement) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Key != b[i].Key || a[i].Op != b[i].Op || strings.Join(a[i].Values, "\x00") != strings.Join(b[i].Values, "\x00") ||
			len(a[i].Values) != len(b[i].Values) {
			return false
		}
	}
	return true
}
