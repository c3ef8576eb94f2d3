package session

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/scenarios"
)

func TestLibraryList(t *testing.T) {
	t.Parallel()
	got := testLibrary().List()
	assert.Equal(t, []Info{
		{Name: "alpha", Title: "Alpha", Description: "The first one."},
		{Name: "beta", Title: "Beta"},
		{Name: "broken", Title: "broken"},
	}, got)
}

func TestLibraryListIsACopy(t *testing.T) {
	t.Parallel()
	lib := testLibrary()
	lib.List()[0].Title = "changed"
	assert.Equal(t, "Alpha", lib.List()[0].Title)
}

func TestLibrarySource(t *testing.T) {
	t.Parallel()
	lib := testLibrary()
	src, err := lib.Source("beta")
	require.NoError(t, err)
	assert.Equal(t, betaYAML, string(src))

	_, err = lib.Source("../alpha")
	var unknown *UnknownScenarioError
	require.ErrorAs(t, err, &unknown)
	assert.Equal(t, `there is no built-in scenario "../alpha"; the built-in ones are alpha, beta, broken`, err.Error())
}

// The shipped library lists every scenario with its title, and its default
// opens.
func TestShippedLibrary(t *testing.T) {
	t.Parallel()
	lib := NewLibrary(scenarios.FS)
	list := lib.List()
	require.NotEmpty(t, list)
	for _, in := range list {
		assert.NotEqual(t, in.Name, in.Title, "%s: a shipped scenario has a title and parses", in.Name)
	}
	o := DecideAddress(ParseAddress("/"), lib)
	require.NotNil(t, o.Sim, o.Error)
	assert.Empty(t, o.Error)
	assert.Equal(t, lib.Default(), o.Name)
}
