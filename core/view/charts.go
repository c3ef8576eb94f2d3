package view

import (
	"strconv"
	"strings"

	"converge/core/sim"
)

// The fixed coordinate system of every chart: the page scales the SVG, the
// path data never depends on the screen.
const (
	ChartWidth  = 1000
	ChartHeight = 200
)

// ChartViewBox is the viewBox attribute of every chart.
var ChartViewBox = "0 0 " + strconv.Itoa(ChartWidth) + " " + strconv.Itoa(ChartHeight)

// Chart is one SVG chart: lines over seconds 0..Span, bands behind them and
// a marker at the current second.
type Chart struct {
	// Key is "deployment/web" or "service/web".
	Key   string
	Title string
	// Span is the last second of the x axis (the scenario's duration, or
	// further when the simulation went past it).
	Span int64
	// YMax is the value at the top of the chart; YUnit is "pods" or "%".
	YMax  int64
	YUnit string
	// Series are the lines, Bands the shaded areas, both as SVG path data.
	Series []Series
	Bands  []Series
	// MarkerX is the x of the current second; FutureX..ChartWidth is time
	// not simulated in this timeline yet, or simulated ahead of now.
	MarkerX string
	// Ticks are the labels of the axes.
	XTicks, YTicks []Tick
	// Now holds the values at the current second, for the legend: "ready 8".
	Now []Value
}

// Series is one line or band.
type Series struct {
	Key   string // "desired", "updated", "ready", "available", "total", "surge", "unavailable", "success"
	Label string
	Path  string
}

// Tick is one axis label at a position (x or y in chart units).
type Tick struct {
	Pos   string
	Label string
	// Minor ticks are every other label of the time axis: a narrow chart
	// (a phone) leaves them out, so that the labels it keeps stay apart.
	Minor bool
}

// Value is one series' value now.
type Value struct {
	Key, Label string
	Value      string
}

// Charts returns the replica chart of the Deployment named name (or the
// focus) and one success-rate chart per Service, over every second
// computed so far.
func Charts(s *sim.Sim, name string) []Chart {
	hist := s.History()
	span := max(int64(s.Duration().Seconds()), s.Horizon(), s.T(), 1)
	var out []Chart
	if d := Focus(s, name); d != nil {
		out = append(out, replicaChart(hist, d.Name, span, s.T()))
	}
	for _, svc := range serviceNames(hist) {
		out = append(out, successChart(hist, svc, span, s.T()))
	}
	return out
}

// serviceNames lists the Services that had traffic, in first-seen order.
func serviceNames(hist []sim.Sample) []string {
	seen := map[string]bool{}
	var out []string
	for _, smp := range hist {
		for _, sv := range smp.Services {
			if !seen[sv.Name] {
				seen[sv.Name] = true
				out = append(out, sv.Name)
			}
		}
	}
	return out
}

var replicaSeries = []struct{ key, label string }{
	{"desired", "desired"}, {"total", "total pods"}, {"updated", "updated"}, {"ready", "ready"}, {"available", "available"},
}

func replicaChart(hist []sim.Sample, name string, span, now int64) Chart {
	vals := make([][]int64, len(replicaSeries))
	var surgeTop, unavailBottom, desired []int64
	var have []bool
	var yMax int64 = 1
	for _, smp := range hist {
		var ds *sim.DeploymentSample
		for i := range smp.Deployments {
			if smp.Deployments[i].Name == name {
				ds = &smp.Deployments[i]
			}
		}
		have = append(have, ds != nil)
		if ds == nil {
			for i := range vals {
				vals[i] = append(vals[i], 0)
			}
			surgeTop, unavailBottom, desired = append(surgeTop, 0), append(unavailBottom, 0), append(desired, 0)
			continue
		}
		v := []int64{int64(ds.Desired), int64(ds.Total), int64(ds.Updated), int64(ds.Ready), int64(ds.Available)}
		for i := range vals {
			vals[i] = append(vals[i], v[i])
			yMax = max(yMax, v[i])
		}
		surgeTop = append(surgeTop, int64(ds.Desired+ds.MaxSurge))
		unavailBottom = append(unavailBottom, int64(max(ds.Desired-ds.MaxUnavail, 0)))
		desired = append(desired, int64(ds.Desired))
		yMax = max(yMax, int64(ds.Desired+ds.MaxSurge))
	}
	yMax = niceMax(yMax)
	sc := scale{span: span, yMax: yMax}
	offs := sc.sideBySide(vals, have)
	c := Chart{Key: "deployment/" + name, Title: "deployment/" + name + ": replicas over time", Span: span, YMax: yMax, YUnit: "pods"}
	c.Bands = []Series{
		{Key: "surge", Label: "surge allowed (desired + maxSurge)", Path: sc.band(surgeTop, desired, have)},
		{Key: "unavailable", Label: "unavailability allowed (desired − maxUnavailable)", Path: sc.band(desired, unavailBottom, have)},
	}
	for i, rs := range replicaSeries {
		c.Series = append(c.Series, Series{Key: rs.key, Label: rs.label, Path: sc.line(vals[i], offs[i], have)})
		if now < int64(len(vals[i])) && have[now] {
			c.Now = append(c.Now, Value{Key: rs.key, Label: rs.label, Value: strconv.FormatInt(vals[i][now], 10)})
		}
	}
	sc.axes(&c, now)
	return c
}

