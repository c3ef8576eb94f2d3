package view

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/sim"
)

// pathRe is the path data the charts may emit: absolute moves, horizontal
// and vertical lines, close.
var pathRe = regexp.MustCompile(`^(M-?[0-9.]+,-?[0-9.]+([HV]-?[0-9.]+)*Z?)*$`)

func TestChartsDrawReplicasBandsAndSuccessRate(t *testing.T) {
	t.Parallel()
	s := at(t, rolling, 30)
	charts := Charts(s, "web")
	require.Len(t, charts, 2)
	c := charts[0]
	assert.Equal(t, "deployment/web", c.Key)
	assert.Equal(t, int64(70), c.Span, "duration: 60s after the last step")
	assert.Equal(t, int64(20), c.YMax, "13 pods at most, rounded to 20")
	var keys []string
	for _, sr := range c.Series {
		keys = append(keys, sr.Key)
		assert.Regexp(t, pathRe, sr.Path)
		assert.True(t, strings.HasPrefix(sr.Path, "M0,"), sr.Path)
	}
	assert.Equal(t, []string{"desired", "total", "updated", "ready", "available"}, keys)
	require.Len(t, c.Bands, 2)
	for _, b := range c.Bands {
		assert.Regexp(t, pathRe, b.Path)
		assert.True(t, strings.HasSuffix(b.Path, "Z"), b.Path)
	}
	// desired is 10 from t=0 to now: y = 200 − 10·200/20 = 100, drawn
	// above the series equal to it (sideBySide): 2 of them (97.5) at
	// first, then 4 (95), none from 10s (100), 1 from 14s (98.8), 4 again
	// from 16s.
	assert.Equal(t, "M0,97.5H57.1V95H142.8V100H200V98.8H228.5V95H442.8", c.Series[0].Path)
	assert.Equal(t, "428.5", c.MarkerX, "30/70 of the width")
	assert.Equal(t, []Tick{{"0", "0s", false}, {"214.2", "15s", true}, {"428.5", "30s", false}, {"642.8", "45s", true}, {"857.1", "1m", false}}, c.XTicks,
		"every other time label is minor")
	assert.Equal(t, []Tick{{"200", "0", false}, {"100", "10", false}, {"0", "20", false}}, c.YTicks)
	assert.Equal(t, []Value{{"desired", "desired", "10"}, {"total", "total pods", "10"}, {"updated", "updated", "10"},
		{"ready", "ready", "10"}, {"available", "available", "10"}}, c.Now)

	svc := charts[1]
	assert.Equal(t, "service/web", svc.Key)
	assert.Equal(t, "%", svc.YUnit)
	assert.Regexp(t, pathRe, svc.Series[0].Path)
	assert.Equal(t, []Value{{"success", "success rate", "100%"}}, svc.Now)
	assert.Equal(t, "100%", svc.YTicks[2].Label)
}

func TestChartsAfterABackwardSeekKeepTheKnownFuture(t *testing.T) {
	t.Parallel()
	s := at(t, rolling, 30)
	s.SeekTo(5)
	c := Charts(s, "")[0]
	assert.Equal(t, "71.4", c.MarkerX)
	assert.Equal(t, "M0,97.5H57.1V95H142.8V100H200V98.8H228.5V95H442.8", c.Series[0].Path, "seconds up to 30 stay drawn")
}

func TestChartsWithoutDeploymentOrTraffic(t *testing.T) {
	t.Parallel()
	assert.Empty(t, Charts(load(t, "name: empty\n"), ""))
}

