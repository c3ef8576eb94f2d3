package main

import (
	"context"
	"strings"
	"testing"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/version"
)

// Browser tests: see browser_harness_test.go.

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

// The tests' chromium runs V8 with --liftoff-only (browser_harness_test.go),
// the benchmarks' as shipped: a benchmark must measure the code users get.
func TestBrowserTestsRunLiftoffOnlyAndBenchmarksDoNot(t *testing.T) {
	t.Parallel()
	assert.Same(t, benchBrowser, browserFor(&testing.B{}), "a benchmark's pages")
	assert.Empty(t, benchBrowser.jsFlags, "the benchmarks' chromium runs V8 as shipped")
	assert.Same(t, testBrowser, browserFor(t), "a test's pages")

	srv := startServe(t)
	p := openPage(t, srv.URL+"/")
	args, err := chromedp.Run(p.ctx, func(ctx context.Context, tg *chromedp.Target) (cdpbrowser.GetBrowserCommandLineResult, error) {
		return cdp.Call(ctx, tg, cdpbrowser.GetBrowserCommandLine, cdp.Empty{})
	})
	require.NoError(t, err)
	assert.Contains(t, args.Arguments, "--js-flags=--liftoff-only", "the tests' chromium's command line")
	p.waitReady(t)
	p.assertNoConsoleErrors(t)
}
