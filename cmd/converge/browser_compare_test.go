package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/compare"
	"converge/core/sim"
	"converge/core/simtest/simrun"
)

// compareReady is true once the page has drawn the Compare view's columns.
const compareReady = `document.documentElement.dataset.ready === "true" && document.querySelectorAll(".cv-app .cv-compare-col").length > 0 && document.querySelector(".cv-app .cv-compare-title").textContent !== ""`

// openCompare serves the page, opens path in a width×height light viewport
// and waits for the Compare view.
func openCompare(t *testing.T, srv *served, path string, width, height int64) *page {
	t.Helper()
	p := openPage(t, srv.URL+path)
	p.emulate(t, width, height, "light")
	p.waitReady(t)
	p.waitFor(t, compareReady)
	if m := addressTime.FindStringSubmatch(path); m != nil {
		// As openUI: the page reaches its &t= in slices.
		p.waitFor(t, "converge.time() === "+m[1])
	}
	return p
}

// compareState is what the Compare view shows.
type compareState struct {
	Title    string     `json:"title"`
	Columns  []string   `json:"columns"`
	Times    []string   `json:"times"`
	Headers  []string   `json:"headers"`
	Rows     [][]string `json:"rows"`
	Caption  string     `json:"caption"`
	Series   int        `json:"series"`
	Gauges   int        `json:"gauges"`
	Tiles    []int      `json:"tiles"`
	Why      bool       `json:"whyShown"`
	Rollout  bool       `json:"rolloutShown"`
	Compared bool       `json:"compared"`
	T        int64      `json:"t"`
}

const readCompare = `(() => {
	const app = document.querySelector(".cv-app");
	const cols = [...app.querySelectorAll(".cv-compare-col")];
	return {
		title: app.querySelector(".cv-compare-title").textContent,
		columns: cols.map((c) => c.querySelector(".cv-compare-name").textContent),
		times: cols.map((c) => c.querySelector(".cv-times").hidden ? "" : c.querySelector(".cv-times").textContent),
		headers: [...app.querySelectorAll(".cv-outcomes thead th")].map((th) => th.textContent),
		rows: [...app.querySelectorAll(".cv-outcomes tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)),
		caption: app.querySelector(".cv-outcomes caption").textContent,
		series: app.querySelectorAll(".cv-compare-chart .cv-line").length,
		gauges: app.querySelectorAll(".cv-compare-col .cv-gauge").length,
		tiles: cols.map((c) => c.querySelectorAll(".cv-tile").length),
		whyShown: !app.querySelector(".cv-why").hidden,
		rolloutShown: !app.querySelector(".cv-rollout:not(.cv-rollout-compact)").hidden,
		compared: converge.compared(),
		t: converge.time(),
	};
})()`

