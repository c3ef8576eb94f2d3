package main

// Browser tests of the page itself (the Go renderer in wasm/render*.go and
// wasm/ui*.go, web/index.html, web/style.css): see browser_harness_test.go.
// Each drives the page the way a user does (clicks, keys, typing) inside one
// Evaluate and returns what the page then shows.
//
// Screenshots of every main view, in the light and the dark theme, at
// 1280×800 and at 768 px wide, are written as test artifacts (and to
// $CONVERGE_SCREENSHOTS when it is set).

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/session"
	"converge/core/sim"
	"converge/core/simtest"
	"converge/core/version"
	"converge/core/view"
	"converge/scenarios"
)

// updateScreenshot rewrites docs/screenshot.png from TestUIScreenshots.
var updateScreenshot = flag.Bool("update-screenshot", false, "rewrite docs/screenshot.png")

// screenshotsOnly skips a test whose work is its screenshots, for a person
// to look at (it asserts no more than "no console errors", which the tests
// that drive the same views assert too): it runs with
// CONVERGE_SCREENSHOTS=DIR or -update-screenshot (`make screenshots`), not
// in `make test`, where it cost minutes.
func screenshotsOnly(t *testing.T) {
	t.Helper()
	if os.Getenv("CONVERGE_SCREENSHOTS") == "" && !*updateScreenshot {
		t.Skip("screenshots for a person to look at: make screenshots (CONVERGE_SCREENSHOTS=DIR)")
	}
}

// uiReady is true once the app has drawn the rollout of a loaded scenario.
const uiReady = `document.documentElement.dataset.ready === "true" && document.querySelector(".cv-app .cv-rollout-title") !== null && document.querySelector(".cv-app .cv-rollout-title").textContent !== ""`

// openUI serves the page, opens path (e.g. "/?scenario=rolling-update") in
// a width×height viewport with the given colour scheme ("light" or
// "dark"), and waits until the app has drawn.
func openUI(t testing.TB, srv *served, path string, width, height int64, scheme string) *page {
	t.Helper()
	p := openPage(t, srv.URL+path)
	p.emulate(t, width, height, scheme)
	p.waitReady(t)
	p.waitFor(t, uiReady)
	if m := addressTime.FindStringSubmatch(path); m != nil && len(m[1]) <= 4 {
		// The page reaches its &t= in slices (seekAsync): wait for it to
		// land. A far one (a day) is the seek tests' own to watch.
		p.waitFor(t, "converge.time() === "+m[1])
	}
	return p
}

// addressTime finds an address's t= second.
var addressTime = regexp.MustCompile(`[?&#]t=([0-9]+)\b`)

// emulate sets the viewport and prefers-color-scheme.
func (p *page) emulate(t testing.TB, width, height int64, scheme string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	media := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(width, height), media))
}

// waitFor polls expr in the page until it is true, within pageTimeout
// (chromedp's own polling timeout, 30 s of the page's time, is off: a
// busy machine took longer to boot a page).
func (p *page) waitFor(t testing.TB, expr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(0)))
	require.NoError(t, err, "waiting for %s\nconsole:\n%s", expr, p.consoleText())
}

// shot saves a PNG of the page as NAME.png in the test's temp dir and, when
// CONVERGE_SCREENSHOTS=DIR is set, in DIR as TEST-NAME.png. full captures
// the whole page (the viewport is stretched to the page's height for the
// capture), otherwise the viewport as a user first sees it.
func (p *page) shot(t testing.TB, name string, full bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	size := evalJS[[2]int64](t, p, `[window.innerWidth, window.innerHeight]`)
	var actions []chromedp.Action[chromedp.Void]
	if full {
		h := evalJS[int64](t, p, `Math.ceil(document.documentElement.scrollHeight)`)
		actions = append(actions, chromedp.EmulateViewport(size[0], max(h, size[1])))
	}
	require.NoError(t, chromedp.Do(ctx, actions...))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err, "screenshot %s", name)
	if full {
		require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(size[0], size[1])))
	}
	saveShot(t, name, png)
}

func saveShot(t testing.TB, name string, png []byte) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name+".png")
	require.NoError(t, os.WriteFile(file, png, 0o644))
	if dir := os.Getenv("CONVERGE_SCREENSHOTS"); dir != "" {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		base := strings.NewReplacer("/", "-", " ", "_").Replace(t.Name()) + "-" + name + ".png"
		require.NoError(t, os.WriteFile(filepath.Join(dir, base), png, 0o644))
	}
}

