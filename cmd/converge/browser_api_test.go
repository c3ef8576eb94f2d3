package main

// Browser tests of the JS API (web/converge.js over wasm/), the page's
// address and <converge-sim>: see browser_harness_test.go (they run side by
// side). Each Evaluate does a lot of work in the page and returns one
// value, which the test compares with what core/sim computes natively.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/sim"
	"converge/core/simtest/simrun"
	"converge/core/version"
	"converge/scenarios"
)

// nativeTrace returns the trace lines of src at each second of ts, computed
// natively, in that order (so a smaller t after a larger one seeks back).
func nativeTrace(t testing.TB, src string, ts []int64) []string {
	t.Helper()
	s := simrun.Load(t, src)
	out := make([]string, len(ts))
	for i, at := range ts {
		s.SeekTo(at)
		line, err := s.TraceLine()
		require.NoError(t, err)
		out[i] = string(line)
	}
	return out
}

// jsString quotes s as a JavaScript string literal (JSON is one).
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestBrowserAPIBootsWithTheDefaultScenario(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openPage(t, srv.URL+"/")
	ready := p.waitReady(t)
	t.Logf("converge.ready %v after the navigation started", ready)

	got := evalJS[struct {
		Version   string              `json:"version"`
		Startup   map[string]any      `json:"startup"`
		Name      string              `json:"name"`
		Time      int64               `json:"time"`
		Scenarios []map[string]string `json:"scenarios"`
		Instances int                 `json:"instances"`
		Methods   []string            `json:"methods"`
		Source    string              `json:"source"`
	}](t, p, `(() => {
		const c = globalThis.converge;
		return {
			version: c.version, startup: c.startup, name: c.name(), time: c.time(),
			scenarios: c.scenarios(), instances: c.instances(), source: c.source(),
			methods: ["load", "loadBuiltin", "scenarios", "step", "seek", "snapshot", "run", "scenario",
				"shareFragment", "fromFragment", "validate", "history", "expectations", "complete",
				"time", "horizon", "duration", "mount", "dispose", "create"].filter((m) => typeof c[m] !== "function"),
		};
	})()`)

	assert.Equal(t, version.Version, got.Version)
	assert.Empty(t, got.Methods, "docs/js-api.md functions missing from globalThis.converge")
	assert.Equal(t, true, got.Startup["ok"], "startup: %v", got.Startup)
	assert.Equal(t, "desired-state", got.Name, "the default scenario: the first lesson")
	assert.Zero(t, got.Time)
	assert.GreaterOrEqual(t, got.Instances, 1)
	src, err := fsReadScenario(got.Name)
	require.NoError(t, err)
	assert.Equal(t, src, got.Source, "the page's library is the shipped one (run make build after editing scenarios)")
	require.NotEmpty(t, got.Scenarios)
	names := make([]string, len(got.Scenarios))
	for i, s := range got.Scenarios {
		names[i] = s["name"]
		assert.NotEmpty(t, s["title"], s["name"])
	}
	assert.Contains(t, names, "basic-loop")
	assert.IsIncreasing(t, names)
	p.assertNoConsoleErrors(t)
}

// For every shipped scenario, seek(t) in the browser gives exactly the
// native trace line at t, forwards and backwards. The scenarios are dealt
// to seekShards pages, which run side by side.
func TestBrowserSeekEqualsTheNativeTrace(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for k := range seekShards {
		t.Run(fmt.Sprintf("page %d of %d", k+1, seekShards), func(t *testing.T) {
			t.Parallel()
			seekEqualsTheNativeTrace(t, srv, k)
		})
	}
}

// seekShards is how many pages TestBrowserSeekEqualsTheNativeTrace deals
// the scenarios to.
const seekShards = 3

