package main

// Browser tests of the page's content problems: the page as a newcomer
// meets it, where every rejection, output and cause is on screen.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/view"
)

// newcomerJS are the page helpers the tests below share: click a tab, the
// texts of a selector, type a console command.
const newcomerJS = `
	const tab = (k) => document.querySelector("[data-tab=" + k + "]").click();
	const all = (s) => [...document.querySelectorAll(s)].filter((e) => !e.hidden && e.offsetParent !== null).map((e) => e.innerText);
	const text = (s) => { const e = document.querySelector(s); return e ? e.textContent : ""; };
	const run = (line) => {
		tab("console");
		const input = document.querySelector(".cv-cmd");
		input.value = line;
		input.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true, cancelable: true}));
	};
`

// whyShot saves the why panel at 1280 and 375 px.
func whyShot(t *testing.T, p *page, name string) {
	t.Helper()
	p.shot(t, name+"-1280", false)
	p.emulate(t, 375, 800, "light")
	scrollTo(t, p, ".cv-why")
	p.shot(t, name+"-375", false)
	p.emulate(t, 1280, 800, "light")
}

// scrollTo scrolls the element matching sel to the top of the viewport,
// below the time bar when it is pinned.
func scrollTo(t *testing.T, p *page, sel string) {
	t.Helper()
	evalJS[bool](t, p, `(() => {
		const e = document.querySelector("`+sel+`"), bar = document.querySelector(".cv-timeline");
		const pinned = bar && getComputedStyle(bar).position === "sticky" ? bar.getBoundingClientRect().height : 0;
		window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - pinned - 8);
		return true;
	})()`)
}

// Problem 1: at the refused apply, the why panel, Events, Selectors, the
// editor and the console all show the API server's exact text.
func TestUINewcomerSeesTheAPIServersRejection(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tests := []struct {
		name, scenario string
		t              int
		object, text   string
	}{
		{"immutable selector", "selector-immutable", 20, "deployment/web",
			`The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web","tier":"frontend"}}: field is immutable`},
		{"selector does not match the template", "selector-mismatch", 5, "deployment/api",
			"The Deployment \"api\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api-v2\"}: `selector` does not match template `labels`"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := openUI(t, srv, fmt.Sprintf("/?scenario=%s&t=%d", tc.scenario, tc.t), 1280, 800, "light")
			got := evalJS[struct {
				Why       []string `json:"why"`
				Empty     bool     `json:"empty"`
				Events    []string `json:"events"`
				Selectors []string `json:"selectors"`
				Refused   []string `json:"refused"`
				Editor    []string `json:"editor"`
				Console   []string `json:"console"`
			}](t, p, `(() => {`+newcomerJS+`
				const r = {why: all(".cv-why .cv-kind-rejected"), empty: all(".cv-why > p.cv-muted").length > 0};
				tab("events");
				r.events = all(".cv-event-table tr.cv-ev-Warning").filter((s) => s.includes("Rejected"));
				tab("selectors");
				r.selectors = all(".cv-sel-rejected pre");
				r.refused = all(".cv-sel-refused td:first-child");
				tab("editor");
				r.editor = all(".cv-ed-refused pre");
				tab("console");
				r.console = all(".cv-entry .cv-err");
				return r;
			})()`)
			require.Len(t, got.Why, 1, "a Rejected line in the why panel")
			assert.Contains(t, strings.ToLower(got.Why[0]), "rejected")
			assert.Contains(t, got.Why[0], tc.text)
			assert.False(t, got.Empty, "no 'No Deployment yet' beside the refusal")
			require.Len(t, got.Events, 1, "a Warning row in Events")
			assert.Contains(t, got.Events[0], tc.text)
			assert.Contains(t, got.Events[0], tc.object)
			require.Len(t, got.Selectors, 1, "Selectors marks the refused selector")
			assert.Contains(t, got.Selectors[0], tc.text)
			assert.Contains(t, got.Selectors[0], "refused selector:")
			if tc.scenario == "selector-immutable" {
				assert.Equal(t, []string{tc.object}, got.Refused, "the row of the Deployment whose selector was refused")
			}
			require.Len(t, got.Editor, 1)
			assert.Contains(t, got.Editor[0], tc.text)
			assert.Contains(t, got.Console, tc.text, "the console shows the scenario's step with the same text")

			evalJS[bool](t, p, `(document.querySelector("[data-tab=charts]").click(), true)`)
			whyShot(t, p, "why-rejected-"+tc.scenario)
			// The refusal stays on screen, aged, for view.RefusalShowSeconds.
			evalJS[bool](t, p, `(converge.seek(`+fmt.Sprint(tc.t+1)+`), true)`)
			p.waitFor(t, `converge.time() === `+fmt.Sprint(tc.t+1)+` && document.querySelector(".cv-why .cv-kind-rejected").textContent.includes("(1s ago)")`)
			evalJS[bool](t, p, `(converge.seek(`+fmt.Sprint(tc.t+view.RefusalShowSeconds)+`), true)`)
			p.waitFor(t, `document.querySelectorAll(".cv-why .cv-kind-rejected").length === 0`)
			p.assertNoConsoleErrors(t)
		})
	}
}