// The page loads without console errors and draws its first render within
// 1.5 s of the navigation: the why-line, the rollout, the loop and the
// scenario's title.
func TestUIPageLoadsAndDrawsTheRolloutFirst(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/", 1280, 800, "light")
	got := evalJS[struct {
		Mounted  float64  `json:"mounted"`
		Title    string   `json:"title"`
		Headline string   `json:"headline"`
		Loop     []string `json:"loop"`
		Intro    string   `json:"intro"`
		Want     string   `json:"want"`
		Tiles    int      `json:"tiles"`
		Tabs     []string `json:"tabs"`
		Status   string   `json:"status"`
		Hover    string   `json:"hover"`
	}](t, p, `(() => {
		const tile = document.querySelector(".cv-columns .cv-tile");
		tile.dispatchEvent(new MouseEvent("mouseover", {bubbles: true}));
		const q = (s) => document.querySelector(s);
		const all = (s) => [...document.querySelectorAll(s)].map((e) => e.textContent);
		return {
			mounted: performance.getEntriesByName("converge:mounted")[0].startTime,
			title: q(".cv-rollout-title").textContent,
			headline: q(".cv-headline").textContent,
			loop: all(".cv-ctl"),
			intro: q(".cv-intro-title").textContent,
			want: converge.scenarios().find((s) => s.name === converge.name()).title,
			tiles: document.querySelectorAll(".cv-rollout .cv-tiles .cv-tile").length,
			tabs: all(".cv-tab"),
			status: q("#status").textContent,
			hover: tile.title,
		};
	})()`)
	// How soon is a benchmark's question (BenchmarkBrowserLongestBlock),
	// not a test's: a loaded machine makes any bound flaky.
	t.Logf("first render %.0f ms after the navigation started", got.Mounted)
	assert.Positive(t, got.Mounted, "the first render is marked")
	assert.Equal(t, "deployment/web · revision 1", got.Title)
	assert.NotEmpty(t, got.Headline)
	assert.Equal(t, loopTitles(t, session.NewLibrary(scenarios.FS).Default()), got.Loop, "the components in the engine's tick order")
	assert.Equal(t, got.Want, got.Intro, "the default scenario's title")
	assert.Positive(t, got.Tiles)
	assert.Equal(t, []string{"Charts", "Nodes", "Events", "Steps", "Console", "Editor", "Revisions", "Selectors", "My scenarios"}, got.Tabs)
	assert.Contains(t, got.Status, version.Version)
	assert.Regexp(t, `^web-[a-z0-9]+-[a-z0-9]+: (Pending|ContainerCreating|Running, not ready|Running, ready, not yet available|Running, available)`, got.Hover, "a tile's hover text")
	p.assertNoConsoleErrors(t)
}