// seekEqualsTheNativeTrace checks the scenarios whose index in
// converge.scenarios() is shard modulo seekShards.
func seekEqualsTheNativeTrace(t *testing.T, srv *served, shard int) {
	t.Helper()
	p := openPage(t, srv.URL+"/")
	p.waitReady(t)

	type seen struct {
		Name     string   `json:"name"`
		Source   string   `json:"source"`
		Duration int64    `json:"duration"`
		Lines    []string `json:"lines"`
		Ts       []int64  `json:"ts"`
		Parsed   []int64  `json:"parsed"`
		Error    string   `json:"error"`
	}
	// The times: 0, 7, the middle, the end, and back to 3 (a backwards seek
	// restores a checkpoint and replays).
	// seekAsync, not seek: how far a synchronous seek may go depends on how
	// fast this machine is at the moment (seek refuses about a second's work).
	got := evalJS[[]seen](t, p, `(async () => { const out = [];
	for (const {name} of converge.scenarios().filter((_, i) => i % `+fmt.Sprint(seekShards)+` === `+fmt.Sprint(shard)+`)) out.push(await (async () => {
		const s = converge.create();
		try {
			const r = s.loadBuiltin(name);
			if (!r.ok) return {name, error: JSON.stringify(r)};
			const d = s.duration();
			const ts = [0, 7, Math.floor(d / 2), d, 3];
			const parsed = [], lines = [];
			for (const t of ts) {
				parsed.push((await s.seekAsync(t)).t);
				lines.push(s.snapshotJSON());
			}
			return {name, source: s.source(), duration: d, lines, ts, parsed};
		} finally {
			s.dispose();
		}
	})()); return out; })()`)

	require.NotEmpty(t, got)
	for _, sc := range got {
		t.Run(sc.Name, func(t *testing.T) {
			require.Empty(t, sc.Error)
			assert.Equal(t, sc.Ts, sc.Parsed, "seek(t) returns the snapshot of t")
			want := nativeTrace(t, sc.Source, sc.Ts)
			for i := range want {
				assert.Equal(t, want[i], sc.Lines[i], "%s at t=%d: wasm and native trace lines differ", sc.Name, sc.Ts[i])
			}
		})
	}
	p.assertNoConsoleErrors(t)
}

// step, run, scenario() and the share round trip, in one instance; a run
// mutation replays natively from scenario().
func TestBrowserStepRunAndShareRoundTrip(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openPage(t, srv.URL+"/")
	p.waitReady(t)

	got := evalJS[struct {
		T1, T6, TAfterRun, TAfterBad int64
		Read, Mutation, Unknown      sim.StepResult
		Scenario, Back, Line         string
		Bad                          struct {
			OK     bool `json:"ok"`
			Errors []struct {
				Line, Col int
				Message   string
			} `json:"errors"`
		}
		Thrown []string
	}](t, p, `(() => {
		const c = converge;
		if (!c.loadBuiltin("basic-loop").ok) throw new Error("basic-loop does not load");
		const T1 = c.step().t;
		const T6 = c.step(5).t;
		const Read = c.run("get deployment web");
		const Mutation = c.run("kubectl scale deployment/web --replicas=2");
		const Unknown = c.run("frobnicate pods");
		const TAfterRun = c.time();
		const Scenario = c.scenario();
		const Back = c.fromFragment(c.shareFragment());
		const Line = c.snapshotJSON();
		const Bad = c.load("name: broken\nobjects: 7\n");
		const TAfterBad = c.time();
		const Thrown = [];
		for (const f of [() => c.step("2"), () => c.seek(-1), () => c.fromFragment("@@"), () => c.load(7)]) {
			try { f(); Thrown.push("no error"); } catch (e) { Thrown.push(e.name + ": " + e.message); }
		}
		return {T1, T6, Read, Mutation, Unknown, TAfterRun, Scenario, Back, Line, Bad, TAfterBad, Thrown};
	})()`)

	assert.Equal(t, int64(1), got.T1)
	assert.Equal(t, int64(6), got.T6)
	assert.True(t, got.Read.OK, got.Read.Error)
	assert.Contains(t, got.Read.Output, "web")
	assert.True(t, got.Mutation.OK, got.Mutation.Error)
	assert.Equal(t, "deployment.apps/web scaled", got.Mutation.Output, "the mutation is echoed with kubectl's text")
	assert.Equal(t, "7s", got.Mutation.At)
	assert.False(t, got.Unknown.OK)
	assert.NotEmpty(t, got.Unknown.Error)
	assert.Equal(t, int64(7), got.TAfterRun, "a mutation runs one second later")
	assert.Contains(t, got.Scenario, "kubectl: scale deployment/web --replicas=2", "the run joins the scenario")
	assert.NotContains(t, got.Scenario, "get deployment web", "a read does not")
	assert.Equal(t, got.Scenario, got.Back, "fromFragment(shareFragment()) == scenario()")
	assert.Equal(t, nativeTrace(t, got.Scenario, []int64{7})[0], got.Line, "scenario() replays natively to the same state")
	assert.False(t, got.Bad.OK)
	require.NotEmpty(t, got.Bad.Errors)
	assert.Equal(t, 2, got.Bad.Errors[0].Line)
	assert.Positive(t, got.Bad.Errors[0].Col)
	assert.NotEmpty(t, got.Bad.Errors[0].Message)
	assert.Equal(t, int64(7), got.TAfterBad, "a rejected load keeps the previous simulation")
	assert.Equal(t, []string{
		`TypeError: step: seconds must be a number, not the string "2"`,
		"TypeError: seek: t must be a second between 0 and 86400, not the number -1",
		"Error: share link is corrupt: illegal base64 data at input byte 0",
		"TypeError: load: the scenario YAML must be a string, not the number 7",
	}, got.Thrown)
	p.assertNoConsoleErrors(t)
}