// Problem 2: the scenario's own kubectl steps show their output, in the
// Steps log and in the console as they happen; failed steps in Events carry
// their error.
func TestUINewcomerSeesTheStepsOutputs(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=selector-mismatch&t=4", 1280, 800, "light")
	got := evalJS[struct {
		Before []string `json:"before"`
		After  []string `json:"after"`
		Steps  []string `json:"steps"`
		Now    []string `json:"now"`
	}](t, p, `(() => {`+newcomerJS+`
		tab("console");
		const r = {before: all(".cv-entry")};
		converge.seek(6);
		r.after = all(".cv-entry");
		converge.seek(31);
		tab("steps");
		r.steps = all(".cv-sl");
		r.now = all(".cv-sl-now");
		return r;
	})()`)
	assert.Empty(t, got.Before)
	require.Len(t, got.After, 2, "the scenario's steps at 5s and 6s, logged as they ran")
	assert.Contains(t, got.After[0], "# apply deployment/api    # the scenario's step at 5s")
	assert.Contains(t, got.After[0], "`selector` does not match template `labels`")
	assert.Contains(t, got.After[1], "$ kubectl get deployments    # the scenario's step at 6s")
	assert.Contains(t, got.After[1], "No resources found")
	require.Len(t, got.Steps, 5, "every step of the scenario")
	assert.Contains(t, got.Steps[4], "kubectl get pods --show-labels")
	assert.Contains(t, got.Steps[4], "app=api,pod-template-hash=", "its output")
	assert.Contains(t, got.Steps[0], "refused, as expected")
	p.shot(t, "steps-log-1280", true)
	p.emulate(t, 375, 800, "light")
	scrollTo(t, p, ".cv-steps")
	p.shot(t, "steps-log-375", false)
	p.emulate(t, 1280, 800, "light")

	// A step that fails carries its error in Events.
	q := openUI(t, srv, "/?scenario=basic-loop&t=3", 1280, 800, "light")
	rows := evalJS[[]string](t, q, `(() => {`+newcomerJS+`
		const s = converge.scenario().replace("steps:\n", "steps:\n- at: 2s\n  kubectl: scale deployment/nope --replicas=1\n");
		converge.load(s); converge.seek(3);
		tab("events");
		return all(".cv-event-table tr").filter((r) => r.includes("nope"));
	})()`)
	require.Len(t, rows, 2, "the failed step's row and its Warning")
	for _, r := range rows {
		assert.Contains(t, r, `deployments.apps "nope" not found`)
	}
	p.assertNoConsoleErrors(t)
	q.assertNoConsoleErrors(t)
}

