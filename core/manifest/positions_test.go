package manifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParentPath(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"spec.template.spec.containers[0].image", "spec.template.spec.containers[0]"},
		{"spec.template.spec.containers[0]", "spec.template.spec.containers"},
		{"spec.replicas", "spec"},
		{"spec", ""},
		{"metadata.annotations[deployment.kubernetes.io/revision]", "metadata.annotations"},
		{"a[1][2]", "a[1]"},
		{"broken]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, parentPath(tc.in))
		})
	}
}

func TestPositionsLookupFindsTheNearestWrittenAncestor(t *testing.T) {
	t.Parallel()
	in := lines(
		"apiVersion: apps/v1",
		"kind: Deployment",
		"metadata:",
		"  name: web",
		"  labels: {app: web}",
		"spec:",
		"  strategy:",
		"    type: RollingUpdate",
		"  template:",
		"    spec:",
		"      containers:",
		"      - name: web",
		"        image: nginx",
	)
	docs, probs := Decode([]byte(in), "d.yaml")
	require.Empty(t, probs)
	pos := docs[0].Positions
	tests := []struct {
		path     string
		key, val Position
	}{
		{"", Position{1, 1}, Position{1, 1}},
		{"metadata.name", Position{4, 3}, Position{4, 9}},
		{"metadata.labels[app]", Position{5, 12}, Position{5, 17}},
		{"metadata.labels[tier]", Position{5, 3}, Position{5, 11}},
		{"spec.strategy.rollingUpdate.maxSurge", Position{7, 3}, Position{8, 5}},
		{"spec.template.spec.containers[0].image", Position{13, 9}, Position{13, 16}},
		{"spec.template.spec.containers[0]", Position{12, 9}, Position{12, 9}},
		{"spec.template.spec.containers[3].image", Position{11, 7}, Position{12, 7}},
		{"spec.selector", Position{6, 1}, Position{7, 3}},
		{"status.replicas", Position{1, 1}, Position{1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.key, pos.Lookup(tc.path))
			assert.Equal(t, tc.val, pos.LookupValue(tc.path))
		})
	}
	assert.True(t, pos.Has("spec.strategy.type"))
	assert.False(t, pos.Has("spec.replicas"))
	assert.Contains(t, pos.Paths(), "spec.template.spec.containers[0].name")
	assert.Equal(t, Position{}, Positions{}.Lookup("x"), "empty positions know nothing")
}
