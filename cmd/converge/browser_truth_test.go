package main

// Browser tests of the page telling the truth: pod tiles you can open, a
// refusal that stays on screen, drift within a second that stays visible,
// and screenshots of the scenarios a newcomer tried (docs/page.md, "The
// page tells the truth").

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUITruthTilePanelOpensByMouseAndKeyboard: a tile is a button named
// in kubectl's words; clicking it, or Enter on it, opens the pod's panel
// (describe, YAML, events, owner chain); Escape closes it and gives focus
// back to the tile.
func TestUITruthTilePanelOpensByMouseAndKeyboard(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=crashloop&t=20", 1280, 800, "light")
	tile := evalJS[struct {
		Tag    string `json:"tag"`
		Label  string `json:"label"`
		Status string `json:"status"`
	}](t, p, `(() => {
		const b = document.querySelector(".cv-rollout .cv-tiles .cv-tile");
		return {tag: b.tagName, label: b.getAttribute("aria-label") || "", status: b.dataset.status || ""};
	})()`)
	assert.Equal(t, "BUTTON", tile.Tag)
	assert.Equal(t, "Error", tile.Status, "kubectl get pods says Error at 20s")
	assert.Regexp(t, `^pod flaky-67fc4dcc76-[a-z0-9]+, Error, 1 restart, on node-\d$`, tile.Label)

	type panel struct {
		Open     bool   `json:"open"`
		Title    string `json:"title"`
		Owners   string `json:"owners"`
		Describe string `json:"describe"`
		YAML     string `json:"yaml"`
		Events   int    `json:"events"`
		Focus    string `json:"focus"`
	}
	const read = `(() => {
		const p = document.querySelector(".cv-rollout .cv-pod-panel");
		return {open: !p.hidden, title: p.querySelector(".cv-pod-title").textContent, owners: p.querySelector(".cv-pod-owners").textContent,
			describe: p.querySelector(".cv-pod-describe").textContent, yaml: p.querySelector(".cv-pod-yaml").textContent,
			events: p.querySelectorAll(".cv-pod-events li").length,
			focus: document.activeElement ? (document.activeElement.className + "|" + (document.activeElement.getAttribute("aria-label") || "")) : ""};
	})()`
	evalJS[bool](t, p, `(document.querySelector(".cv-rollout .cv-tiles .cv-tile").click(), true)`)
	p.waitFor(t, `!document.querySelector(".cv-rollout .cv-pod-panel").hidden`)
	got := evalJS[panel](t, p, read)
	assert.True(t, got.Open)
	assert.True(t, strings.HasPrefix(got.Title, "pod/flaky-67fc4dcc76-"), got.Title)
	assert.Regexp(t, `^pod/flaky-67fc4dcc76-[a-z0-9]+ → replicaset/flaky-67fc4dcc76 → deployment/flaky$`, got.Owners)
	assert.Contains(t, got.Describe, "Restart Count:  1")
	assert.Contains(t, got.YAML, "reason: Error")
	assert.Positive(t, got.Events)
	assert.Contains(t, got.Focus, "cv-pod-close", "focus moves into the panel")
	p.screenshot(t, "tile-panel-1280")

	// Escape closes and gives focus back to the tile.
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("\x1b")))
	p.waitFor(t, `document.querySelector(".cv-rollout .cv-pod-panel").hidden`)
	got = evalJS[panel](t, p, read)
	assert.Contains(t, got.Focus, "cv-tile")

	// Keyboard: Enter on the focused tile opens it again.
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("\r")))
	p.waitFor(t, `!document.querySelector(".cv-rollout .cv-pod-panel").hidden`)

	// The panel follows the clock: at 45s the pod waits in CrashLoopBackOff.
	evalJS[bool](t, p, `(converge.seek(45), true)`)
	p.waitFor(t, `converge.time() === 45 && document.querySelector(".cv-rollout .cv-pod-panel .cv-pod-yaml").textContent.includes("CrashLoopBackOff")`)
	p.emulate(t, 375, 800, "light")
	p.screenshot(t, "tile-panel-375")
	p.assertNoConsoleErrors(t)
}

