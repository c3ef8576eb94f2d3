package session

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/export"
	"converge/core/scenario"
	"converge/core/simtest/simrun"
	"converge/core/version"
)

// The downloads are made from the scenario as it runs, console steps
// included, and are what the command line makes of its YAML download.
func TestDownloadsAreWhatTheCommandLineMakes(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "basic-loop"))
	s.SeekTo(30)
	require.True(t, s.Run("scale deployment/web --replicas=4").OK)

	yml, err := ScenarioFile(s.Scenario())
	require.NoError(t, err)
	assert.Equal(t, "basic-loop.yaml", yml.Name)
	assert.Equal(t, TypeYAML, yml.Type)
	assert.Contains(t, string(yml.Data), "kubectl: scale deployment/web --replicas=4", "the console's step is in it")
	back, probs := scenario.Parse(yml.Data, "basic-loop.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)

	sh, err := KubectlFile(s.Scenario())
	require.NoError(t, err)
	assert.Equal(t, "basic-loop.sh", sh.Name)
	want, err := export.Kubectl(back, export.KubectlOptions{File: "basic-loop.yaml", Version: version.Version})
	require.NoError(t, err)
	assert.Equal(t, string(want), string(sh.Data))
	assert.Contains(t, string(sh.Data), "\nat 31\nstep 'scale deployment/web --replicas=4'")

	tr, err := TraceFile(s.Scenario())
	require.NoError(t, err)
	assert.Equal(t, "basic-loop.jsonl", tr.Name)
	var b bytes.Buffer
	require.NoError(t, export.Trace(&b, back, back.Duration))
	assert.True(t, bytes.Equal(b.Bytes(), tr.Data), "the trace of the downloaded YAML")
	assert.Equal(t, int(back.Duration.Seconds())+1, strings.Count(string(tr.Data), "\n"))
	assert.Contains(t, string(tr.Data), `"action":"kubectl scale deployment/web --replicas=4"`)

	svg := ChartsFile(s, "")
	assert.Equal(t, "basic-loop-31s.svg", svg.Name)
	assert.Equal(t, TypeSVG, svg.Type)
	assert.Contains(t, string(svg.Data), "basic-loop: The basic loop, scaling up and down")
	assert.Contains(t, string(svg.Data), "At 31s of 1m15s")
}