func TestBrowserInstancesAreIndependent(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openPage(t, srv.URL+"/")
	p.waitReady(t)

	got := evalJS[struct {
		IDs                 []int
		TimeA, TimeB, TimeD int64
		NameA, NameB, NameD string
		ScnB                string
		Before, After       int
		Disposed            string
		LineA               string
		ScnA                string
		InstanceAPI         bool
	}](t, p, `(() => {
		const c = converge;
		const d0 = c.time();
		const a = c.create(), b = c.create();
		a.loadBuiltin("basic-loop");
		b.loadBuiltin("rolling-update");
		a.seek(25);
		a.run("scale deployment/web --replicas=1");
		b.step(4);
		const Before = c.instances();
		const InstanceAPI = a.version === c.version && a.scenarios().length === c.scenarios().length &&
			a.fromFragment(a.toFragment("name: x\n")) === "name: x\n";
		const out = {IDs: [c.default.id, a.id, b.id], TimeA: a.time(), TimeB: b.time(), TimeD: c.time() - d0,
			NameA: a.name(), NameB: b.name(), NameD: c.name(), ScnB: b.scenario(), LineA: a.snapshotJSON(), ScnA: a.scenario(), Before, InstanceAPI};
		a.dispose();
		out.After = c.instances();
		try { a.time(); out.Disposed = "no error"; } catch (e) { out.Disposed = e.message; }
		b.dispose();
		return out;
	})()`)

	assert.Len(t, got.IDs, 3)
	assert.True(t, got.InstanceAPI, "an instance has version, scenarios(), fromFragment() and toFragment() too")
	assert.NotEqual(t, got.IDs[1], got.IDs[2])
	assert.Equal(t, int64(26), got.TimeA)
	assert.Equal(t, int64(4), got.TimeB)
	assert.Zero(t, got.TimeD, "the default instance did not move")
	assert.Equal(t, "basic-loop", got.NameA)
	assert.Equal(t, "rolling-update", got.NameB)
	assert.Equal(t, "desired-state", got.NameD)
	assert.NotContains(t, got.ScnB, "--replicas=1", "a's command is not in b's scenario")
	assert.Equal(t, got.Before-1, got.After, "dispose removes the instance")
	assert.Equal(t, fmt.Sprintf("simulation %d is disposed", got.IDs[1]), got.Disposed)
	// a's state is what the native engine computes for a's scenario.
	assert.Contains(t, got.ScnA, "--replicas=1")
	assert.Equal(t, nativeTrace(t, got.ScnA, []int64{26})[0], got.LineA)
	p.assertNoConsoleErrors(t)
}

