package main

// Browser tests of sharing, My scenarios (hackpadfs' IndexedDB filesystem)
// and the downloads: see browser_harness_test.go.

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/export"
	"converge/core/scenario"
	"converge/core/version"
)

// uiJS are helpers the tests' scripts share: q, tab(name), input(el, v),
// run(line) (a console command, typed), until(test) (a Promise of a
// condition; its minute only bounds a hang, well within pageTimeout: 5 s
// failed healthy runs on a busy machine) and overflow(selector) (the
// elements under the selector that pass the viewport's left or right
// edge).
const uiJS = `
const q = (s) => document.querySelector(s);
const tab = (name) => q("[data-tab=" + name + "]").click();
const input = (el, v) => { el.value = v; el.dispatchEvent(new Event("input", {bubbles: true})); };
const run = (line) => {
	tab("console");
	const el = q(".cv-cmd");
	el.value = line;
	el.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter", bubbles: true, cancelable: true}));
};
const until = (test) => new Promise((resolve, reject) => {
	const deadline = performance.now() + 60000;
	const poll = () => {
		let v;
		try { v = test(); } catch (e) { v = undefined; }
		if (v) resolve(v);
		else if (performance.now() > deadline) reject(new Error("timed out waiting for " + test));
		else setTimeout(poll, 20);
	};
	poll();
});
const overflow = (sel) => [...document.querySelectorAll(sel)].filter((e) => {
	const r = e.getBoundingClientRect();
	return e.checkVisibility() && r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5);
}).map((e) => e.className || e.tagName);
`

// stubClipboard records what the page copies in window.copied.
const stubClipboard = `Object.defineProperty(navigator, "clipboard", {configurable: true,
	value: {writeText: (s) => { window.copied = s; return Promise.resolve(); }}});`

// The Share link opens the same scenario, console step included, at the
// second it was shared, in a new page; the picker says "Your own scenario"
// once a console command joined the scenario; without a Clipboard API the
// link is shown to copy by hand.
func TestShareLinkKeepsTheTime(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=rolling-update", 1280, 800, "light")
	got := evalJS[struct {
		Before, After, Copied, Note, Field, Href, Scenario string
		T                                                  int
	}](t, p, stubClipboard+"{"+uiJS+`(async () => {
		const out = {Before: q(".cv-picker").value};
		converge.moveTo(40);
		run("scale deployment/web --replicas=12");
		out.After = q(".cv-picker").value;
		out.T = converge.time();
		out.Scenario = converge.scenario();
		q(".cv-share-btn").click();
		out.Copied = await until(() => window.copied);
		out.Note = await until(() => q(".cv-note-text").textContent);
		out.Field = q(".cv-note-link").value;
		out.Href = location.href;
		return out;
	})()}`)
	assert.Equal(t, "rolling-update", got.Before)
	assert.Equal(t, "", got.After, `the picker shows "Your own scenario" after a console command`)
	assert.Equal(t, 41, got.T)
	assert.Equal(t, "Link copied: it opens this scenario at 41s.", got.Note)
	assert.Equal(t, got.Copied, got.Field)
	assert.True(t, strings.HasPrefix(got.Copied, srv.URL+"/#s="), got.Copied)
	assert.True(t, strings.HasSuffix(got.Copied, "&t=41"), got.Copied)
	assert.Equal(t, got.Copied, got.Href, "the address is the same link")
	picked := evalJS[string](t, p, `document.querySelector(".cv-picker").selectedOptions[0].textContent`)
	assert.Equal(t, "Your own scenario", picked)
	// A clipboard that refuses (no permission) leaves the link to copy by
	// hand.
	refused := evalJS[struct{ Note, Field string }](t, p, `navigator.clipboard.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
		{`+uiJS+`(async () => {
			q(".cv-note-close").click();
			q(".cv-share-btn").click();
			return {Note: await until(() => !q(".cv-note").hidden && q(".cv-note-text").textContent), Field: q(".cv-note-link").value};
		})()}`)
	assert.Equal(t, "Copy this link by hand: the browser did not let the page copy it.", refused.Note)
	assert.Equal(t, got.Copied, refused.Field)
	p.assertNoConsoleErrors(t)

	// The copied link, opened in a new page.
	shared := openUI(t, srv, strings.TrimPrefix(got.Copied, srv.URL), 1280, 800, "light")
	opened := evalJS[struct {
		T                int
		Scenario, Picker string
		Now              string
	}](t, shared, `({T: converge.time(), Scenario: converge.scenario(), Picker: document.querySelector(".cv-picker").value,
		Now: document.querySelector(".cv-now").textContent})`)
	assert.Equal(t, 41, opened.T, "the link opens at its t")
	assert.Equal(t, got.Scenario, opened.Scenario, "the same scenario, with the console's step")
	assert.Equal(t, "", opened.Picker)
	assert.True(t, strings.HasPrefix(opened.Now, "t = 41s of"), opened.Now)
	shared.assertNoConsoleErrors(t)

	// A built-in as loaded shares its name; without a clipboard the link
	// is shown in the field.
	noClip := openPageWith(t, srv.URL+"/?scenario=basic-loop", `Object.defineProperty(navigator, "clipboard", {value: undefined});`)
	noClip.emulate(t, 1280, 800, "light")
	noClip.waitReady(t)
	noClip.waitFor(t, uiReady)
	byHand := evalJS[struct{ Note, Field string }](t, noClip, "{"+uiJS+`(async () => {
		converge.moveTo(20);
		q(".cv-share-btn").click();
		return {Note: await until(() => q(".cv-note-text").textContent), Field: q(".cv-note-link").value};
	})()}`)
	assert.Equal(t, "Copy this link by hand: the browser did not let the page copy it.", byHand.Note)
	assert.Equal(t, srv.URL+"/?scenario=basic-loop&t=20", byHand.Field)
	noClip.assertNoConsoleErrors(t)
}

