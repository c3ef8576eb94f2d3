package scenario_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/scenario"
	"converge/core/simtest"
)

// TestExpectTakesKubectlsSpellings pins that an expect target (and a crash
// fault) takes every resource type spelling that kubectl takes, qualified
// ones included, and refuses what kubectl refuses.
func TestExpectTakesKubectlsSpellings(t *testing.T) {
	t.Parallel()
	type row struct{ name, spelling, kind string } // kind "" means unknown to both
	var tests []row
	for _, r := range api.Resources() {
		for _, s := range append(r.Spellings(), r.Kind, strings.ToUpper(r.GroupResource())) {
			tests = append(tests, row{r.Kind + " as " + s, s, r.Kind})
		}
	}
	tests = append(tests,
		row{"a version alone", "deployment.v1", api.KindDeployment},
		row{"mixed case qualified", "Deployment.V1.Apps", api.KindDeployment},
		row{"typo", "deploymnt", ""},
		row{"core kind in apps", "pods.apps", ""},
		row{"retired group", "deployments.extensions", ""},
		row{"unknown version", "deployment.v2.apps", ""},
		row{"kind Converge lacks", "secrets", ""},
		row{"kubectl's all is not a type", "all", ""},
	)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := kubectl.Run(&kubectl.Env{Store: simtest.NewStore()}, "get "+tc.spelling+"/web")
			kubectlKnows := !strings.Contains(res.Error, fmt.Sprintf("doesn't have a resource type %q", tc.spelling))
			require.False(t, res.OK(), "the store is empty: %s", res.Output)

			kind, ok := scenario.LookupKind(tc.spelling)
			_, err := scenario.ParseExpect(tc.spelling + "/web .metadata.name == web")
			if tc.kind == "" {
				assert.False(t, kubectlKnows, res.Error)
				assert.False(t, ok)
				assert.ErrorContains(t, err, "unknown kind")
				return
			}
			assert.True(t, kubectlKnows, res.Error)
			assert.True(t, ok)
			assert.Equal(t, tc.kind, kind)
			assert.NoError(t, err)
			if tc.kind == api.KindPod || tc.kind == api.KindDeployment {
				_, err := scenario.ParseFault("crash " + tc.spelling + "/web")
				assert.NoError(t, err)
			}
		})
	}
}