// loopTitles are the titles of the loop panel's rows for the built-in
// scenario name at t=0, natively: one per component of sim.TickOrder that
// the scenario runs (view.Shown: no GitOps reconciler without
// cluster.gitops, no HPA controller or metrics server without an HPA).
func loopTitles(t testing.TB, name string) []string {
	t.Helper()
	src, err := fsReadScenario(name)
	require.NoError(t, err)
	scn, probs := scenario.Parse([]byte(src), name+".yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	s, err := sim.New(scn, sim.Options{})
	require.NoError(t, err)
	var out []string
	for _, r := range view.Loop(s, "") {
		out = append(out, r.Title)
	}
	var shown int
	for _, c := range sim.TickOrder() {
		if view.Shown(s, c.Name) {
			shown++
		}
	}
	require.Len(t, out, shown)
	return out
}

// Pressing play advances simulated time until pause; the controls say so.
func TestUIPlayAdvancesTime(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update", 1280, 800, "light")
	start := evalJS[int](t, p, `(document.querySelector(".cv-play").click(), converge.time())`)
	p.waitFor(t, `converge.time() >= `+fmt.Sprint(start+3))
	got := evalJS[struct {
		Pressed string `json:"pressed"`
		Label   string `json:"label"`
		T       int    `json:"t"`
		Now     string `json:"now"`
		Scrub   string `json:"scrub"`
	}](t, p, `(() => {
		const b = document.querySelector(".cv-play");
		b.click();
		return {pressed: b.getAttribute("aria-pressed"), label: b.textContent, t: converge.time(),
			now: document.querySelector(".cv-now").textContent, scrub: document.querySelector(".cv-scrub").value};
	})()`)
	assert.Equal(t, "false", got.Pressed)
	assert.Equal(t, "Play", got.Label)
	assert.GreaterOrEqual(t, got.T, start+3)
	assert.Equal(t, fmt.Sprintf("t = %ds of 1m30s", got.T), got.Now)
	assert.Equal(t, fmt.Sprint(got.T), got.Scrub)
	after := evalJS[int](t, p, `new Promise((r) => setTimeout(() => r(converge.time()), 300))`)
	assert.Equal(t, got.T, after, "paused")
	p.assertNoConsoleErrors(t)
}

// A console command changes the cluster, joins the scenario as a step and
// is echoed with kubectl's output; the history and tab completion work.
func TestUIConsoleRunsCommandsAndEchoesThem(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop&t=10", 1280, 800, "light")
	got := evalJS[struct {
		Echo     []string `json:"echo"`
		Out      []string `json:"out"`
		Summary  string   `json:"summary"`
		T        int      `json:"t"`
		History  string   `json:"history"`
		Complete string   `json:"complete"`
		Steps    string   `json:"steps"`
	}](t, p, `(() => {
		document.querySelector("[data-tab=console]").click();
		const input = document.querySelector(".cv-cmd");
		const key = (k) => input.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true, cancelable: true}));
		const run = (line) => { input.value = line; key("Enter"); };
		run("get deployments");
		run("kubectl scale deployment/web --replicas=6");
		const all = (s) => [...document.querySelectorAll(s)].map((e) => e.textContent);
		const result = {echo: all(".cv-echo"), out: all(".cv-out"), summary: document.querySelector(".cv-summary").textContent,
			t: converge.time(), steps: converge.scenario()};
		key("ArrowUp");
		result.history = input.value;
		input.value = "rollout und";
		key("Tab");
		result.complete = input.value;
		return result;
	})()`)
	require.Len(t, got.Echo, 2)
	assert.Equal(t, "$ kubectl get deployments", got.Echo[0])
	assert.Contains(t, got.Out[0], "NAME")
	assert.Contains(t, got.Out[0], "web")
	assert.Equal(t, "$ kubectl scale deployment/web --replicas=6    # a step at 11s", got.Echo[1])
	assert.Equal(t, "deployment.apps/web scaled", got.Out[1])
	assert.Contains(t, got.Summary, "6 desired")
	assert.Equal(t, 11, got.T, "a change runs one second from now")
	assert.Contains(t, got.Steps, "kubectl: scale deployment/web --replicas=6", "the command joins the scenario")
	assert.Equal(t, "scale deployment/web --replicas=6", got.History)
	assert.Equal(t, "rollout undo ", got.Complete)
	p.assertNoConsoleErrors(t)
}

// A console command that waits (rollout status) shows its first line at
// once and its later lines as the simulation advances, until it ends.
func TestUIConsoleCommandThatWaits(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update&t=21", 1280, 800, "light")
	first := evalJS[struct {
		Out     string `json:"out"`
		Waiting bool   `json:"waiting"`
	}](t, p, `(() => {
		document.querySelector("[data-tab=console]").click();
		const input = document.querySelector(".cv-cmd");
		input.value = "rollout status deployment/web";
		input.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true, cancelable: true}));
		const e = document.querySelector(".cv-entry:not(.cv-scripted)");
		return {out: e.querySelector(".cv-out").textContent, waiting: e.classList.contains("cv-waiting")};
	})()`)
	assert.True(t, first.Waiting)
	assert.Contains(t, first.Out, `Waiting for deployment "web" rollout to finish`)
	assert.NotContains(t, first.Out, "successfully rolled out")
	p.screenshot(t, "waiting")
	// Step on, a second at a time, as the page's step button does.
	p.waitFor(t, `(() => {
		document.querySelector(".cv-timeline .cv-step").click();
		const e = document.querySelector(".cv-entry:not(.cv-scripted)");
		return e && !e.classList.contains("cv-waiting") && e.querySelector(".cv-out").textContent.includes("successfully rolled out");
	})()`)
	out := evalJS[string](t, p, `document.querySelector(".cv-entry:not(.cv-scripted) .cv-out").textContent`)
	assert.True(t, strings.HasPrefix(out, first.Out), "the first lines stay: %q", out)
	p.screenshot(t, "done")
	assert.Equal(t, 2, evalJS[int](t, p, `converge.scenario().split("rollout status").length - 1`),
		"read-only: not a step (the scenario has its own two)")
	p.assertNoConsoleErrors(t)
}

// An invalid edit shows the API server's message at the line and column it
// is about, and Apply waits until it is fixed; a valid edit applies and
// restarts the simulation.
func TestUIEditorShowsTheAPIServersMessageAtItsLine(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update&t=30", 1280, 800, "light")
	src := evalJS[string](t, p, `(document.querySelector("[data-tab=editor]").click(), document.querySelector(".cv-ed-text").value)`)
	i := strings.LastIndex(src, "labels: {app: web}")
	require.Positive(t, i)
	mismatch := src[:i] + "labels: {app: api-v2}" + src[i+len("labels: {app: web}"):]
	immutable := src + `- at: 80s
  apply:
    apiVersion: apps/v1
    kind: Deployment
    metadata: {name: web}
    spec:
      replicas: 10
      selector:
        matchLabels: {app: api}
      template:
        metadata: {labels: {app: api}}
        spec:
          containers: [{name: web, image: "myrepo/web:2.0"}]
`
	for _, tc := range []struct{ name, text, message string }{
		{"selector mismatch", mismatch, "`selector` does not match template `labels`"},
		{"immutable selector", immutable, "field is immutable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, want := scenario.Parse([]byte(tc.text), view.EditorFile)
			require.NotEmpty(t, want)
			got := evalJS[struct {
				Line     string `json:"line"`
				Top      string `json:"top"`
				Message  string `json:"message"`
				Problem  string `json:"problem"`
				Disabled bool   `json:"disabled"`
				Gutter   string `json:"gutter"`
			}](t, p, `(() => {
				const ed = document.querySelector(".cv-ed-text");
				ed.value = `+jsString(tc.text)+`;
				ed.dispatchEvent(new Event("input", {bubbles: true}));
				const mark = document.querySelector(".cv-ed-mark");
				return {line: mark.dataset.line, top: mark.style.top, message: mark.querySelector(".cv-ed-msg").textContent,
					problem: document.querySelector(".cv-problem").textContent,
					disabled: document.querySelector(".cv-editor .cv-primary").disabled,
					gutter: document.querySelector(".cv-gutter").textContent.split("\n").slice(-1)[0]};
			})()`)
			assert.Equal(t, fmt.Sprint(want[0].Line), got.Line)
			assert.Equal(t, fmt.Sprintf("%dpx", 8+(want[0].Line-1)*20), got.Top, "drawn over its line")
			assert.Equal(t, want[0].Message, got.Message)
			assert.Contains(t, got.Message, tc.message)
			assert.Contains(t, got.Message, `The Deployment "web" is invalid: `)
			assert.Equal(t, fmt.Sprintf("line %d, column %d: %s", want[0].Line, want[0].Col, want[0].Message), got.Problem)
			assert.True(t, got.Disabled, "Apply waits for a valid text")
			assert.Equal(t, fmt.Sprint(strings.Count(tc.text, "\n")+1), got.Gutter)
			if tc.name == "immutable selector" {
				evalJS[chromedp.Void](t, p, `document.querySelector(".cv-problem").click()`)
				evalJS[chromedp.Void](t, p, `document.querySelector(".cv-editor").scrollIntoView()`)
				p.shot(t, "editor-error", false)
			}
		})
	}
	applied := evalJS[struct {
		T     int    `json:"t"`
		Image string `json:"image"`
		Marks int    `json:"marks"`
	}](t, p, `(() => {
		const ed = document.querySelector(".cv-ed-text");
		ed.value = `+jsString(strings.Replace(src, "replicas: 10", "replicas: 4", 1))+`;
		ed.dispatchEvent(new Event("input", {bubbles: true}));
		document.querySelector(".cv-editor .cv-primary").click();
		return {t: converge.time(), image: document.querySelector(".cv-summary").textContent,
			marks: document.querySelectorAll(".cv-ed-mark").length};
	})()`)
	assert.Equal(t, 0, applied.T, "Apply restarts the simulation")
	assert.Contains(t, applied.Image, "4 desired")
	assert.Zero(t, applied.Marks)
	p.assertNoConsoleErrors(t)
}