// A scenario over 64 KiB gets no link: Share saves it in My scenarios and
// says why, and a second Share replaces that save.
func TestShareOfATooLargeScenario(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop", 1280, 800, "light")
	big := "name: big\ntitle: Big\ndescription: |\n" + strings.Repeat("  a long description line, to pass 64 KiB once inflated\n", 1300) + "duration: 30s\n"
	require.Greater(t, len(big), scenario.MaxShareSize)
	got := evalJS[struct {
		Load     bool
		Note     string
		Note2    string
		Saved    []string
		Href     string
		Clip     bool
		Scenario string
	}](t, p, stubClipboard+"{"+uiJS+`(async () => {
		const out = {Load: converge.load(`+jsString(big)+`).ok, Href: location.href};
		q(".cv-share-btn").click();
		out.Note = await until(() => q(".cv-note-text").textContent.startsWith("No link") && q(".cv-note-text").textContent);
		q(".cv-note-close").click();
		q(".cv-share-btn").click();
		out.Note2 = await until(() => !q(".cv-note").hidden && q(".cv-note-text").textContent);
		out.Saved = (await converge.saved()).map((e) => e.name);
		out.Clip = window.copied !== undefined;
		return out;
	})()}`)
	require.True(t, got.Load)
	assert.Regexp(t, `^No link: this scenario is 7\d KiB, and a link carries at most 64 KiB\. It is saved in My scenarios as “big”; use Download to pass it on as a file\.$`, got.Note)
	assert.Equal(t, got.Note, got.Note2, "the second Share replaces the first save")
	assert.Equal(t, []string{"big"}, got.Saved)
	assert.False(t, got.Clip, "nothing was copied")
	p.shot(t, "too-large", false)
	p.assertNoConsoleErrors(t)
}