func TestScalePaths(t *testing.T) {
	t.Parallel()
	sc := scale{span: 10, yMax: 10}
	vals := []int64{0, 0, 5, 5, 10, 3}
	have := []bool{true, true, true, false, true, true}
	assert.Equal(t, "M0,200H200V100H300M400,0H500V140H600", sc.line(vals, nil, have))
	top := []int64{4, 4, 6}
	bottom := []int64{2, 2, 2}
	assert.Equal(t, "M0,120H200V80H300V160H0Z", sc.band(top, bottom, []bool{true, true, true}))
	assert.Equal(t, "M0,120H100V160H0ZM200,80H300V140H200Z", sc.band(top, []int64{2, 2, 3}, []bool{true, false, true}))
	assert.Equal(t, "M0,120H300V140H200V160H0Z", sc.band([]int64{4, 4, 4}, []int64{2, 2, 3}, []bool{true, true, true}))
	assert.Equal(t, "", sc.band(top, bottom, []bool{false, false, false}))
	assert.Equal(t, "-1.5", tenths(-15))
	assert.Equal(t, "12", tenths(120))
	wide := scale{span: 86400, yMax: 10}
	assert.Equal(t, int64(44), wide.stride())
	assert.Equal(t, int64(21600), timeStep(86400))
	assert.Equal(t, int64(21600), timeStep(1<<40))
	assert.Equal(t, int64(1), timeStep(6))
	assert.Equal(t, int64(10), timeStep(60))
	for in, want := range map[int64]int64{0: 5, 4: 5, 5: 5, 7: 10, 13: 20, 21: 50, 101: 200, 999: 1000} {
		assert.Equal(t, want, niceMax(in), "%d", in)
	}
}

// Series equal at a second are drawn side by side, 2.5 units apart in
// series order, centred on the value and kept inside the chart; a series
// alone is drawn at its value.
func TestSideBySide(t *testing.T) {
	t.Parallel()
	sc := scale{span: 10, yMax: 20}
	tests := []struct {
		name string
		vals [][]int64
		want [][]int64
	}{
		{"alone", [][]int64{{5}, {8}}, [][]int64{{0}, {0}}},
		{"a pair", [][]int64{{8}, {8}}, [][]int64{{-12}, {13}}},
		{"a pair and one alone", [][]int64{{8}, {3}, {8}}, [][]int64{{-12}, {0}, {13}}},
		{"three", [][]int64{{8}, {8}, {8}}, [][]int64{{-25}, {0}, {25}}},
		{"five at the bottom, inside the chart", [][]int64{{0}, {0}, {0}, {0}, {0}}, [][]int64{{-115}, {-90}, {-65}, {-40}, {-15}}},
		{"a pair at the top, inside the chart", [][]int64{{20}, {30}}, [][]int64{{15}, {40}}},
		{"over time", [][]int64{{8, 8, 8}, {8, 5, 8}}, [][]int64{{-12, 0, -12}, {13, 0, 13}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			have := make([]bool, len(tc.vals[0]))
			for i := range have {
				have[i] = true
			}
			got := sc.sideBySide(tc.vals, have)
			assert.Equal(t, tc.want, got)
			// No two series are drawn at one height at any second.
			for s := range have {
				seen := map[int64]bool{}
				for i := range tc.vals {
					y := sc.y10(tc.vals[i][s]) + got[i][s]
					assert.False(t, seen[y], "second %d: two lines at %d", s, y)
					assert.GreaterOrEqual(t, y, int64(edge10))
					assert.LessOrEqual(t, y, int64(ChartHeight*10-edge10))
					seen[y] = true
				}
			}
		})
	}
}

// In a whole rollout, no two of the replica chart's lines have the same
// path: each series stays visible.
func TestChartsNoLineHidesAnother(t *testing.T) {
	t.Parallel()
	for _, at2 := range []int64{0, 10, 30, 60} {
		c := Charts(at(t, rolling, at2), "web")[0]
		seen := map[string]string{}
		for _, sr := range c.Series {
			if other, ok := seen[sr.Path]; ok {
				t.Errorf("at %ds %s hides %s: %s", at2, sr.Key, other, sr.Path)
			}
			seen[sr.Path] = sr.Key
		}
	}
}

func TestServiceNamesInFirstSeenOrder(t *testing.T) {
	t.Parallel()
	hist := []sim.Sample{{Services: []sim.ServiceSample{{Name: "b"}}}, {Services: []sim.ServiceSample{{Name: "a"}, {Name: "b"}}}}
	assert.Equal(t, []string{"b", "a"}, serviceNames(hist))
}
