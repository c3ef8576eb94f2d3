package main

// Browser tests of what the page bounds under hostile input: the trace download in
// slices, and the address too large to follow the scenario (see
// browser_harness_test.go).

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
)

// dayScenario is a scenario of duration with replicas pods of nginx.
func dayScenario(duration, replicas string) string {
	return `name: day
duration: ` + duration + `
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: ` + replicas + `
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "nginx:1.27"}]}
`
}

// Download, Trace of a 3 h scenario works in slices, saying how far it
// is and about how large the file will be, and Dismiss cancels it (no file);
// the 24 h scenario with 5 pods (about 1.6 GB) is refused after its
// first slice, where it froze the page for 15 s and reached 3.1 GB.
func TestTraceDownloadInSlices(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop", 1280, 800, "light")
	type result struct {
		Progress, Cancelled, Refused string
		Downloads                    int
	}
	got := evalJS[result](t, p, captureDownloads+"{"+uiJS+`(async () => {
		const out = {};
		const download = () => { q(".cv-menu-btn").click(); q("[data-download=jsonl]").click(); };
		if (!converge.load(`+jsString(dayScenario("3h", "0"))+`).ok) throw new Error("load");
		download();
		out.Progress = await until(() => q(".cv-note-text").textContent.startsWith("Building the trace:") && q(".cv-note-text").textContent);
		q(".cv-note-close").click();
		out.Cancelled = await until(() => q(".cv-note-text").textContent.includes("cancelled") && q(".cv-note-text").textContent);
		if (!converge.load(`+jsString(dayScenario("24h", "5"))+`).ok) throw new Error("load");
		download();
		out.Refused = await until(() => q(".cv-note-text").textContent.startsWith("The download failed") && q(".cv-note-text").textContent);
		out.Downloads = window.downloads.length;
		return out;
	})()}`)
	assert.Regexp(t, `^Building the trace: [\d,]+ of 10,801 seconds, [\d.]+ [kM]B of about [\d.]+ MB\. Dismiss to cancel\.$`, got.Progress)
	assert.Equal(t, "The trace download is cancelled.", got.Cancelled)
	assert.Regexp(t, `^The download failed: the trace would be about \d\.\d GB, more than the page can build \(268\.4 MB\); `, got.Refused)
	assert.Zero(t, got.Downloads)
	p.assertNoConsoleErrors(t)
}

// Applying a scenario over 64 KiB in the editor leaves the page's address on the scenario
// from before, and the page now says so instead of keeping silent.
func TestAddressSaysWhenTheScenarioIsTooLarge(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=basic-loop", 1280, 800, "light")
	big := "name: big\ntitle: Big\ndescription: |\n" + strings.Repeat("  a long description line, to pass 64 KiB once inflated\n", 1300) + "duration: 30s\n"
	require.Greater(t, len(big), scenario.MaxShareSize)
	got := evalJS[struct {
		Note, Before, After string
	}](t, p, "{"+uiJS+`(async () => {
		const out = {Before: location.href};
		tab("editor");
		const ed = q(".cv-ed-text");
		ed.value = `+jsString(big)+`;
		ed.dispatchEvent(new Event("input", {bubbles: true}));
		await until(() => !q(".cv-editor .cv-primary").disabled);
		q(".cv-editor .cv-primary").click();
		out.Note = await until(() => !q(".cv-note").hidden && q(".cv-note-text").textContent);
		out.After = location.href;
		return out;
	})()}`)
	assert.Regexp(t, `^The page's address still opens the scenario from before: this one is 7\d KiB, and an address carries at most 64 KiB\. A reload would lose it; Share saves it in My scenarios, Download as a file\.$`, got.Note)
	assert.Equal(t, got.Before, got.After)
	p.shot(t, "address-too-large", false)
	p.emulate(t, 375, 800, "light")
	p.shot(t, "address-too-large-375", false)
	p.assertNoConsoleErrors(t)
}