// The revisions ledger's button rolls back: the old template comes back as
// the newest revision, and the command shows in the console.
func TestUIRollbackButtonRollsBack(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update&t=70", 1280, 800, "light")
	got := evalJS[struct {
		Before []string `json:"before"`
		After  []string `json:"after"`
		Note   string   `json:"note"`
		Image  string   `json:"image"`
		Echo   []string `json:"echo"`
		T      int      `json:"t"`
	}](t, p, `(() => {
		document.querySelector("[data-tab=revisions]").click();
		const rows = () => [...document.querySelectorAll(".cv-ledger tbody > tr:not(.cv-note-row)")].map((r) =>
			[...r.children].slice(0, 3).map((c) => c.textContent).join(" | "));
		const before = rows();
		const button = [...document.querySelectorAll(".cv-ledger button")].find((b) => !b.hidden);
		button.click();
		const snap = converge.snapshot();
		const after = rows();
		document.querySelector("[data-tab=console]").click();
		return {before, after, note: document.querySelector(".cv-note-row:not([hidden])")?.textContent ?? "",
			image: snap.deployments[0].spec.template.spec.containers[0].image,
			echo: [...document.querySelectorAll(".cv-entry:not(.cv-scripted) .cv-echo")].map((e) => e.textContent), t: converge.time()};
	})()`)
	assert.Equal(t, []string{"1 | <none> | myrepo/web:1.0", "2 (current) | <none> | myrepo/web:2.0"}, got.Before)
	assert.Equal(t, []string{"2 | <none> | myrepo/web:2.0", "3 (current) | <none> | myrepo/web:1.0"}, got.After,
		"revision 1's ReplicaSet is the newest revision now")
	assert.Contains(t, got.Note, "Was revision 1.")
	assert.Equal(t, "myrepo/web:1.0", got.Image)
	assert.Equal(t, []string{"$ kubectl rollout undo deployment/web --to-revision=1    # a step at 71s"}, got.Echo)
	assert.Equal(t, 71, got.T)
	p.assertNoConsoleErrors(t)
}