// Problem 3: stuck on missing capacity or a bad image, the why headline
// leads with the cause, the budget follows.
func TestUINewcomerSeesTheBlockingCause(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	tests := []struct {
		name, path, headline, budget string
	}{
		{"no capacity", "/?scenario=stuck-no-capacity&t=30", "Stuck: 1 pod cannot be scheduled: 0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.", "Held by maxSurge"},
		{"bad image", "/?scenario=stuck-bad-image&t=40", `Stuck: 1 pod cannot pull image "myrepo/web:2.0-typo" (ImagePullBackOff);`, "Held by maxSurge"},
		{"crash loop", "/?scenario=crashloop&t=90", "CrashLoopBackOff, 3 restarts so far", "The Deployment controller waits"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := openUI(t, srv, tc.path, 1280, 800, "light")
			got := evalJS[[2]string](t, p, `[document.querySelector(".cv-why .cv-headline").textContent, document.querySelector(".cv-why .cv-why-budget").textContent]`)
			assert.Contains(t, got[0], tc.headline)
			assert.Contains(t, got[1], tc.budget)
			if tc.name != "crash loop" {
				whyShot(t, p, "why-stuck-"+tc.name)
			}
			p.assertNoConsoleErrors(t)
		})
	}
}

// Problem 4: a command the API server or kubectl refuses is no step and
// keeps the clock; an accepted one is a step with Remove; a check that
// fails after it names it.
func TestUIConsoleRefusalIsNoStepAndStepsCanBeRemoved(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop&t=10", 1280, 800, "light")
	type state struct {
		T        int      `json:"t"`
		Scenario string   `json:"scenario"`
		URL      string   `json:"url"`
		Why      []string `json:"why"`
		Added    []string `json:"added"`
		Failed   []string `json:"failed"`
		Echo     []string `json:"echo"`
	}
	const look = `({t: converge.time(), scenario: converge.scenario(), url: location.href, why: all(".cv-why .cv-kind-rejected"),
		added: (tab("steps"), all(".cv-sl-added")), failed: all(".cv-check-failed"), echo: (tab("console"), all(".cv-echo"))})`
	before := evalJS[state](t, p, `(() => {`+newcomerJS+` return `+look+`; })()`)
	refused := evalJS[state](t, p, `(() => {`+newcomerJS+` run("scale deployment/nope --replicas=3"); return `+look+`; })()`)
	assert.Equal(t, 10, refused.T, "the clock does not move")
	assert.Equal(t, before.Scenario, refused.Scenario, "no step")
	assert.Equal(t, before.URL, refused.URL, "the share link does not carry it")
	require.Len(t, refused.Why, 1)
	assert.Contains(t, refused.Why[0], `deployments.apps "nope" not found`)
	assert.Contains(t, refused.Echo, "$ kubectl scale deployment/nope --replicas=3    # refused at 10s: no step, the clock stays")
	assert.Empty(t, refused.Added)

	accepted := evalJS[state](t, p, `(() => {`+newcomerJS+` run("scale deployment/web --replicas=6"); converge.seek(25); return `+look+`; })()`)
	assert.Equal(t, 25, accepted.T)
	assert.Contains(t, accepted.Scenario, "scale deployment/web --replicas=6")
	require.Len(t, accepted.Added, 1)
	assert.Contains(t, accepted.Added[0], "kubectl scale deployment/web --replicas=6")
	assert.Contains(t, accepted.Added[0], "Remove")
	require.NotEmpty(t, accepted.Failed, "the scale breaks a check of the scenario")
	assert.Contains(t, accepted.Failed[0], "after your step at 11s: kubectl scale deployment/web --replicas=6")

	removed := evalJS[state](t, p, `(() => {`+newcomerJS+`
		tab("steps");
		document.querySelector(".cv-sl-added .cv-sl-remove").click();
		return `+look+`; })()`)
	assert.Equal(t, 25, removed.T, "the page stays at its second")
	assert.Equal(t, before.Scenario, removed.Scenario, "the step is gone from the scenario")
	assert.Empty(t, removed.Added)
	assert.Empty(t, removed.Failed, "without it the checks hold again")
	assert.Contains(t, removed.Echo, "# removed your step at 11s: kubectl scale deployment/web --replicas=6")
	scrollTo(t, p, ".cv-tabs")
	p.shot(t, "console-removed-step-1280", false)
	p.emulate(t, 375, 800, "light")
	scrollTo(t, p, ".cv-console")
	p.shot(t, "console-removed-step-375", false)
	p.assertNoConsoleErrors(t)
}

