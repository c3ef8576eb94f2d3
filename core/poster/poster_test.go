package poster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
)

func TestPathAndParsePathRoundTrip(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		path string
		scn  string
		t    int64
		ok   bool
	}{
		{name: "at 0s", path: "posters/rolling-update.svg", scn: "rolling-update", ok: true},
		{name: "at 30s", path: "posters/rolling-update-30s.svg", scn: "rolling-update", t: 30, ok: true},
		{name: "a name ending in a word", path: "posters/rolling-1000-pods.svg", scn: "rolling-1000-pods", ok: true},
		{name: "a leading zero is a name", path: "posters/x-030s.svg", scn: "x-030s", ok: true},
		{name: "not under posters", path: "dist/x.svg", ok: false},
		{name: "not svg", path: "posters/x.png", ok: false},
		{name: "a folder", path: "posters/a/b.svg", ok: false},
		{name: "a dot", path: "posters/..svg", ok: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			scn, sec, ok := ParsePath(tc.path)
			assert.Equal(t, tc.ok, ok)
			if tc.ok {
				assert.Equal(t, tc.scn, scn)
				assert.Equal(t, tc.t, sec)
				if tc.name != "a leading zero is a name" {
					assert.Equal(t, tc.path, Path(scn, sec))
				}
			}
		})
	}
}

func TestPosterOfAScenarioWithVariantsIsRefused(t *testing.T) {
	t.Parallel()
	_, err := Builtin("compare-strategies", 10)
	require.ErrorIs(t, err, ErrVariants)
	assert.NotContains(t, Builtins(), "compare-strategies")
	_, err = Builtin("no-such-scenario", 0)
	assert.EqualError(t, err, `there is no built-in scenario "no-such-scenario"`)
	_, err = Builtin("../etc/passwd", 0)
	assert.Error(t, err)
}

func TestPosterEscapesTheScenariosWords(t *testing.T) {
	t.Parallel()
	scn, probs := scenario.Parse([]byte(`name: web
duration: 20s
objects:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 2
      selector: {matchLabels: {app: web}}
      template:
        metadata: {labels: {app: web}}
        spec: {containers: [{name: web, image: "nginx:1.25"}]}
`), "x.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	svg, err := Of(scn, 10, Options{Title: `<b>&"x"</b>`})
	require.NoError(t, err)
	d := readSVG(t, svg)
	assert.Equal(t, `<b>&"x"</b>`, d.texts[0], "the title is text, not markup")
	assert.Len(t, d.tiles, 2)
	assert.NotContains(t, string(svg), "<b>")
}

func TestPosterPastTheEndDrawsTheEnd(t *testing.T) {
	t.Parallel()
	end, err := Builtin("rolling-update", 1<<40)
	require.NoError(t, err)
	scn, err := Scenario("rolling-update")
	require.NoError(t, err)
	last, err := Builtin("rolling-update", int64(scn.Duration.Seconds()))
	require.NoError(t, err)
	assert.Equal(t, string(last), string(end))
}

// Every built-in's poster is small: at 0s, midway and at the end.
func TestPostersAreSmall(t *testing.T) {
	t.Parallel()
	for _, name := range Builtins() {
		scn, err := Scenario(name)
		require.NoError(t, err)
		end := int64(scn.Duration.Seconds())
		for _, sec := range []int64{0, end / 2, end} {
			svg, err := Builtin(name, sec)
			require.NoError(t, err)
			assert.Less(t, len(svg), 12<<10, "%s at %ds: %d bytes", name, sec, len(svg))
		}
	}
}