// embed-demo.html: several <converge-sim> boot independently, each with its
// own instance and shadow root; removing one disposes it.
func TestBrowserEmbedDemo(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openPage(t, srv.URL+"/embed-demo.html")
	p.waitReady(t)

	type element struct {
		ID       string         `json:"id"`
		Opened   map[string]any `json:"opened"`
		SimID    int            `json:"simID"`
		Time     int64          `json:"time"`
		Name     string         `json:"name"`
		Children int            `json:"children"`
	}
	got := evalJS[struct {
		Elements        []element `json:"elements"`
		Drawn           bool      `json:"drawn"`
		Before, After   int
		Survivor        int64 `json:"survivor"`
		CorruptMessage  string
		CorruptName     string
		CorruptChildren int
	}](t, p, `(async () => {
		const els = [...document.querySelectorAll("converge-sim")];
		const opened = await Promise.all(els.map(`+landedJS+`));
		const probe = converge.create();
		const drawn = probe.mount(document.createElement("div"), {embed: true});
		probe.dispose();
		const elements = els.map((e, i) => ({id: e.id, opened: opened[i], simID: e.simulation.id,
			time: e.simulation.time(), name: e.simulation.name(), children: e.shadowRoot.childNodes.length}));
		const Before = converge.instances();
		els[0].simulation.step(3);
		const survivorBefore = els[1].simulation.time();
		els[0].remove();
		const After = converge.instances();
		const survivor = els[1].simulation.time() - survivorBefore;
		const bad = document.createElement("converge-sim");
		bad.setAttribute("share", "not-a-share!");
		document.body.append(bad);
		const r = await bad.opened;
		return {elements, drawn, Before, After, survivor, CorruptMessage: r.error, CorruptName: bad.simulation.name(),
			CorruptChildren: (`+showsJS+`)(bad.shadowRoot, r.error) ? 1 : 0};
	})()`)

	require.Len(t, got.Elements, 3)
	assert.True(t, got.Drawn, "every instance draws: a mount on a detached element too (without a console error)")
	want := map[string]struct {
		name string
		t    int64
	}{"demo-rolling": {"rolling-update", 0}, "demo-basic": {"basic-loop", 30}, "demo-shared": {"", 20}}
	ids := map[int]bool{}
	for _, el := range got.Elements {
		w, ok := want[el.ID]
		require.True(t, ok, el.ID)
		assert.Equal(t, true, el.Opened["ok"], "%s: %v", el.ID, el.Opened)
		assert.Equal(t, w.name, el.Name, el.ID)
		assert.Equal(t, w.t, el.Time, el.ID)
		ids[el.SimID] = true
		assert.Positive(t, el.Children, "%s: the renderer drew into the shadow root", el.ID)
	}
	assert.Len(t, ids, 3, "one instance per element")
	assert.Equal(t, got.Before-1, got.After, "removing an element disposes its instance")
	assert.Zero(t, got.Survivor, "stepping one element leaves the others")
	assert.Contains(t, got.CorruptMessage, "The shared scenario cannot be opened: share link is corrupt")
	assert.Equal(t, "desired-state", got.CorruptName, "a corrupt share falls back to the default")
	assert.Equal(t, 1, got.CorruptChildren, "the message is visible in the element")
	t.Logf("screenshot: %s", p.screenshot(t, "embed-demo"))
	p.assertNoConsoleErrors(t)
}