// TestUICompareView opens the library's compare-strategies: a scenario
// with variants gets the Compare view by itself, a column per variant on
// one clock, the chart overlaying them and the outcomes table, which at
// the end says what `converge compare` says (the known cases: 8 and
// 13, 9 and 10, 10 and 11, 0 and 10).
func TestUICompareView(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openCompare(t, srv, "/?scenario=compare-strategies&t=30", 1280, 900)
	got := evalJS[compareState](t, p, readCompare)
	assert.Equal(t, "Compare 4 variants of deployment/web", got.Title)
	assert.Equal(t, []string{"surge-25-unavailable-25", "surge-0-unavailable-1", "surge-1-unavailable-0", "recreate"}, got.Columns)
	assert.True(t, got.Compared)
	assert.False(t, got.Why, "the single why panel gives way to the columns")
	assert.False(t, got.Rollout, "the single rollout gives way to the columns")
	assert.Equal(t, 8, got.Series, "available and replicas for each of 4 variants")
	assert.Equal(t, 8, got.Gauges, "surge and unavailability per variant")
	for i, n := range got.Tiles {
		assert.GreaterOrEqual(t, n, 10, "column %d draws its pods", i)
	}
	for i, text := range got.Times {
		assert.Contains(t, text, "Rollout 2 (", "column %d says where its rollout's time goes", i)
	}
	assert.Equal(t, []string{"variant", "rollout", "min available", "max replicas", "max pods", "pods created", "progress deadline"}, got.Headers)
	assert.Contains(t, got.Caption, "Outcomes so far, at 30s of 2m")
	p.shot(t, "compare-30s", true)

	// One clock: stepping through the timeline moves every variant.
	evalJS[bool](t, p, `(document.querySelector(".cv-timeline .cv-step").click(), true)`)
	p.waitFor(t, `converge.time() === 31 && document.querySelector(".cv-outcomes caption").textContent.includes("at 31s")`)

	// At the end the table is `converge compare`'s.
	evalJS[bool](t, p, `converge.seekAsync(120).then(() => true)`)
	p.waitFor(t, `document.querySelector(".cv-outcomes caption").textContent.startsWith("Outcomes at the end")`)
	got = evalJS[compareState](t, p, readCompare)
	require.Len(t, got.Rows, 4)
	want := [][]string{
		{"surge-25-unavailable-25", "11s ★", "8 (80%)", "13", "18", "10", "-"},
		{"surge-0-unavailable-1", "49s", "9 (90%)", "10 ★", "11", "10", "-"},
		{"surge-1-unavailable-0", "49s", "10 (100%) ★", "11", "12", "10", "-"},
		{"recreate", "11s ★", "0 (0%)", "10 ★", "10 ★", "10", "-"},
	}
	assert.Equal(t, want, got.Rows)

	r, err := compare.New(simrun.Builtin(t, "compare-strategies"), sim.Options{})
	require.NoError(t, err)
	r.SeekTo(120)
	native, err := json.Marshal(r.Outcomes(120))
	require.NoError(t, err)
	assert.JSONEq(t, string(native), evalJS[string](t, p, `JSON.stringify(converge.outcomes())`),
		"converge.outcomes() is converge compare --output json")
	p.shot(t, "compare-end", true)
	p.assertNoConsoleErrors(t)
}

// TestUICompareAt375 checks the Compare view on a phone: nothing of it is
// wider than the screen, the outcomes table included (it reflows to one
// card per variant, each value labelled with its column), and the side
// column says which variant it shows.
func TestUICompareAt375(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openCompare(t, srv, "/?scenario=compare-strategies&t=26", 375, 800)
	wide := evalJS[[]string](t, p, `[...document.querySelectorAll(".cv-compare *")]
		.filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && e.getClientRects().length > 0)
		.map((e) => e.className || e.tagName).slice(0, 10)`)
	assert.Empty(t, wide, "elements of the Compare view wider than a 375 px screen")
	box := evalJS[[2]float64](t, p, `[document.querySelector(".cv-outcomes").scrollWidth, document.querySelector(".cv-outcomes-wrap").clientWidth]`)
	assert.LessOrEqual(t, box[0], box[1], "the outcomes table fits its box")
	assert.Contains(t, evalJS[string](t, p, `document.querySelector(".cv-loop-variant").textContent`), "This column shows variant 1")
	p.shot(t, "compare-375", true)
	for _, part := range []string{".cv-compare", ".cv-compare-col:nth-child(2) .cv-gauges", ".cv-compare-chart", ".cv-outcomes-wrap"} {
		evalJS[bool](t, p, `(document.querySelector("`+part+`").scrollIntoView(), true)`)
		p.shot(t, "compare-375-"+strings.Trim(strings.NewReplacer(" ", "", ":", "", "(", "", ")", "", ".", "-").Replace(part), "-"), false)
	}
	p.assertNoConsoleErrors(t)
}

