package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/version"
)

// Browser tests: see browser_harness_test.go. They do not call t.Parallel().

func TestBrowserPageBootsTheWasmAndReportsItsVersion(t *testing.T) {
	srv := startServe(t)
	p := openPage(t, srv.URL+"/")

	ready := p.waitReady(t)
	t.Logf("converge.ready %v after the navigation started", ready)
	got := evalJS[struct {
		Version string `json:"version"`
		Status  string `json:"status"`
		Ready   string `json:"ready"`
	}](t, p, `({
		version: globalThis.converge.version,
		status: document.getElementById("status").textContent,
		ready: document.documentElement.dataset.ready ?? "",
	})`)

	assert.Equal(t, version.Version, got.Version)
	assert.Equal(t, "true", got.Ready, "app.js marks the page ready")
	assert.Contains(t, got.Status, version.Version, "the status line names the version")
	t.Logf("screenshot: %s", p.screenshot(t, "boot"))
	p.assertNoConsoleErrors(t)
}

// The harness itself: a page that logs an error and throws must be caught,
// or the check above could never fail.
func TestBrowserHarnessSeesConsoleErrorsAndExceptions(t *testing.T) {
	srv := startServe(t)
	p := openPage(t, srv.URL+"/")
	p.waitReady(t)

	_ = evalJS[bool](t, p, `new Promise((resolve) => {
		console.error("harness-check: an error");
		setTimeout(() => { throw new Error("harness-check: uncaught"); }, 0);
		setTimeout(() => resolve(true), 0);
	})`)

	got := p.consoleErrors(t)
	assert.Len(t, got, 2, "console: %v", got)
	joined := strings.Join(got, "\n")
	assert.Contains(t, joined, "error: harness-check: an error")
	assert.Contains(t, joined, "exception: Uncaught Error: harness-check: uncaught")
}