// A scenario saved in My scenarios (hackpadfs' IndexedDB filesystem)
// survives a reload; rename, duplicate, delete and open work from the
// list.
func TestSavedScenariosSurviveAReload(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop&t=10", 1280, 800, "light")
	saved := evalJS[struct {
		Label, Note string
		Rows        []string
		Storage     struct {
			Persistent bool
			Notice     string
		}
	}](t, p, "{"+uiJS+`(async () => {
		run("scale deployment/web --replicas=4");
		tab("saved");
		const name = q(".cv-saved-name");
		input(name, "my loop");
		const out = {Label: q(".cv-saved-bar .cv-primary").textContent};
		q(".cv-saved-bar .cv-primary").click();
		out.Note = await until(() => q(".cv-note-text").textContent.startsWith("Saved") && q(".cv-note-text").textContent);
		out.Rows = await until(() => { const r = [...document.querySelectorAll(".cv-saved-title")].map((e) => e.textContent); return r.length && r; });
		out.Storage = await converge.storage();
		return out;
	})()}`)
	assert.Equal(t, "Save", saved.Label)
	assert.Equal(t, "Saved “my loop”: the scenario as it runs, with the steps added from the console.", saved.Note)
	assert.Equal(t, []string{"my loop"}, saved.Rows)
	assert.True(t, saved.Storage.Persistent, "IndexedDB works in headless chromium; the page says: %s", saved.Storage.Notice)
	want := evalJS[string](t, p, `converge.scenario()`)

	p.reload(t)
	p.waitFor(t, uiReady)
	after := evalJS[struct {
		API       []string
		Rows      []string
		Open      bool
		Scenario  string
		Picker    string
		Renamed   []string
		Duplicate []string
		Deleted   []string
		Meta      string
	}](t, p, "{"+uiJS+`(async () => {
		const out = {API: (await converge.saved()).map((e) => e.name)};
		tab("saved");
		const titles = () => [...document.querySelectorAll(".cv-saved-title")].map((e) => e.textContent);
		out.Rows = await until(() => titles().length && titles());
		out.Meta = q(".cv-saved-meta").textContent;
		q('[data-act=open][data-name="my loop"]').click();
		out.Open = await until(() => q(".cv-note-text").textContent === "Opened “my loop”.");
		out.Scenario = converge.scenario();
		out.Picker = q(".cv-picker").value;
		q('[data-act=rename][data-name="my loop"]').click();
		q(".cv-saved-rename").value = "loop v2";
		q('[data-act=rename-ok][data-name="my loop"]').click();
		out.Renamed = await until(() => titles().includes("loop v2") && titles());
		q('[data-act=duplicate][data-name="loop v2"]').click();
		out.Duplicate = await until(() => titles().length === 2 && titles());
		q('[data-act=delete][data-name="loop v2 copy"]').click();
		q('[data-act=delete-ok][data-name="loop v2 copy"]').click();
		out.Deleted = await until(() => titles().length === 1 && titles());
		return out;
	})()}`)
	assert.Equal(t, []string{"my loop"}, after.API, "saved() after the reload")
	assert.Equal(t, []string{"my loop"}, after.Rows)
	assert.Regexp(t, `^\d{4}-\d\d-\d\d \d\d:\d\d · \d+ KiB$`, after.Meta)
	assert.Equal(t, want, after.Scenario, "Open loads the saved scenario, console step included")
	assert.Equal(t, "", after.Picker, "a saved scenario is the user's own")
	assert.Equal(t, []string{"loop v2"}, after.Renamed)
	assert.Equal(t, []string{"loop v2", "loop v2 copy"}, after.Duplicate)
	assert.Equal(t, []string{"loop v2"}, after.Deleted)
	p.shot(t, "my-scenarios", false)
	p.assertNoConsoleErrors(t)
}