// TestUICompareShareLink shares compare-strategies as a link: the link
// opens the Compare view at its second with every variant, and so does a
// <converge-sim share=...>; <converge-sim compare> compares a scenario
// without variants as one column.
func TestUICompareShareLink(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openCompare(t, srv, "/?scenario=compare-strategies", 1280, 800)
	share := evalJS[string](t, p, `converge.shareFragment()`)

	q := openCompare(t, srv, "/#s="+share+"&t=40", 1280, 800)
	got := evalJS[compareState](t, q, readCompare)
	assert.Equal(t, int64(40), got.T)
	assert.Len(t, got.Columns, 4)
	assert.Contains(t, got.Caption, "at 40s of 2m")
	assert.Equal(t, []string{"surge-25-unavailable-25", "surge-0-unavailable-1", "surge-1-unavailable-0", "recreate"},
		evalJS[[]string](t, q, `converge.variants()`))
	q.assertNoConsoleErrors(t)

	e := openPage(t, srv.URL+"/embed-demo.html")
	e.emulate(t, 1280, 900, "light")
	e.waitReady(t)
	evalJS[bool](t, e, `(() => {
		for (const [id, attrs] of [["shared", {share: `+jsString(share)+`, t: "40"}], ["forced", {scenario: "basic-loop", compare: ""}], ["plain", {scenario: "basic-loop"}]]) {
			const el = document.createElement("converge-sim");
			el.id = id;
			for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
			document.body.append(el);
		}
		return true;
	})()`)
	// Each element's open and first render are tasks of their own: wait
	// for every element's opened promise (docs/js-api.md), not for its
	// shadow root's first node.
	evalJS[bool](t, e, `Promise.all(["shared", "forced", "plain"].map((id) => document.getElementById(id).opened)).then((rs) => rs.every((r) => r && r.ok))`)
	cols := evalJS[map[string]int](t, e, `Object.fromEntries(["shared", "forced", "plain"].map((id) => {
		const root = document.getElementById(id).shadowRoot;
		const cmp = root.querySelector(".cv-compare");
		return [id, cmp && !cmp.hidden ? root.querySelectorAll(".cv-compare-col").length : 0];
	}))`)
	assert.Equal(t, map[string]int{"shared": 4, "forced": 1, "plain": 0}, cols)
	e.shot(t, "compare-embeds", true)
	e.assertNoConsoleErrors(t)
}

// TestUIWhereTheTimeGoes opens a stuck rollout: the Why panel says where
// its time went and counts the progress deadline down ("N s of 120 s
// without progress"), and the timeline draws the rollout's seconds as
// bands, with the deadline's mark ahead; once exceeded the mark says so.
func TestUIWhereTheTimeGoes(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=stuck-bad-image&t=62", 1280, 800, "light")
	type state struct {
		Times    string   `json:"times"`
		Bands    []string `json:"bands"`
		Mark     string   `json:"mark"`
		MarkKind string   `json:"markKind"`
	}
	read := `(() => {
		const times = document.querySelector(".cv-why .cv-times");
		const mark = document.querySelector(".cv-deadline-mark");
		return {
			times: times.hidden ? "" : times.textContent,
			bands: [...document.querySelectorAll(".cv-time-band")].map((b) => b.className + " " + b.title),
			mark: mark.hidden ? "" : mark.title,
			markKind: mark.className,
		};
	})()`
	got := evalJS[state](t, p, read)
	assert.Contains(t, got.Times, "Rollout 2 (web-")
	assert.Contains(t, got.Times, "42 s so far")
	assert.Contains(t, got.Times, "progress deadline: 42 s of 120 s without progress")
	require.NotEmpty(t, got.Bands)
	assert.Contains(t, got.Bands[len(got.Bands)-1], "cv-part-failing")
	assert.Contains(t, got.Mark, "2m21s: the progress deadline is exceeded then unless the rollout progresses (42 s of 120 s without progress now)")
	assert.Contains(t, got.MarkKind, "cv-deadline-deadline")
	rt := evalJS[[]struct {
		Deadline string `json:"deadline"`
		Seconds  int64  `json:"seconds"`
	}](t, p, `converge.rolloutTimes("web")`)
	require.NotEmpty(t, rt)
	assert.Equal(t, "progress deadline: 42 s of 120 s without progress", rt[0].Deadline)
	p.shot(t, "times-62s", false)

	evalJS[bool](t, p, `converge.seekAsync(150).then(() => true)`)
	p.waitFor(t, `document.querySelector(".cv-deadline-mark").className.includes("exceeded")`)
	got = evalJS[state](t, p, read)
	assert.Contains(t, got.Times, "progress deadline exceeded at")
	assert.Contains(t, got.Mark, "ProgressDeadlineExceeded (120 s without progress)")
	p.shot(t, "times-150s", false)
	p.assertNoConsoleErrors(t)
}
