package scenario

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNameFromFile(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"web.yaml", "web"},
		{"scenarios/Rolling Update.YML", "rolling-update"},
		{`C:\demo\blue_green.json`, "blue-green"},
		{"--a..b--.yaml", "a-b"},
		{"web.v2.yaml", "web-v2"},
		{"日本.yaml", "scenario"},
		{".yaml", "scenario"},
		{"-", "scenario"},
		{strings.Repeat("ab-", 30) + ".yaml", strings.TrimSuffix(strings.Repeat("ab-", 21), "-")},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got := NameFromFile(tc.in)
			assert.Equal(t, tc.want, got)
			assert.Empty(t, nameError(got), "a derived name is always valid")
		})
	}
}

func TestNameError(t *testing.T) {
	t.Parallel()
	assert.Empty(t, nameError("rolling-update-2"))
	assert.Equal(t, "must not be empty", nameError(""))
	assert.Equal(t, "must be at most 63 characters", nameError(strings.Repeat("a", 64)))
	assert.Equal(t, "must consist of lowercase letters, digits and '-', at most 63 characters", nameError("Web"))
}

func TestSortNodeNames(t *testing.T) {
	t.Parallel()
	names := []string{"node-10", "node-2", "b", "node-1", "a10", "a9", "node-01"}
	sortNodeNames(names)
	assert.Equal(t, []string{"a9", "a10", "b", "node-1", "node-01", "node-2", "node-10"}, names)
}