// The editor keeps its text as a draft while it is typed, unapplied, and
// offers it back after a reload.
func TestDraftRestoredAfterAReload(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop", 1280, 800, "light")
	typed := evalJS[string](t, p, "{"+uiJS+`(async () => {
		tab("editor");
		const text = q(".cv-ed-text");
		input(text, text.value.replace("title: The basic loop", "title: My draft loop") + "# not applied\n");
		await until(() => q(".cv-ed-draft").textContent.startsWith("Draft kept in this browser"));
		return text.value;
	})()}`)
	require.Contains(t, typed, "My draft loop")
	p.reload(t)
	p.waitFor(t, uiReady)
	p.waitFor(t, `!document.querySelector(".cv-draft-offer").hidden`)
	p.shot(t, "draft-offer", false)
	// At 375 px the offer and its buttons stay within the screen.
	p.emulate(t, 375, 800, "light")
	bad := evalJS[[]string](t, p, "{"+uiJS+`overflow(".cv-draft-offer, .cv-draft-offer *")}`)
	assert.Empty(t, bad, "the draft offer at 375 px")
	p.shot(t, "draft-offer-375", false)
	p.emulate(t, 1280, 800, "light")
	got := evalJS[struct {
		Offer, Editor, Title string
		Tab                  string
	}](t, p, "{"+uiJS+`(async () => {
		const out = {Offer: q(".cv-draft-offer .cv-note-text").textContent};
		q(".cv-draft-offer .cv-primary").click();
		out.Editor = q(".cv-ed-text").value;
		out.Tab = q(".cv-tab.cv-active").dataset.tab;
		out.Title = q(".cv-intro-title").textContent;
		return out;
	})()}`)
	assert.Regexp(t, `^You have a draft from \d{4}-\d\d-\d\d \d\d:\d\d that was not applied \(edited from basic-loop\)\. Restore it into the editor\?$`, got.Offer)
	assert.Equal(t, typed, got.Editor, "the draft is back in the editor")
	assert.Equal(t, "editor", got.Tab)
	assert.Equal(t, "The basic loop, scaling up and down", got.Title, "restored, not applied")
	p.shot(t, "draft-restored", false)
	p.emulate(t, 375, 800, "light")
	bad = evalJS[[]string](t, p, "{"+uiJS+`(async () => {
		const text = q(".cv-ed-text");
		input(text, text.value + "# typed at 375 px\n");
		await until(() => q(".cv-ed-draft").checkVisibility() && q(".cv-ed-draft").textContent.startsWith("Draft kept in this browser"));
		return overflow(".cv-editor, .cv-editor *");
	})()}`)
	assert.Empty(t, bad, "the editor and its draft line at 375 px")
	evalJS[bool](t, p, `document.querySelector(".cv-ed-draft").scrollIntoView({block: "center"}), true`)
	p.shot(t, "draft-line-375", false)
	p.assertNoConsoleErrors(t)
}

// Where IndexedDB cannot be used (here it throws, as in a sandboxed frame
// or a private window), the page says so once and keeps working in memory.
func TestIndexedDBUnavailable(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	stub := `Object.defineProperty(window, "indexedDB", {configurable: true,
		get() { throw new DOMException("The user denied permission to access the database.", "SecurityError"); }});`
	p := openPageWith(t, srv.URL+"/?scenario=basic-loop", stub)
	p.emulate(t, 1280, 800, "light")
	p.waitReady(t)
	p.waitFor(t, uiReady)
	got := evalJS[struct {
		Note    string
		Storage struct {
			Persistent bool
			Notice     string
		}
		Saved  []string
		Notice string
	}](t, p, "{"+uiJS+`(async () => {
		const out = {Note: await until(() => q(".cv-note-text").textContent)};
		out.Storage = await converge.storage();
		await converge.save("in memory");
		out.Saved = (await converge.saved()).map((e) => e.name);
		tab("saved");
		out.Notice = await until(() => !q(".cv-saved-notice").hidden && q(".cv-saved-notice").textContent);
		return out;
	})()}`)
	assert.Contains(t, got.Note, "Your scenarios and drafts are kept in memory only, until this page closes")
	assert.Contains(t, got.Note, "SecurityError")
	assert.False(t, got.Storage.Persistent)
	assert.Equal(t, got.Note, got.Storage.Notice)
	assert.Equal(t, []string{"in memory"}, got.Saved, "saving still works, in memory")
	assert.Equal(t, got.Note, got.Notice)
	p.shot(t, "storage-in-memory", false)
	p.emulate(t, 375, 800, "light")
	bad := evalJS[[]string](t, p, "{"+uiJS+`overflow(".cv-note, .cv-note *, .cv-saved-notice")}`)
	assert.Empty(t, bad, "the storage notice at 375 px")
	p.shot(t, "storage-in-memory-375", false)
	p.assertNoConsoleErrors(t)
}

