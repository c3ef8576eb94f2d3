package export

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
	"converge/core/view"
)

// chartsAt are the charts of a shipped scenario at second t, as the page
// draws them.
func chartsAt(t *testing.T, name string, at int64) []view.Chart {
	t.Helper()
	s := simrun.New(t, simrun.Builtin(t, name))
	s.SeekTo(at)
	return view.Charts(s, "")
}

// decodeSVG parses an SVG document and returns its elements' names and
// the text of its <text> elements, failing on XML that does not parse.
func decodeSVG(t *testing.T, data []byte) (elems []string, texts []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the SVG is well-formed XML")
		switch v := tok.(type) {
		case xml.StartElement:
			elems = append(elems, v.Name.Local)
			inText = v.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				texts = append(texts, string(v))
			}
		}
	}
	return elems, texts
}

func TestChartsSVGDrawsEveryChart(t *testing.T) {
	t.Parallel()
	charts := chartsAt(t, "rolling-update", 40)
	require.NotEmpty(t, charts)
	out := ChartsSVG("Rolling update", "at 40s of 1m30s", charts)
	elems, texts := decodeSVG(t, out)
	assert.Equal(t, "svg", elems[0])
	assert.Contains(t, texts, "Rolling update")
	assert.Contains(t, texts, "at 40s of 1m30s")
	for _, c := range charts {
		assert.Contains(t, texts, c.Title)
		for _, s := range c.Series {
			assert.Contains(t, string(out), `d="`+s.Path+`"`, "the series %s, with the view model's path", s.Key)
		}
		for _, tk := range c.XTicks {
			assert.Contains(t, texts, tk.Label)
		}
	}
	// The legend carries the values now, as the page's does.
	var legend []string
	for _, v := range charts[0].Now {
		legend = append(legend, v.Label+" "+v.Value)
	}
	for _, l := range legend {
		assert.Contains(t, texts, l)
	}
	assert.Equal(t, string(out), string(ChartsSVG("Rolling update", "at 40s of 1m30s", charts)), "the same bytes twice")
}

func TestChartsSVGEscapesText(t *testing.T) {
	t.Parallel()
	charts := chartsAt(t, "basic-loop", 10)
	charts[0].Title = `<script>alert("x")</script> & 'co'`
	out := ChartsSVG(`a < b & "c"`, "", charts)
	_, texts := decodeSVG(t, out)
	assert.Contains(t, texts, `a < b & "c"`)
	assert.Contains(t, texts, charts[0].Title)
	assert.NotContains(t, string(out), "<script>")
	assert.Contains(t, string(out), "&lt;script&gt;")
}

func TestChartsSVGWithoutCharts(t *testing.T) {
	t.Parallel()
	_, texts := decodeSVG(t, ChartsSVG("", "", nil))
	assert.Equal(t, []string{"Nothing to chart yet."}, texts)
}

// The SVG of rolling-update at 40s is pinned in testdata (go test
// ./core/export -update rewrites it; open it in a browser to look at it).
func TestChartsSVGGolden(t *testing.T) {
	t.Parallel()
	got := ChartsSVG("rolling-update: Rolling update, 25% surge", "at 40s", chartsAt(t, "rolling-update", 40))
	golden := filepath.Join("testdata", "rolling-update-40s.golden.svg")
	if *update {
		require.NoError(t, os.WriteFile(golden, got, 0o644))
		return
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "run go test ./core/export -update")
	assert.Equal(t, strings.Split(string(want), "\n"), strings.Split(string(got), "\n"))
}

// esc agrees with encoding/xml's EscapeText.
func TestEscMatchesEncodingXML(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "plain", `<a href="x">&'</a>`, "line\nbreak\ttab\rcr", "\x00\x01ctl", "\xffbad utf-8", "é ✓ 💡", "\uFFFE"} {
		var b strings.Builder
		require.NoError(t, xml.EscapeText(&b, []byte(s)))
		assert.Equal(t, b.String(), esc(s), "%q", s)
	}
}