// Every user action draws the page once (Instance.Batch): a console
// command, read-only or one that joins the scenario, the rollback button,
// the selectors' apply, the editor's Apply, a step. The counts are the
// "converge:PART" measures that the page records while
// globalThis.convergeProfile is set: one full render, and the timeline and
// the tab drawn once each, so that no part is drawn again on its own.
func TestUIEachActionRendersOnce(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update&t=70", 1280, 800, "light")
	type counts struct{ Render, Timeline, Tab int }
	got := evalJS[map[string]counts](t, p, `(() => {
		const q = (s) => document.querySelector(s);
		const tab = (name) => q("[data-tab=" + name + "]").click();
		const count = (action) => {
			performance.clearMeasures();
			globalThis.convergeProfile = true;
			try { action(); } finally { globalThis.convergeProfile = false; }
			const n = (part) => performance.getEntriesByName("converge:" + part).length;
			return {Render: n("render"), Timeline: n("timeline"), Tab: n("tab")};
		};
		const out = {};
		tab("console");
		const input = q(".cv-cmd");
		const enter = (line) => {
			input.value = line;
			input.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true, cancelable: true}));
		};
		out["a console command that joins the scenario"] = count(() => enter("scale deployment/web --replicas=6"));
		out["a read-only console command"] = count(() => enter("get rs"));
		out["a command kubectl rejects"] = count(() => enter("scael deployment/web"));
		tab("revisions");
		out["the rollback button"] = count(() => [...document.querySelectorAll(".cv-ledger button")].find((b) => !b.hidden).click());
		tab("selectors");
		const [, labels] = document.querySelectorAll(".cv-edit input");
		labels.value = "app=web,tier=front";
		labels.dispatchEvent(new Event("input", {bubbles: true}));
		out["the selectors' apply"] = count(() => q(".cv-edit .cv-primary").click());
		tab("editor");
		out["the editor's Apply"] = count(() => q(".cv-editor .cv-primary").click());
		out["the step button"] = count(() => q(".cv-timeline .cv-step").click());
		return out;
	})()`)
	for _, action := range []string{"a console command that joins the scenario", "a read-only console command",
		"a command kubectl rejects", "the rollback button", "the selectors' apply", "the editor's Apply", "the step button"} {
		assert.Equal(t, counts{Render: 1, Timeline: 1, Tab: 1}, got[action], action)
	}
	p.assertNoConsoleErrors(t)
}

// Space plays and pauses, the arrows step (shift: 10 s), "/" goes to the
// console; keys typed in a text field stay there.
func TestUIKeyboardShortcuts(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update&t=20", 1280, 800, "light")
	got := evalJS[map[string]any](t, p, `(() => {
		const key = (k, opts = {}) => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true, cancelable: true, ...opts}));
		const out = {};
		key("ArrowRight"); out.right = converge.time();
		key("ArrowRight", {shiftKey: true}); out.shiftRight = converge.time();
		key("ArrowLeft"); out.left = converge.time();
		key(" "); out.playing = document.querySelector(".cv-play").getAttribute("aria-pressed");
		key(" "); out.paused = document.querySelector(".cv-play").getAttribute("aria-pressed");
		key("/");
		out.tab = document.querySelector(".cv-tab.cv-active").textContent;
		out.focus = document.activeElement.className;
		const input = document.activeElement;
		input.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true, cancelable: true}));
		out.typing = converge.time();
		return out;
	})()`)
	assert.Equal(t, map[string]any{"right": 21.0, "shiftRight": 31.0, "left": 30.0, "playing": "true", "paused": "false",
		"tab": "Console", "focus": "cv-input cv-mono cv-cmd", "typing": 30.0}, got)
	p.assertNoConsoleErrors(t)
}

