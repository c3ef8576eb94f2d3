package session

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest"
)

func TestPrepare(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		src        string
		wantOK     bool
		wantErrors []Problem
		wantNotes  int
	}{
		{name: "a valid scenario starts at 0", src: alphaYAML, wantOK: true},
		{name: "an unknown field at its line and column", src: "name: x\n  \nbogus: 1\n",
			wantErrors: []Problem{{Line: 3, Col: 1, Message: `unknown field "bogus"`}}},
		{name: "an empty file", src: "",
			wantErrors: []Problem{{Line: 1, Col: 1, Message: "the file holds no scenario and no objects"}}},
		{name: "a server-set field is a note", wantOK: true, wantNotes: 1,
			src: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, uid: abc}\n"},
		{name: "a kubectl step kubectl rejects", src: "name: x\nsteps:\n- at: 1s\n  kubectl: scale deploy/web --replicas=abc\n",
			wantErrors: []Problem{{Line: 4, Col: 40,
				Message: `steps[0].kubectl: invalid argument "abc" for "--replicas" flag: strconv.ParseInt: parsing "abc": invalid syntax`}}},
		{name: "more than the limit", src: "name: x\n#" + strings.Repeat("x", scenario.MaxFileSize),
			wantErrors: []Problem{{Message: "the file is too large: a scenario may have at most 4 MiB"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := Prepare([]byte(tc.src), "s.yaml")
			assert.Equal(t, tc.wantOK, p.Result.OK)
			assert.Equal(t, tc.wantOK, p.Sim != nil)
			assert.Len(t, p.Result.Notes, tc.wantNotes)
			if tc.wantErrors != nil {
				assert.Equal(t, tc.wantErrors, p.Result.Errors)
			} else {
				assert.Empty(t, p.Result.Errors)
			}
			assert.Equal(t, p.Result, Validate([]byte(tc.src), "s.yaml"), "validate agrees with load")
		})
	}
}

func TestLoadResultJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		res  LoadResult
		want string
	}{
		{name: "ok has empty lists, not null", res: NewLoadResult(nil), want: `{"ok":true,"errors":[],"notes":[],"moreErrors":0,"moreNotes":0}`},
		{name: "errors with line and col", want: `{"ok":false,"errors":[{"line":2,"col":1,"message":"m"}],"notes":[],"moreErrors":0,"moreNotes":0}`,
			res: NewLoadResult(scenario.Problems{{File: "f", Line: 2, Message: "m"}})},
		{name: "a failure without a position", res: FailedLoad(errors.New("no such thing")),
			want: `{"ok":false,"errors":[],"notes":[],"moreErrors":0,"moreNotes":0,"error":"no such thing"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.JSONEq(t, tc.want, JSON(tc.res))
		})
	}
}

func TestJSONOfTheUnmarshalableIsAnInternalError(t *testing.T) {
	t.Parallel()
	assert.JSONEq(t, `{"ok":false,"error":"internal error: json: unsupported value: NaN"}`, JSON(math.NaN()))
}

func TestSummary(t *testing.T) {
	t.Parallel()
	p := func(line int, msg string) Problem { return Problem{Line: line, Col: 3, Message: msg} }
	tests := []struct {
		name string
		res  LoadResult
		want string
	}{
		{name: "none", res: LoadResult{OK: true}, want: ""},
		{name: "one", res: LoadResult{Errors: []Problem{p(4, "bad")}}, want: "4:3: bad"},
		{name: "two", res: LoadResult{Errors: []Problem{p(4, "bad"), p(5, "worse")}}, want: "4:3: bad (and 1 more problem)"},
		{name: "three", res: LoadResult{Errors: []Problem{p(4, "bad"), p(5, "b"), p(6, "c")}}, want: "4:3: bad (and 2 more problems)"},
		{name: "no position", res: LoadResult{Errors: []Problem{p(0, "empty")}}, want: "empty"},
		{name: "an error wins", res: LoadResult{Error: "gone", Errors: []Problem{p(1, "x")}}, want: "gone"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.res.Summary())
		})
	}
	require.NotEmpty(t, tests)
}

// TestLoadResultShowsTheFirstProblems: of one bad anchor's 60,001
// problems, the JS API gets the first 100 and a count of the rest.
func TestLoadResultShowsTheFirstProblems(t *testing.T) {
	t.Parallel()
	res := Validate([]byte(simtest.AliasFloodYAML(60_000)), "s.yaml")
	assert.False(t, res.OK)
	require.Len(t, res.Errors, 100)
	assert.Equal(t, Problem{Line: 16, Col: 18, Message: "cannot decode a mapping into spec.template.spec.containers[0].args[0] (a string)"}, res.Errors[0])
	assert.Equal(t, 59_901, res.MoreErrors)
	assert.Zero(t, res.MoreNotes)
	assert.Equal(t, "16:18: cannot decode a mapping into spec.template.spec.containers[0].args[0] (a string) (and 60,000 more problems)", res.Summary())
	assert.Contains(t, JSON(res), `"moreErrors":59901`)
}