// captureDownloads records each download the page starts (window.downloads:
// {name, type, text}) instead of saving it.
const captureDownloads = `window.downloads = [];
window.blobs = {};
const createObjectURL = URL.createObjectURL;
URL.createObjectURL = (b) => { const u = createObjectURL(b); window.blobs[u] = b; return u; };
HTMLAnchorElement.prototype.click = function () {
	const a = this, b = window.blobs[a.href];
	b.text().then((text) => window.downloads.push({name: a.download, type: b.type, text}));
};`

// The Download menu's files are the native ones: the trace is what
// converge run --output jsonl writes for the scenario (console step
// included), the script what converge export-kubectl prints.
func TestDownloadsAreTheNativeFiles(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop&t=10", 1280, 800, "light")
	type file struct{ Name, Type, Text string }
	got := evalJS[struct {
		Files    []file
		Scenario string
		Menu     bool
	}](t, p, captureDownloads+"{"+uiJS+`(async () => {
		run("scale deployment/web --replicas=4");
		q(".cv-menu-btn").click();
		const out = {Menu: !q(".cv-menu").hidden};
		for (const k of ["yaml", "sh", "jsonl", "svg"]) {
			q(".cv-menu-btn").click();
			q("[data-download=" + k + "]").click();
		}
		out.Files = await until(() => window.downloads.length === 4 && window.downloads);
		out.Scenario = converge.scenario();
		return out;
	})()}`)
	assert.True(t, got.Menu)
	require.Len(t, got.Files, 4)
	byName := map[string]file{}
	for _, f := range got.Files {
		byName[f.Name] = f
	}
	assert.Equal(t, got.Scenario, byName["basic-loop.yaml"].Text)
	assert.Equal(t, "application/yaml", byName["basic-loop.yaml"].Type)
	scn, probs := scenario.Parse([]byte(got.Scenario), "basic-loop.yaml")
	require.False(t, probs.HasErrors())
	var trace bytes.Buffer
	require.NoError(t, export.Trace(&trace, scn, scn.Duration))
	assert.True(t, trace.String() == byName["basic-loop.jsonl"].Text, "the page's trace is the native trace")
	f := writeFile(t, "basic-loop.yaml", got.Scenario)
	code, runOut, _ := runCLI(t, "run", f, "--output", "jsonl")
	assert.Equal(t, exitFailed, code, "scaled to 4, the scenario's later expects do not hold")
	assert.True(t, runOut == byName["basic-loop.jsonl"].Text, "the bytes of converge run --output jsonl")
	script, err := export.Kubectl(scn, export.KubectlOptions{File: "basic-loop.yaml", Version: version.Version})
	require.NoError(t, err)
	assert.Equal(t, string(script), byName["basic-loop.sh"].Text)
	assert.Equal(t, "image/svg+xml", byName["basic-loop-11s.svg"].Type)
	assert.Contains(t, byName["basic-loop-11s.svg"].Text, "<svg xmlns=")
	p.assertNoConsoleErrors(t)
}