// The scenario picker, the scrubber, the events' filter and time links, the
// charts, the nodes and the selectors' verdict respond as a user expects.
func TestUIViewsRespondToTheUser(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update&t=30", 1280, 800, "light")
	got := evalJS[struct {
		Picked      string   `json:"picked"`
		Search      string   `json:"search"`
		Scrubbed    int      `json:"scrubbed"`
		Filtered    []string `json:"filtered"`
		Linked      int      `json:"linked"`
		Paths       int      `json:"paths"`
		Marker      string   `json:"marker"`
		Nodes       []string `json:"nodes"`
		NodeTiles   int      `json:"nodeTiles"`
		Verdict     string   `json:"verdict"`
		VerdictOK   string   `json:"verdictOK"`
		Applied     string   `json:"applied"`
		LabelsAfter string   `json:"labelsAfter"`
	}](t, p, `(async () => {
		// A scrub or an event's time seeks in slices (seekAsync); wait for it to land.
		const landed = async (want) => { for (let i = 0; i < 1000 && converge.time() !== want; i++) await new Promise((r) => setTimeout(r, 10)); };
		const q = (s) => document.querySelector(s);
		const tab = (name) => q("[data-tab=" + name + "]").click();
		const input = (el, v) => { el.value = v; el.dispatchEvent(new Event("input", {bubbles: true})); };
		const out = {};
		const picker = q(".cv-picker");
		picker.value = "basic-loop";
		picker.dispatchEvent(new Event("change"));
		out.picked = q(".cv-intro-title").textContent;
		out.search = location.search;
		input(q(".cv-scrub"), "25");
		await landed(25);
		out.scrubbed = converge.time();
		tab("events");
		input(q(".cv-events input"), "scaled up");
		out.filtered = [...document.querySelectorAll(".cv-event-table tbody tr td:nth-child(3)")].map((e) => e.textContent);
		const link = q(".cv-event-table tbody button");
		link.click();
		await landed(Number(link.dataset.t));
		out.linked = converge.time() === Number(link.dataset.t) ? 1 : 0;
		tab("charts");
		out.paths = [...document.querySelectorAll(".cv-line")].filter((e) => e.getAttribute("d").startsWith("M")).length;
		out.marker = q(".cv-marker").getAttribute("x1");
		tab("nodes");
		out.nodes = [...document.querySelectorAll(".cv-node h3")].map((e) => e.textContent);
		out.nodeTiles = document.querySelectorAll(".cv-node .cv-tile").length;
		tab("selectors");
		const [, labels] = document.querySelectorAll(".cv-edit input");
		input(labels, "app=api-v2");
		out.verdict = q(".cv-verdict").textContent;
		input(labels, "app=web,tier=front");
		out.verdictOK = q(".cv-verdict").textContent;
		q(".cv-edit .cv-primary").click();
		out.applied = converge.snapshot().deployments[0].spec.template.metadata.labels.tier ?? "";
		out.labelsAfter = labels.value;
		return out;
	})()`)
	assert.Equal(t, "The basic loop, scaling up and down", got.Picked)
	assert.Equal(t, "?scenario=basic-loop", got.Search)
	assert.Equal(t, 25, got.Scrubbed)
	require.NotEmpty(t, got.Filtered)
	for _, r := range got.Filtered {
		assert.Equal(t, "ScalingReplicaSet", r)
	}
	assert.Equal(t, 1, got.Linked, "an event's time seeks there")
	assert.Equal(t, 5, got.Paths, "desired, total, updated, ready, available")
	assert.NotEmpty(t, got.Marker)
	assert.Equal(t, []string{"node-1", "node-2", "node-3"}, got.Nodes)
	assert.Positive(t, got.NodeTiles)
	assert.Contains(t, got.Verdict, "The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api-v2\"}: `selector` does not match template `labels`")
	assert.Equal(t, "deployment.apps/web patched (server dry run)", got.VerdictOK)
	assert.Equal(t, "front", got.Applied)
	assert.Equal(t, "app=web,tier=front", got.LabelsAfter)
	p.assertNoConsoleErrors(t)
}