// Problem 8: kubectl logs (and the other commands Converge does not
// simulate) say so in one line, not as a typo.
func TestUIKubectlLogsSaysItIsNotSimulated(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop&t=10", 1280, 800, "light")
	got := evalJS[[]string](t, p, `(() => {`+newcomerJS+`
		run("logs web-abc"); run("exec -it web-abc -- sh"); run("lgos web");
		return all(".cv-entry .cv-err");
	})()`)
	require.Len(t, got, 3)
	assert.Equal(t, `error: "kubectl logs" is a kubectl command that Converge does not simulate: no container runs here, so there are no logs to read`, got[0])
	assert.Contains(t, got[1], `"kubectl exec" is a kubectl command that Converge does not simulate`)
	assert.Contains(t, got[2], `unknown command "lgos" for "kubectl"`, "a typo is still a typo")
	assert.Equal(t, 10, evalJS[int](t, p, `converge.time()`))
	p.assertNoConsoleErrors(t)
}

// Problem 9 (content): the Deployment's name in the why panel acts with one
// Deployment (the rollout card scrolls into view, highlighted), and a first
// bring-up reads as starting, not as a violated budget.
func TestUIWhyNameActsAndABringUpIsNeutral(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update&t=1", 1280, 800, "light")
	got := evalJS[struct {
		Flash bool   `json:"flash"`
		Label string `json:"label"`
		Over  int    `json:"over"`
		Start int    `json:"start"`
	}](t, p, `(() => {
		document.querySelector(".cv-why-name").click();
		const g = [...document.querySelectorAll(".cv-gauge")].find((e) => e.className.includes("cv-starting"));
		return {flash: document.querySelector(".cv-rollout").classList.contains("cv-flash"),
			label: g ? g.querySelector(".cv-gauge-label").textContent : "",
			over: document.querySelectorAll(".cv-cell.cv-over").length, start: document.querySelectorAll(".cv-cell.cv-start").length};
	})()`)
	assert.True(t, got.Flash, "the click highlights the rollout")
	assert.Equal(t, "not available: 10 of 10, no rollout replacing pods", got.Label)
	assert.Zero(t, got.Over, "no red hatching")
	assert.Equal(t, 10, got.Start)
	p.shot(t, "bring-up", false)
	p.assertNoConsoleErrors(t)
}

// The 1,000-pod scenario of the library loads and plays in the page: its
// first render at t=0, and a seek to its end through the page's scrubber
// path (seekAsync, in slices), with the rollout drawn. The times are logged
// (run with -v); the benchmark question of how fast is BenchmarkBrowserUIPlay's.
func TestUIThousandPodsScenarioLoadsAndSeeks(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openPage(t, srv.URL+"/?scenario=rolling-1000-pods")
	p.emulate(t, 1280, 800, "light")
	p.waitReady(t)
	p.waitFor(t, uiReady)
	first := evalJS[float64](t, p, `performance.getEntriesByType("navigation")[0] ? performance.now() : 0`)
	got := evalJS[struct {
		Tiles   int     `json:"tiles"`
		Summary string  `json:"summary"`
		Load    float64 `json:"load"`
		Seek    float64 `json:"seek"`
		End     string  `json:"end"`
		T       int     `json:"t"`
	}](t, p, `(async () => {
		const r = {tiles: document.querySelectorAll(".cv-rollout .cv-tile, .cv-rollout [data-key] > *").length,
			summary: document.querySelector(".cv-summary").textContent};
		let t0 = performance.now();
		converge.loadBuiltin("rolling-1000-pods");
		await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
		r.load = performance.now() - t0;
		t0 = performance.now();
		await converge.seekAsync(90);
		await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
		r.seek = performance.now() - t0;
		r.end = document.querySelector(".cv-summary").textContent;
		r.t = converge.time();
		return r;
	})()`)
	t.Logf("rolling-1000-pods: page ready at %.0f ms after navigation; loadBuiltin and first render %.0f ms; seekAsync 0→90s and render %.0f ms",
		first, got.Load, got.Seek)
	assert.Contains(t, got.Summary, "1000 desired")
	assert.Equal(t, 90, got.T)
	assert.Contains(t, got.End, "1000 updated")
	assert.Contains(t, got.End, "1000 available")
	p.shot(t, "thousand-pods-end", false)
	p.assertNoConsoleErrors(t)
}
