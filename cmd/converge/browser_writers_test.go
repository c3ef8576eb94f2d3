package main

// Browser tests of the other writers of spec.replicas in the page (issue:
// the GitOps reconciler, the HorizontalPodAutoscaler, who wrote a field):
// the Why card says who set a user's kubectl scale back and why, the
// writers' timeline lists each write with its field manager, and the loop
// panel shows the reconciler and the HPA. See browser_harness_test.go.

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writersShown is what the Why card and the loop panel show about the
// writers of the focus Deployment.
type writersShown struct {
	Undone   string   `json:"undone"`
	Title    string   `json:"title"`
	Hidden   bool     `json:"hidden"`
	Writes   []string `json:"writes"`
	Undid    []string `json:"undid"`
	Owners   string   `json:"owners"`
	Loop     []string `json:"loop"`
	Overflow bool     `json:"overflow"`
}

const writersJS = `(() => {
	const q = (s) => document.querySelector(s);
	const all = (s) => [...document.querySelectorAll(s)];
	const undone = all(".cv-why-undone").filter((e) => !e.hidden).map((e) => e.textContent);
	const w = q(".cv-writers");
	const visible = (e) => !e.hidden && !e.closest("[hidden]");
	return {
		undone: undone.join(" | "),
		title: q(".cv-writers-title")?.textContent ?? "",
		hidden: !w || w.hidden,
		writes: all(".cv-writer").filter(visible).map((e) => e.textContent),
		undid: all(".cv-writer-undid").filter(visible).map((e) => e.querySelector(".cv-writer-change").textContent),
		owners: w ? w.querySelector(".cv-small").textContent : "",
		loop: all(".cv-loop-row").map((e) => e.textContent),
		overflow: document.documentElement.scrollWidth > window.innerWidth,
	};
})()`

func TestUIWritersOfAGitOpsUndo(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	for _, scheme := range []string{"light", "dark"} {
		p := openUI(t, srv, "/?scenario=gitops-undoes-kubectl-scale&t=70", 1280, 800, scheme)
		got := evalJS[writersShown](t, p, writersJS)
		assert.Equal(t, "spec.replicas set back to 3 by the GitOps reconciler at 60 s: Git declares 3 (commit 1). It undid kubectl scale at 40 s.",
			got.Undone)
		assert.False(t, got.Hidden)
		assert.Equal(t, "Writers of deployment/web", got.Title)
		require.Len(t, got.Writes, 3, "%q", got.Writes)
		assert.Contains(t, got.Writes[0], "the GitOps reconciler · gitops (Apply)")
		assert.Contains(t, got.Writes[1], "3 → 8")
		assert.Contains(t, got.Writes[1], "kubectl scale · kubectl (scale)")
		assert.Equal(t, []string{"8 → 3"}, got.Undid)
		assert.Equal(t, "spec.replicas is managed now by gitops (Apply) since 60 s (metadata.managedFields).", got.Owners)
		assert.True(t, anyContains(got.Loop, "GitOps"), "the loop panel lists the reconciler: %q", got.Loop)
		assert.False(t, got.Overflow)
		p.shot(t, "gitops-undo-"+scheme, true)
		p.assertNoConsoleErrors(t)
	}

	// The commit at 80 s makes the scale last: no undo is shown any more.
	p := openUI(t, srv, "/?scenario=gitops-undoes-kubectl-scale&t=100", 1280, 800, "light")
	got := evalJS[writersShown](t, p, writersJS)
	assert.Empty(t, got.Undone)
	assert.Contains(t, got.Writes[len(got.Writes)-1], "3 → 8")
	assert.Contains(t, got.Writes[len(got.Writes)-1], "Git declares 8 (commit 2)")
	p.assertNoConsoleErrors(t)
}

func TestUIWritersOfAnHPAUndo(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/?scenario=hpa-undoes-kubectl-scale&t=140", 1280, 800, "light")
	got := evalJS[writersShown](t, p, writersJS)
	assert.Contains(t, got.Undone, "spec.replicas set back to 4 by the HorizontalPodAutoscaler web at 135 s")
	assert.Contains(t, got.Undone, "It undid kubectl scale at 125 s.")
	assert.True(t, anyContains(got.Loop, "HorizontalPodAutoscaler"), "the loop panel lists the HPA: %q", got.Loop)
	p.shot(t, "hpa-undo", true)
	p.assertNoConsoleErrors(t)

	// 768 px wide: the card still fits.
	p = openUI(t, srv, "/?scenario=hpa-gitops-fight&t=200", 768, 1024, "light")
	got = evalJS[writersShown](t, p, writersJS)
	assert.False(t, got.Overflow)
	assert.NotEmpty(t, got.Writes)
	p.shot(t, "hpa-gitops-fight-768", true)
	p.assertNoConsoleErrors(t)
}

func anyContains(list []string, s string) bool {
	for _, x := range list {
		if strings.Contains(x, s) {
			return true
		}
	}
	return false
}