// A .yaml file imported with the file picker, or dropped on the editor, is
// saved in My scenarios and opened; one with problems goes into the editor.
func TestImportAndDropOnTheEditor(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop", 1280, 800, "light")
	good := "name: imported\ntitle: Imported\nduration: 20s\n"
	got := evalJS[struct {
		Picked, Dropped, Bad, Editor, Refused, Name string
		Saved                                       []string
	}](t, p, "{"+uiJS+`(async () => {
		const files = (name, text) => { const dt = new DataTransfer(); dt.items.add(new File([text], name)); return dt; };
		const note = (prefix) => until(() => q(".cv-note-text").textContent.startsWith(prefix) && q(".cv-note-text").textContent);
		tab("saved");
		const picker = q(".cv-file");
		picker.files = files("mine.yaml", `+jsString(good)+`).files;
		picker.dispatchEvent(new Event("change"));
		const out = {Picked: await note("Imported")};
		out.Name = converge.scenario();
		tab("editor");
		const drop = (dt) => q(".cv-editor").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		drop(files("mine.yaml", `+jsString(good)+`));
		out.Dropped = await note("Imported “mine.yaml” as “mine 2”");
		drop(files("broken.yaml", "name: broken\nduraton: 5s\n"));
		out.Bad = await note("“broken.yaml”");
		out.Editor = q(".cv-ed-text").value;
		drop(files("notes.txt", "hello"));
		out.Refused = await note("“notes.txt”");
		out.Saved = (await converge.saved()).map((e) => e.name);
		return out;
	})()}`)
	assert.Equal(t, "Imported “mine.yaml” as “mine” in My scenarios, and opened it.", got.Picked)
	assert.Equal(t, good, got.Name)
	assert.Equal(t, "Imported “mine.yaml” as “mine 2” in My scenarios, and opened it.", got.Dropped)
	assert.Equal(t, "“broken.yaml” has 1 problem: it is in the editor to fix, then Apply.", got.Bad)
	assert.Equal(t, "name: broken\nduraton: 5s\n", got.Editor)
	assert.Equal(t, "“notes.txt” is not a .yaml file: import takes a scenario or manifests in YAML.", got.Refused)
	assert.Equal(t, []string{"mine", "mine 2"}, got.Saved)
	p.assertNoConsoleErrors(t)
}

// Screenshots of Share, the Download menu and My scenarios at 1280 and
// 375 px, light and dark; nothing of them passes the edge of a 375 px
// screen.
func TestShareAndSavedScreenshots(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for _, width := range []int64{1280, 375} {
		for _, scheme := range []string{"light", "dark"} {
			p := openUI(t, srv, "/?scenario=rolling-update&t=30", width, 800, scheme)
			name := func(s string) string { return s + "-" + strconv.FormatInt(width, 10) + "-" + scheme }
			bad := evalJS[[]string](t, p, stubClipboard+"{"+uiJS+`(async () => {
				q(".cv-share-btn").click();
				await until(() => !q(".cv-note").hidden);
				return overflow(".cv-actions, .cv-actions *, .cv-note, .cv-note *");
			})()}`)
			assert.Empty(t, bad, "at %d px", width)
			p.shot(t, name("share"), false)
			bad = evalJS[[]string](t, p, "{"+uiJS+`(async () => {
				q(".cv-menu-btn").click();
				await until(() => !q(".cv-menu").hidden);
				return overflow(".cv-menu, .cv-menu *");
			})()}`)
			assert.Empty(t, bad, "the menu at %d px", width)
			p.shot(t, name("download-menu"), false)
			bad = evalJS[[]string](t, p, "{"+uiJS+`(async () => {
				q(".cv-menu-btn").click();
				await converge.save("rolling update, my way");
				await converge.save("a much longer name for a saved scenario, to wrap");
				tab("saved");
				await until(() => document.querySelectorAll(".cv-saved-row").length === 2);
				q(".cv-tabs").scrollIntoView();
				return overflow(".cv-saved, .cv-saved *");
			})()}`)
			assert.Empty(t, bad, "My scenarios at %d px", width)
			p.shot(t, name("my-scenarios"), false)
			p.assertNoConsoleErrors(t)
		}
	}
}