// TestUITruthRefusalStaysOnScreen: the refused apply of selector-immutable
// (20s) is still on screen at 22s, marked with its age, and the why-line
// says nothing moved instead of "in sync"; by 25s it is gone.
func TestUITruthRefusalStaysOnScreen(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=selector-immutable&t=22", 1280, 800, "light")
	got := evalJS[struct {
		Rejected []string `json:"rejected"`
		Badges   []string `json:"badges"`
	}](t, p, `(() => {`+newcomerJS+`
		return {rejected: all(".cv-why .cv-kind-rejected"), badges: all(".cv-why .cv-why-lines .cv-badge")};
	})()`)
	require.Len(t, got.Rejected, 1)
	assert.Contains(t, got.Rejected[0], "at 20s (2s ago): apply deployment/web")
	assert.Contains(t, got.Rejected[0], "field is immutable")
	assert.Equal(t, []string{"REFUSED"}, got.Badges)
	whyShot(t, p, "refusal")
	evalJS[bool](t, p, `(converge.seek(25), true)`)
	p.waitFor(t, `converge.time() === 25 && document.querySelectorAll(".cv-why .cv-kind-rejected").length === 0`)
	p.assertNoConsoleErrors(t)
}

// TestUITruthDriftWithinASecond: manual-drift scales the ReplicaSet to 6
// at 20s and the Deployment controller scales it back within the second:
// the three pods are drawn at 20s and told in the why card until 24s.
func TestUITruthDriftWithinASecond(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=manual-drift&t=20", 1280, 800, "light")
	type drift struct {
		Gone  int      `json:"gone"`
		Lines []string `json:"lines"`
	}
	const read = `(() => {` + newcomerJS + `
		return {gone: document.querySelectorAll(".cv-rollout .s-gone").length, lines: all(".cv-why .cv-kind-drift")};
	})()`
	got := evalJS[drift](t, p, read)
	assert.Equal(t, 3, got.Gone)
	require.Len(t, got.Lines, 1)
	assert.Contains(t, got.Lines[0], "was scaled to 6 by hand (kubectl scale rs -l app=web --replicas=6)")
	assert.Contains(t, got.Lines[0], "scaled it back to 3")
	whyShot(t, p, "drift")
	evalJS[bool](t, p, `(converge.seek(23), true)`)
	p.waitFor(t, `converge.time() === 23`)
	got = evalJS[drift](t, p, read)
	assert.Equal(t, 0, got.Gone, "drawn for its own second only")
	require.Len(t, got.Lines, 1)
	assert.Contains(t, got.Lines[0], "3S AGO")
	p.assertNoConsoleErrors(t)
}

// TestUITruthScreenshots saves the scenarios a newcomer tried at 1280 and 375
// px: the why card and the rollout, as a newcomer first sees them. It
// asserts no more than a clean console, so it runs with `make
// screenshots`, not in `make test` (screenshotsOnly); the tests above
// assert what these views show.
func TestUITruthScreenshots(t *testing.T) {
	t.Parallel()
	screenshotsOnly(t)
	srv := startServe(t)
	for _, tc := range []struct {
		name, path string
	}{
		{"crashloop-20s", "/?scenario=crashloop&t=20"},
		{"pdb-drain-15s", "/?scenario=pdb-drain&t=15"},
		{"manual-drift-20s", "/?scenario=manual-drift&t=20"},
		{"rolling-update-22s", "/?scenario=rolling-update&t=22"},
		{"stuck-no-capacity-25s", "/?scenario=stuck-no-capacity&t=25"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := openUI(t, srv, tc.path, 1280, 800, "light")
			scrollTo(t, p, ".cv-why")
			p.shot(t, "1280", false)
			p.emulate(t, 375, 800, "light")
			scrollTo(t, p, ".cv-why")
			p.shot(t, "375", false)
			scrollTo(t, p, ".cv-rollout")
			p.shot(t, "375-rollout", false)
			p.assertNoConsoleErrors(t)
		})
	}
}