// uiView is one screenshot: a scenario at a second, a tab.
type uiView struct {
	name, path, tab string
	// setup runs in the page before the screenshot.
	setup string
}

var uiViews = []uiView{
	{name: "rollout", path: "/?scenario=rolling-update&t=24", tab: "charts"},
	{name: "nodes", path: "/?scenario=node-lost&t=380", tab: "nodes"},
	{name: "charts", path: "/?scenario=readiness-gating&t=70", tab: "charts"},
	{name: "events", path: "/?scenario=stuck-bad-image&t=80", tab: "events"},
	{name: "console", path: "/?scenario=rolling-update&t=24", tab: "console", setup: `(() => {
		const input = document.querySelector(".cv-cmd");
		for (const line of ["get rs", "rollout status deployment/web", "get pods -l app=web"]) {
			input.value = line;
			input.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true}));
		}
		input.value = "rollout ";
		input.dispatchEvent(new KeyboardEvent("keydown", {key: "Tab", bubbles: true}));
	})()`},
	{name: "editor", path: "/?scenario=rolling-update&t=30", tab: "editor", setup: `(() => {
		const ed = document.querySelector(".cv-ed-text");
		const i = ed.value.lastIndexOf("labels: {app: web}");
		ed.value = ed.value.slice(0, i) + "labels: {app: api-v2}" + ed.value.slice(i + 18);
		ed.dispatchEvent(new Event("input", {bubbles: true}));
		document.querySelector(".cv-problem").click();
	})()`},
	{name: "revisions", path: "/?scenario=rollback-revisions&t=100", tab: "revisions"},
	{name: "selectors", path: "/?scenario=overlapping-selectors&t=45", tab: "selectors", setup: `(() => {
		const [sel, lbl] = document.querySelectorAll(".cv-edit input");
		lbl.value = "app=web-v2";
		lbl.dispatchEvent(new Event("input", {bubbles: true}));
	})()`},
	{name: "embed", path: "/?scenario=rolling-update&t=24&embed=1"},
}

// A screenshot of each main view, in the light and the dark theme, at
// 1280×800 (the whole page), the top of the page as a user first sees it,
// the page at 768 px wide, and the docs page with three <converge-sim>.
// docs/screenshot.png is the light rollout view's first screen (refreshed
// with -update-screenshot).
func TestUIScreenshots(t *testing.T) {
	t.Parallel()
	screenshotsOnly(t)
	srv := startServe(t)
	for _, scheme := range []string{"light", "dark"} {
		for _, v := range uiViews {
			p := openUI(t, srv, v.path, 1280, 800, scheme)
			if v.tab != "" {
				evalJS[bool](t, p, `(document.querySelector("[data-tab=`+v.tab+`]").click(), true)`)
			}
			if v.setup != "" {
				evalJS[chromedp.Void](t, p, v.setup)
			}
			p.shot(t, v.name+"-"+scheme, true)
			if v.name == "rollout" {
				p.shot(t, "first-screen-"+scheme, false)
				if scheme == "light" && *updateScreenshot {
					ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
					png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
					cancel()
					require.NoError(t, err)
					require.NoError(t, os.WriteFile(filepath.Join("..", "..", "docs", "screenshot.png"), png, 0o644))
				}
			}
			p.assertNoConsoleErrors(t)
		}
	}
	for _, scheme := range []string{"light", "dark"} {
		p := openUI(t, srv, "/?scenario=rolling-update&t=24", 768, 1024, scheme)
		p.shot(t, "narrow-768-"+scheme, true)
		p.assertNoConsoleErrors(t)
	}
	p := openPage(t, srv.URL+"/embed-demo.html")
	p.emulate(t, 1280, 800, "light")
	p.waitReady(t)
	p.waitFor(t, `[...document.querySelectorAll("converge-sim")].every((e) => e.shadowRoot.querySelector(".cv-rollout-title")?.textContent)`)
	p.shot(t, "embed-demo", true)
	p.assertNoConsoleErrors(t)
}

// uiBigScenario is 1,000 pods on 10 nodes for 5 minutes: the Deployment
// rolls to an image that takes 5 s to become ready at 30s.
func uiBigScenario() string {
	return simtest.RolloutYAML(simtest.RolloutOptions{Name: "thousand-pods", Title: "1,000 pods roll", Duration: "5m",
		Nodes: 10, PodsPerNode: 150, Replicas: 1000, Image: "nginx:1.27",
		Images:   []string{"nginx:1.28: {pullSeconds: 3, readySeconds: 5}"},
		Rollouts: []simtest.Rollout{{At: "30s", Image: "nginx:1.28"}}})
}

