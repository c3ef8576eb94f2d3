package export

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
)

// Each simulated image gets its own real image, so that set image still
// makes a new revision; an image whose pull fails keeps its name, and so
// does a real one.
func TestDefaultImageMap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		scenario string
		want     map[string]string
	}{
		{"rolling-update", map[string]string{"myrepo/web:1.0": "registry.k8s.io/pause:3.10", "myrepo/web:2.0": "registry.k8s.io/pause:3.9"}},
		{"stuck-bad-image", map[string]string{"myrepo/web:1.0": "registry.k8s.io/pause:3.10"}},
		{"basic-loop", map[string]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.scenario, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tt.want, DefaultImageMap(simrun.Builtin(t, tt.scenario)))
		})
	}
}

func TestParseImageMap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     map[string]string
		err      string
	}{
		{"pairs", "myrepo/web:1.0=nginx:1.27, myrepo/web:2.0=nginx:1.28", map[string]string{"myrepo/web:1.0": "nginx:1.27", "myrepo/web:2.0": "nginx:1.28"}, ""},
		{"none", "none", map[string]string{}, ""},
		{"no equals", "nginx", nil, `"nginx" is not SIM=REAL`},
		{"empty side", "a=", nil, `"a=" is not SIM=REAL`},
		{"shell", "a=$(rm -rf x)", nil, `"$(rm" is not an image reference`},
		{"quote", "a=b'c", nil, `"b'c" is not an image reference`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseImageMap(tt.in)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// The script runs the mapped images, in the objects and in set image; a
// chosen map goes over the default, and none keeps the names.
func TestKubectlMapsImages(t *testing.T) {
	t.Parallel()
	scn := simrun.Builtin(t, "rolling-update")
	tests := []struct {
		name   string
		images map[string]string
		want   []string
	}{
		{"default", nil, []string{"- image: registry.k8s.io/pause:3.10\n", "set image deployment/web web=registry.k8s.io/pause:3.9\n", "#   myrepo/web:2.0 -> registry.k8s.io/pause:3.9\n"}},
		{"chosen", map[string]string{"myrepo/web:2.0": "nginx:1.28"}, []string{"- image: registry.k8s.io/pause:3.10\n", "set image deployment/web web=nginx:1.28\n"}},
		{"none", map[string]string{}, []string{"- image: myrepo/web:1.0\n", "set image deployment/web web=myrepo/web:2.0\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, err := Kubectl(scn, KubectlOptions{Images: tt.images})
			require.NoError(t, err)
			for _, w := range tt.want {
				assert.Contains(t, string(out), w)
			}
		})
	}
}
