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
	// desired is 10 from t=0 to now: y = 200 − 10·200/20 = 100.
	assert.Equal(t, "M0,100H442.8", c.Series[0].Path)
	assert.Equal(t, "428.5", c.MarkerX, "30/70 of the width")
	assert.Equal(t, []Tick{{"0", "0s"}, {"214.2", "15s"}, {"428.5", "30s"}, {"642.8", "45s"}, {"857.1", "1m"}}, c.XTicks)
	assert.Equal(t, []Tick{{"200", "0"}, {"100", "10"}, {"0", "20"}}, c.YTicks)
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
	assert.Equal(t, "M0,100H442.8", c.Series[0].Path, "seconds up to 30 stay drawn")
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
	assert.Equal(t, "M0,200H200V100H300M400,0H500V140H600", sc.line(vals, have))
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

func TestServiceNamesInFirstSeenOrder(t *testing.T) {
	t.Parallel()
	hist := []sim.Sample{{Services: []sim.ServiceSample{{Name: "b"}}}, {Services: []sim.ServiceSample{{Name: "a"}, {Name: "b"}}}}
	assert.Equal(t, []string{"b", "a"}, serviceNames(hist))
}
