package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/compare"
	"converge/core/sim"
	"converge/core/simtest/simrun"
)

func strategiesRun(t *testing.T) *compare.Run {
	t.Helper()
	r, err := compare.New(simrun.Builtin(t, "compare-strategies"), sim.Options{})
	require.NoError(t, err)
	return r
}

func TestCompareShowsEveryVariantAtTheSameSecond(t *testing.T) {
	t.Parallel()
	r := strategiesRun(t)
	r.SeekTo(23)
	c := CompareOf(r, "")
	assert.Equal(t, "web", c.Deployment)
	require.Len(t, c.Variants, 4)
	var names, strategies, patches []string
	for i, v := range c.Variants {
		assert.Equal(t, i+1, v.Index)
		names = append(names, v.Name)
		require.NotNil(t, v.Rollout)
		strategies = append(strategies, v.Rollout.Strategy)
		patches = append(patches, v.Patch)
		require.NotNil(t, v.Why)
		require.Len(t, v.Times, 1)
		assert.Equal(t, "web@20", v.Times[0].Key)
	}
	assert.Equal(t, []string{"surge-25-unavailable-25", "surge-0-unavailable-1", "surge-1-unavailable-0", "recreate"}, names)
	assert.Equal(t, []string{"RollingUpdate (maxSurge 25%, maxUnavailable 25%)", "RollingUpdate (maxSurge 0, maxUnavailable 1)",
		"RollingUpdate (maxSurge 1, maxUnavailable 0)", "Recreate"}, strategies)
	assert.Equal(t, []string{"the scenario as written",
		"deployment/web: {spec: {strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}}}",
		"deployment/web: {spec: {strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}}}",
		"deployment/web: {spec: {strategy: {type: Recreate}}}"}, patches)
	assert.NotNil(t, c.Variants[0].Rollout.Surge, "each column has its gauges")
	assert.Nil(t, c.Variants[3].Rollout.Surge, "Recreate has no budgets")
	assert.Equal(t, "progressing", c.Variants[1].Why.Kind, "a budget pacing a healthy rollout is progress, not failure")
}

func TestCompareChartOverlaysEveryVariant(t *testing.T) {
	t.Parallel()
	r := strategiesRun(t)
	r.SeekTo(40)
	ch := CompareChart(r, "web")
	var keys []string
	for _, s := range ch.Series {
		keys = append(keys, s.Key)
		assert.NotEmpty(t, s.Path, s.Key)
	}
	assert.Equal(t, []string{"v1-replicas", "v1-available", "v2-replicas", "v2-available", "v3-replicas", "v3-available",
		"v4-replicas", "v4-available"}, keys)
	assert.Equal(t, int64(20), ch.YMax, "13 replicas at most, rounded up")
	assert.Equal(t, int64(120), ch.Span)
	now := map[string]string{}
	for _, v := range ch.Now {
		now[v.Key] = v.Value
	}
	assert.Equal(t, "10", now["v4-available"], "Recreate is done at 40s")
	assert.Equal(t, "recreate available", ch.Series[7].Label)
}

func TestOutcomeTableMarksTheBest(t *testing.T) {
	t.Parallel()
	r := strategiesRun(t)
	r.SeekTo(120)
	tab := OutcomesOf(r)
	assert.Equal(t, "Outcomes at the end (2m): measured from each Deployment's rollout start (the step that changed its pod template)", tab.Caption)
	assert.Equal(t, []string{"variant", "rollout", "min available", "max replicas", "max pods", "pods created", "progress deadline"}, tab.Headers)
	require.Len(t, tab.Rows, 4)
	text := func(row OutcomeRow) []string {
		var out []string
		for _, c := range row.Cells {
			s := c.Text
			if c.Best {
				s += "*"
			}
			out = append(out, s)
		}
		return out
	}
	assert.Equal(t, []string{"11s*", "8 (80%)", "13", "18", "10", "-"}, text(tab.Rows[0]))
	assert.Equal(t, []string{"49s", "9 (90%)", "10*", "11", "10", "-"}, text(tab.Rows[1]))
	assert.Equal(t, []string{"49s", "10 (100%)*", "11", "12", "10", "-"}, text(tab.Rows[2]))
	assert.Equal(t, []string{"11s*", "0 (0%)", "10*", "10*", "10", "-"}, text(tab.Rows[3]))
	assert.Equal(t, "surge-0-unavailable-1/web", tab.Rows[1].Key)
	assert.Equal(t, 4, tab.Rows[3].Index)

	r.SeekTo(30)
	tab = OutcomesOf(r)
	assert.Equal(t, "Outcomes so far, at 30s of 2m: measured from each Deployment's rollout start (the step that changed its pod template)", tab.Caption)
	assert.Equal(t, "not complete", tab.Rows[0].Cells[0].Text)
	for _, row := range tab.Rows {
		if row.Cells[0].Text != "not complete" {
			continue
		}
		for i, c := range row.Cells {
			assert.False(t, c.Best, "%s: column %d: an unfinished rollout gets no star", row.Key, i)
		}
	}
}

func TestCompareOfAScenarioWithoutVariants(t *testing.T) {
	t.Parallel()
	r, err := compare.New(simrun.Builtin(t, "rolling-update"), sim.Options{})
	require.NoError(t, err)
	r.SeekTo(90)
	c := CompareOf(r, "web")
	require.Len(t, c.Variants, 1)
	assert.Equal(t, "the scenario as written", c.Variants[0].Patch)
	require.Len(t, c.Table.Rows, 1)
	for _, cell := range c.Table.Rows[0].Cells {
		assert.False(t, cell.Best, "one row has nothing to be best against")
	}
}

func TestCompareWithoutDeployment(t *testing.T) {
	t.Parallel()
	r, err := compare.New(simrun.Parse(t, "name: empty\n"), sim.Options{})
	require.NoError(t, err)
	c := CompareOf(r, "")
	assert.Equal(t, "", c.Deployment)
	require.Len(t, c.Variants, 1)
	assert.Nil(t, c.Variants[0].Rollout)
	assert.Empty(t, c.Table.Rows)
}

func TestSideNoteSaysWhichVariantTheSideShows(t *testing.T) {
	t.Parallel()
	r := strategiesRun(t)
	assert.Equal(t, `This column shows variant 1, "`+r.Variants[0].Name+`" (the scenario as written); Compare shows all 4 side by side.`, SideNote(r))
	assert.Empty(t, SideNote(nil))
}
