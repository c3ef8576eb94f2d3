//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/session"
)

// TestCreateBeyondTheBudgetIsAnErrorValue: once the page's simulations
// hold its memory budget, create returns {ok: false, error} instead of an
// instance; dispose makes room again.
func TestCreateBeyondTheBudgetIsAnErrorValue(t *testing.T) {
	t.Parallel()
	p := newTestPage(t)
	require.True(t, decode[loadResult](t, rawCall(p.def.obj, "load", webYAML)).OK)
	p.instances.budget = session.PageBytes(p.instances.sessions()) + 2*session.InstanceBytes
	first := rawCall(p.obj, "create")
	require.Equal(t, js.TypeObject, first.Type(), "one more fits")
	require.True(t, decode[loadResult](t, rawCall(first, "load", webYAML)).OK)

	refused := rawCall(p.obj, "create")
	require.Equal(t, js.TypeString, refused.Type(), "beyond the budget, an outcome")
	var got struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(refused.String()), &got))
	assert.False(t, got.OK)
	assert.Contains(t, got.Error, "create: the page's memory budget is spent: its 2 simulations hold about ")
	assert.Contains(t, got.Error, "dispose() some first")
	assert.Equal(t, 2, rawCall(p.obj, "count").Int(), "nothing was created")

	rawCall(first, "dispose")
	assert.Equal(t, js.TypeObject, rawCall(p.obj, "create").Type(), "a dispose makes room")
}