// BenchmarkBrowserUIPlay plays the 1,000-pod scenario at 16x and at 64x
// through the page's own controls, from just before its rollout, with the
// rollout on screen, and reports the work of each frame that stepped (the
// Go step and render, from the "converge:frame" measures on the
// performance timeline), the render alone ("converge:render"), and the
// spacing of animation frames (a requestAnimationFrame probe; 16.7 ms at
// 60 Hz means no frame was dropped). The frames of the seconds right after
// the image change carry the simulation's busiest steps (hundreds of pods
// created, scheduled and started in one second).
//
//	go test -run '^$' -bench BrowserUIPlay -benchtime 3x ./cmd/converge
func BenchmarkBrowserUIPlay(b *testing.B) {
	srv := startServe(b)
	p := openUI(b, srv, "/", 1280, 800, "light")
	require.True(b, evalJS[bool](b, p, `converge.load(`+jsString(uiBigScenario())+`).ok`))
	for _, speed := range []int{16, 64} {
		b.Run(fmt.Sprintf("speed=%d", speed), func(b *testing.B) { benchPlay(b, p, speed) })
	}
	p.assertNoConsoleErrors(b)
}

// benchPlay is BenchmarkBrowserUIPlay at one speed.
func benchPlay(b *testing.B, p *page, speed int) {
	var work, renders, gaps []float64
	var frames float64
	for b.Loop() {
		got := evalJS[struct {
			Work    []float64             `json:"work"`
			Renders []float64             `json:"renders"`
			Gaps    []float64             `json:"gaps"`
			T       int                   `json:"t"`
			Parts   map[string][2]float64 `json:"parts"`
		}](b, p, `new Promise((resolve) => {
			converge.seek(25);
			const speed = document.querySelector(".cv-speed");
			speed.value = "`+strconv.Itoa(speed)+`";
			speed.dispatchEvent(new Event("change"));
			performance.clearMeasures();
			globalThis.convergeProfile = true;
			const gaps = [];
			let last = 0;
			const probe = (now) => {
				if (last) gaps.push(now - last);
				last = now;
				if (gaps.length < 180) requestAnimationFrame(probe); else finish();
			};
			const finish = () => {
				// At the scenario's end play has stopped by itself, and a
				// click would play it again from 0 (a loaded machine's 180
				// frames can take long enough at 64x).
				const t = converge.time();
				if (t < converge.duration()) document.querySelector(".cv-play").click();
				globalThis.convergeProfile = false;
				const work = performance.getEntriesByName("converge:frame").map((e) => e.duration);
				const renders = performance.getEntriesByName("converge:render").map((e) => e.duration);
				const parts = {};
				for (const name of ["timeline", "why", "rollout", "loop", "intro", "tab"]) {
					const d = performance.getEntriesByName("converge:" + name).map((e) => e.duration);
					parts[name] = [d.reduce((a, b) => a + b, 0) / Math.max(d.length, 1), Math.max(0, ...d)];
				}
				resolve({work, renders, gaps, t, parts});
			};
			document.querySelector(".cv-play").click();
			requestAnimationFrame(probe);
		})`)
		require.NotEmpty(b, got.Work, "no frame stepped")
		b.Logf("render parts (mean, max ms): %v", got.Parts)
		require.Greater(b, got.T, 40, "3 s of play reaches the rollout")
		work, renders, gaps = append(work, got.Work...), append(renders, got.Renders...), append(gaps, got.Gaps...)
		frames += float64(len(got.Work))
	}
	b.ReportMetric(quantile(work, 0.5), "ms-p50/frame")
	b.ReportMetric(quantile(work, 0.95), "ms-p95/frame")
	b.ReportMetric(quantile(work, 1), "ms-max/frame")
	b.ReportMetric(quantile(gaps, 0.95), "ms-p95/raf-gap")
	b.ReportMetric(quantile(renders, 0.5), "ms-p50/render")
	b.ReportMetric(quantile(renders, 0.95), "ms-p95/render")
	b.ReportMetric(frames/float64(b.N), "stepping-frames")
}

// quantile returns the q-quantile (0..1) of xs, nearest rank.
func quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	i := int(q * float64(len(s)-1))
	return s[i]
}