func successChart(hist []sim.Sample, svc string, span, now int64) Chart {
	var vals []int64
	var have []bool
	for _, smp := range hist {
		var v int64
		ok := false
		for _, sv := range smp.Services {
			if sv.Name == svc && sv.Requests > 0 {
				v, ok = int64(sv.Succeeded)*100/int64(sv.Requests), true
			}
		}
		vals, have = append(vals, v), append(have, ok)
	}
	sc := scale{span: span, yMax: 100}
	c := Chart{Key: "service/" + svc, Title: "service/" + svc + ": requests that succeeded", Span: span, YMax: 100, YUnit: "%",
		Series: []Series{{Key: "success", Label: "success rate", Path: sc.line(vals, nil, have)}}}
	if now < int64(len(vals)) && have[now] {
		c.Now = []Value{{Key: "success", Label: "success rate", Value: strconv.FormatInt(vals[now], 10) + "%"}}
	}
	sc.axes(&c, now)
	return c
}

// niceMax rounds a chart's top up to 1, 2 or 5 times a power of ten, at
// least 4, so that the grid lines fall on round numbers.
func niceMax(v int64) int64 {
	v = max(v, 4)
	for p := int64(1); ; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if m*p >= v {
				return m * p
			}
		}
	}
}

// scale maps seconds and values to chart units, in tenths so that the path
// data needs no floats.
type scale struct {
	span, yMax int64
}

func (sc scale) x10(t int64) int64 { return t * ChartWidth * 10 / sc.span }
func (sc scale) y10(v int64) int64 {
	v = min(max(v, 0), sc.yMax)
	return (ChartHeight*10 - v*ChartHeight*10/sc.yMax)
}

// tenths renders a coordinate in tenths: 123 → "12.3", 120 → "12".
func tenths(v int64) string {
	if v%10 == 0 {
		return strconv.FormatInt(v/10, 10)
	}
	neg := ""
	if v < 0 {
		neg, v = "-", -v
	}
	return neg + strconv.FormatInt(v/10, 10) + "." + strconv.FormatInt(v%10, 10)
}

// stride is how many seconds share one point, so that a path has at most
// about two points per unit of width.
func (sc scale) stride() int64 { return max(1, sc.span/(ChartWidth*2)+1) }

// lineGap10 is how far apart, in tenths of a chart unit (a unit is about a
// pixel), lines whose values are equal at a second are drawn (sideBySide);
// edge10 keeps such a line this far inside the chart, so that its stroke
// is not cut at the top or the bottom.
const (
	lineGap10 = 25
	edge10    = 15
)