// A docs page elsewhere on another site loads converge.js from another
// path: the module finds the wasm next to itself, not next to the page.
func TestBrowserEmbedFromAnotherPath(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	upstream, err := url.Parse(srv.URL)
	require.NoError(t, err)
	mux := http.NewServeMux()
	mux.Handle("/assets/converge/", http.StripPrefix("/assets/converge", httputil.NewSingleHostReverseProxy(upstream)))
	mux.HandleFunc("/docs/guide/rollouts.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><meta charset="utf-8"><title>docs</title><link rel="icon" href="data:,">
<script type="module" src="../../assets/converge/converge.js"></script></head>
<body><h1>Rollouts</h1><converge-sim id="demo" scenario="basic-loop" t="12"></converge-sim></body></html>`)
	})
	docs := httptest.NewServer(mux)
	t.Cleanup(docs.Close)

	p := openPage(t, docs.URL+"/docs/guide/rollouts.html")
	p.waitReady(t)
	got := evalJS[struct {
		Opened map[string]any `json:"opened"`
		Time   int64          `json:"time"`
	}](t, p, `(async () => {
		const el = document.getElementById("demo");
		const opened = await (`+landedJS+`)(el);
		return {opened, time: el.simulation.time()};
	})()`)
	assert.Equal(t, true, got.Opened["ok"], "%v", got.Opened)
	assert.Equal(t, int64(12), got.Time)
	p.assertNoConsoleErrors(t)
}

// The page's address: ?scenario=NAME&t=SECONDS&embed=1, #s=SHARE, and a
// corrupt share, which opens the default with a visible message.
func TestBrowserAddress(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	src, err := fsReadScenario("basic-loop")
	require.NoError(t, err)
	share, err := scenario.EncodeShare([]byte(src))
	require.NoError(t, err)
	tests := []struct {
		name      string
		path      string
		wantName  string
		wantTime  int64
		wantEmbed bool
		wantErr   string
	}{
		{name: "a built-in at a time, embedded", path: "/?scenario=basic-loop&t=12&embed=1", wantName: "basic-loop", wantTime: 12, wantEmbed: true},
		{name: "a share", path: "/#s=" + share + "&t=5", wantTime: 5},
		{name: "a corrupt share", path: "/#s=AAAA-corrupt", wantName: "desired-state",
			wantErr: "The shared scenario cannot be opened: share link is corrupt"},
		{name: "a share with a bad % escape", path: "/#s=AAAA%zz", wantName: "desired-state",
			wantErr: `The shared scenario cannot be opened: share link is corrupt: its s= value has an invalid % escape "%zz".`},
		{name: "an unknown scenario", path: "/?scenario=nope", wantName: "desired-state",
			wantErr: `There is no built-in scenario "nope"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := openPage(t, srv.URL+tc.path)
			p.waitReady(t)
			// The address's t is reached in slices: open returns with the
			// seek under way (docs/js-api.md, open).
			p.waitFor(t, "converge.time() === converge.startup.t")
			got := evalJS[struct {
				Startup struct {
					OK    bool   `json:"ok"`
					Error string `json:"error"`
					Embed bool   `json:"embed"`
				} `json:"startup"`
				Name   string `json:"name"`
				Source string `json:"source"`
				Time   int64  `json:"time"`
			}](t, p, `({startup: converge.startup, name: converge.name(), source: converge.source(), time: converge.time()})`)
			assert.Equal(t, tc.wantName, got.Name)
			assert.Equal(t, tc.wantTime, got.Time)
			assert.Equal(t, tc.wantEmbed, got.Startup.Embed)
			if tc.wantName == "" {
				assert.Equal(t, src, got.Source, "the shared scenario")
			}
			if tc.wantErr == "" {
				assert.True(t, got.Startup.OK, got.Startup.Error)
				p.assertNoConsoleErrors(t)
				return
			}
			assert.False(t, got.Startup.OK)
			assert.Contains(t, got.Startup.Error, tc.wantErr)
			// The message is visible: an element that is rendered (not
			// hidden) holds it as its own text, shadow roots included,
			// soon after ready (the minute only bounds a hang).
			visible := evalJS[bool](t, p, `new Promise((resolve) => {
				const shows = `+showsJS+`;
				const deadline = performance.now() + 60000;
				const poll = () => {
					if (shows(document, converge.startup.error)) resolve(true);
					else if (performance.now() > deadline) resolve(false);
					else setTimeout(poll, 20);
				};
				poll();
			})`)
			assert.True(t, visible, "the page shows %q", got.Startup.Error)
		})
	}
}

// showsJS is a JS function (root, text) => bool: whether an element under
// root (shadow roots included) that is rendered, not hidden, holds text as
// its own text.
const showsJS = `function shows(root, text) {
	return [...root.querySelectorAll("*")].some((e) =>
		(e.checkVisibility() && [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.includes(text))) ||
		(e.shadowRoot !== null && shows(e.shadowRoot, text)));
}`

// fsReadScenario is the shipped scenario name's YAML.
func fsReadScenario(name string) (string, error) {
	data, err := fs.ReadFile(scenarios.FS, name+".yaml")
	return string(data), err
}

// A share link pasted into the address bar of an open page changes only the
// fragment: the page opens the shared scenario without a reload.
func TestBrowserHashChangeOpensTheShare(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	src, err := fsReadScenario("basic-loop")
	require.NoError(t, err)
	share, err := scenario.EncodeShare([]byte(src))
	require.NoError(t, err)
	p := openPage(t, srv.URL+"/?scenario=crashloop")
	p.waitReady(t)
	got := evalJS[struct {
		Before string `json:"before"`
		After  string `json:"after"`
		Source string `json:"source"`
		OK     bool   `json:"ok"`
	}](t, p, `new Promise((resolve) => {
		const before = converge.name();
		window.addEventListener("hashchange", () => setTimeout(() =>
			resolve({before, after: converge.name(), source: converge.source(), ok: converge.startup.ok}), 0), {once: true});
		location.hash = "s=`+share+`";
	})`)
	assert.Equal(t, "crashloop", got.Before)
	assert.Equal(t, src, got.Source, "the shared scenario is open")
	assert.True(t, got.OK)
	p.assertNoConsoleErrors(t)
}