// sideBySide returns, per series and second, how far to draw the series
// off its value, in tenths of a unit, so that series that are equal at a
// second run side by side instead of one over the other. At each second
// the series with the same drawn height form a group; the group's lines
// are 2.5 units apart, in series order from the top, centred on the value
// and moved inside the chart at its edges. A series alone is drawn at its
// value. For example ready = available = 8 on a 0..20 chart (8 is drawn
// 1200 tenths from the top): ready at 1188, available at 1213; all five
// series at 0 (2000): from 1885 to 1985, the lowest 1.5 units above the
// bottom.
func (sc scale) sideBySide(vals [][]int64, have []bool) [][]int64 {
	offs := make([][]int64, len(vals))
	for i := range offs {
		offs[i] = make([]int64, len(have))
	}
	group := make([]int, 0, len(vals))
	for t := range have {
		if !have[t] {
			continue
		}
		done := make([]bool, len(vals))
		for i := range vals {
			if done[i] {
				continue
			}
			y := sc.y10(vals[i][t])
			group = group[:0]
			for j := i; j < len(vals); j++ {
				if !done[j] && sc.y10(vals[j][t]) == y {
					done[j] = true
					group = append(group, j)
				}
			}
			if len(group) == 1 {
				continue
			}
			// Offsets from the top line: -(n-1)/2 gaps .. +(n-1)/2 gaps.
			half := int64(len(group)-1) * lineGap10 / 2
			shift := int64(0)
			if y-half < edge10 {
				shift = edge10 - (y - half)
			} else if y+half > ChartHeight*10-edge10 {
				shift = ChartHeight*10 - edge10 - (y + half)
			}
			for k, j := range group {
				offs[j][t] = int64(k)*lineGap10 - half + shift
			}
		}
	}
	return offs
}

// line is a step line: each second's value holds until the next second,
// drawn off its value by offs (tenths; nil: none). Seconds without a value
// break the line.
func (sc scale) line(vals, offs []int64, have []bool) string {
	var b strings.Builder
	open := false
	var y int64
	step := sc.stride()
	n := int64(len(vals))
	for t := int64(0); t < n; t += step {
		if !have[t] {
			if open {
				b.WriteString("H" + tenths(sc.x10(t)))
			}
			open = false
			continue
		}
		x, v := sc.x10(t), sc.y10(vals[t])
		if offs != nil {
			v += offs[t]
		}
		switch {
		case !open:
			b.WriteString("M" + tenths(x) + "," + tenths(v))
			open = true
		case v != y:
			b.WriteString("H" + tenths(x) + "V" + tenths(v))
		}
		y = v
	}
	if open {
		b.WriteString("H" + tenths(sc.x10(min(n, sc.span))))
	}
	return b.String()
}

// band is the step-shaped area between top and bottom, for the seconds
// that have values.
func (sc scale) band(top, bottom []int64, have []bool) string {
	var b strings.Builder
	step := sc.stride()
	n := int64(len(top))
	for t := int64(0); t < n; {
		if !have[t] {
			t += step
			continue
		}
		start := t
		for t < n && have[t] {
			t += step
		}
		end := min(t, n)
		// Along the top, left to right, then back along the bottom.
		y := sc.y10(top[start])
		b.WriteString("M" + tenths(sc.x10(start)) + "," + tenths(y))
		for u := start + step; u < end; u += step {
			if v := sc.y10(top[u]); v != y {
				b.WriteString("H" + tenths(sc.x10(u)) + "V" + tenths(v))
				y = v
			}
		}
		b.WriteString("H" + tenths(sc.x10(min(end, sc.span))))
		last := start + (end-1-start)/step*step
		y = sc.y10(bottom[last])
		b.WriteString("V" + tenths(y))
		for u := last - step; u >= start; u -= step {
			if v := sc.y10(bottom[u]); v != y {
				b.WriteString("H" + tenths(sc.x10(u+step)) + "V" + tenths(v))
				y = v
			}
		}
		b.WriteString("H" + tenths(sc.x10(start)) + "Z")
	}
	return b.String()
}

// axes fills the marker and the ticks: 5 x labels in seconds, y labels at
// 0, half and the top.
func (sc scale) axes(c *Chart, now int64) {
	c.MarkerX = tenths(sc.x10(min(now, sc.span)))
	step := timeStep(sc.span)
	for t := int64(0); t <= sc.span; t += step {
		c.XTicks = append(c.XTicks, Tick{Pos: tenths(sc.x10(t)), Label: secondsText(t), Minor: len(c.XTicks)%2 == 1})
	}
	unit := ""
	if c.YUnit == "%" {
		unit = "%"
	}
	for _, v := range []int64{0, sc.yMax / 2, sc.yMax} {
		c.YTicks = append(c.YTicks, Tick{Pos: tenths(sc.y10(v)), Label: strconv.FormatInt(v, 10) + unit})
	}
}

// timeSteps are the spacings of the time axis's labels, in seconds.
var timeSteps = []int64{1, 2, 5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600}

// timeStep picks the smallest spacing that puts at most 6 labels on span.
func timeStep(span int64) int64 {
	for _, s := range timeSteps {
		if span/s <= 6 {
			return s
		}
	}
	return timeSteps[len(timeSteps)-1]
}
