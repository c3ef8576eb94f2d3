package main

// The browser-test harness: the real `converge serve` (bin/converge, built by
// make build with the wasm embedded) and one headless chromium per test
// binary, with a fresh browser context (its own storage) per page.
//
//	srv := startServe(t)                    // bin/converge serve on a free port
//	p := openPage(t, srv.URL+"/")           // a new tab, console recorded
//	p.waitReady(t)                          // await converge.ready
//	v := evalJS[string](t, p, "converge.version")
//	p.screenshot(t, "boot")                 // PNG in t.TempDir() and $CONVERGE_SCREENSHOTS
//	p.assertNoConsoleErrors(t)
//
// The helpers take testing.TB, so that benchmarks (BenchmarkBrowser*) use
// them too.
//
// Browser tests call t.Parallel(): each has its own tab in its own browser
// context (its own storage), most their own `converge serve`, and none
// asserts a duration (how soon is the benchmarks' question), so they run
// side by side in tabs of the one chromium, as many at a time as go test's
// -parallel (make test-browser sets it). A test that shares one page
// between steps keeps them in order; tests of several independent pages
// run each page as a parallel subtest. Benchmarks run alone, after the
// tests. Keep Evaluate calls few (each is a round trip of about a
// millisecond); do the work in the page and return one value.
//
// Without chromium or without the build outputs, the tests skip, except
// when CI is set: there they fail, so that CI never passes by skipping.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Timeouts of the harness. They only bound a hang; a healthy run takes a
// fraction of each. pageTimeout bounds one call into the page: the longest
// (axe on every tab, a seek of every scenario) take a few seconds on an
// idle machine and over 30 on a busy one, more with tests side by side,
// where a tighter bound made healthy runs fail. converge serve starts and
// stops in a fraction of a second, but took over 10 s to print its address
// under a load average of 60.
const (
	serveStartTimeout = time.Minute
	serveStopTimeout  = time.Minute
	pageTimeout       = 4 * time.Minute
)

// binaryPath is bin/converge of the repository, relative to this package.
var binaryPath = filepath.Join("..", "..", "bin", "converge")

func TestMain(m *testing.M) {
	code := m.Run()
	testBrowser.close()
	benchBrowser.close()
	sharedSite.remove()
	os.Exit(code)
}

// unavailable stops a test whose prerequisites are missing: a skip on a
// developer's machine, a failure when CI is set.
func unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("CI") != "" {
		t.Fatalf("%s (CI is set, so browser tests must run)", msg)
	}
	t.Skipf("%s; skipping (set CI=true to make this a failure)", msg)
}

// served is a running `converge serve`.
type served struct {
	// URL is the address it printed, e.g. http://127.0.0.1:41234.
	URL string
	cmd *exec.Cmd
	// output collects what it printed after the first line, and its stderr.
	output *lockedBuffer
	done   chan error
}

// startServe starts bin/converge serve on a free loopback port (with the
// flags extra) and stops it with SIGINT when the test ends, checking that
// it exits 0.
func startServe(t testing.TB, extra ...string) *served {
	t.Helper()
	bin, err := filepath.Abs(binaryPath)
	require.NoError(t, err)
	// Stat, not only exec: go test's cache then knows the test depends on it.
	if _, err := os.Stat(bin); err != nil {
		unavailable(t, "%s is missing: run make build", bin)
	}
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0"}, extra...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	s := &served{cmd: cmd, output: &lockedBuffer{}, done: make(chan error, 1)}
	cmd.Stderr = s.output
	require.NoError(t, cmd.Start())
	// One goroutine reads stdout: the first line is the address, the rest
	// goes to output (and keeps the pipe drained, so the server never blocks).
	urlc := make(chan string, 1)
	go func() {
		urlc <- readServeURL(stdout, s.output)
		_, _ = io.Copy(s.output, stdout)
	}()
	select {
	case u := <-urlc:
		s.URL = u
	case <-time.After(serveStartTimeout):
		_ = cmd.Process.Kill()
		t.Fatalf("converge serve printed no address within %v; output: %s", serveStartTimeout, s.output)
	}
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() { s.stop(t) })
	if s.URL == "" {
		t.Fatalf("converge serve did not print its address; output: %s", s.output)
	}
	resp, err := http.Get(s.URL + "/dist/converge.wasm")
	require.NoError(t, err)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		unavailable(t, "%s has no wasm (GET /dist/converge.wasm: %s): run make build", bin, resp.Status)
	}
	return s
}

func readServeURL(r io.Reader, echo io.Writer) string {
	line, err := readLine(r)
	if err != nil {
		fmt.Fprintf(echo, "[harness: reading the first line: %v]", err)
		return ""
	}
	u, ok := strings.CutPrefix(line, "Converge is serving on ")
	if !ok {
		fmt.Fprintf(echo, "[harness: unexpected first line %q]", line)
		return ""
	}
	return u
}

// readLine reads one line from r a byte at a time, so that nothing after it
// is consumed (a bufio.Reader would buffer past it).
func readLine(r io.Reader) (string, error) {
	var sb strings.Builder
	buf := make([]byte, 1)
	for {
		if _, err := io.ReadFull(r, buf); err != nil {
			return sb.String(), err
		}
		if buf[0] == '\n' {
			return sb.String(), nil
		}
		sb.WriteByte(buf[0])
	}
}

// stop sends SIGINT and checks that the server stops cleanly.
func (s *served) stop(t testing.TB) {
	t.Helper()
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Errorf("signalling converge serve: %v", err)
		return
	}
	select {
	case err := <-s.done:
		assert.NoError(t, err, "converge serve exit after SIGINT; output: %s", s.output)
	case <-time.After(serveStopTimeout):
		_ = s.cmd.Process.Kill()
		t.Errorf("converge serve did not stop within %v of SIGINT; output: %s", serveStopTimeout, s.output)
	}
}

// browser is one headless chromium shared by the tests (or the benchmarks)
// of this binary.
type browser struct {
	once    sync.Once
	ctx     context.Context // the first tab's context; new tabs derive from it
	cancel  []context.CancelFunc
	err     error
	dataDir string
	// jsFlags are V8's flags for this chromium ("" for none).
	jsFlags string
}

// The tests and the benchmarks each have their own chromium. The tests'
// runs V8 with --liftoff-only: most of a page load's CPU is V8 compiling
// the 14 MB wasm twice, once with its baseline compiler (Liftoff) and then
// again, for the functions that get hot, with its optimising one (TurboFan)
// on worker threads. The tests assert what the page does, never how soon,
// so the optimised code buys them nothing; without it the browser package
// took 338 s instead of 477 s on an idle 2-core machine
// (docs/performance.md, "The browser tests' CPU"). The benchmarks measure
// what users get, so their chromium runs V8 as shipped.
var (
	testBrowser  = &browser{jsFlags: "--liftoff-only"}
	benchBrowser = &browser{}
)

// browserFor is the chromium that t's pages open in: the benchmarks' for a
// benchmark, else the tests'.
func browserFor(t testing.TB) *browser {
	if _, ok := t.(*testing.B); ok {
		return benchBrowser
	}
	return testBrowser
}

// chromiumPath finds the browser: $CHROMIUM if set, else the usual names.
func chromiumPath() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on PATH (apt-get install chromium, or set CHROMIUM)")
}

// start launches chromium once; later calls return the first result.
func (b *browser) start() error {
	b.once.Do(func() {
		path, err := chromiumPath()
		if err != nil {
			b.err = err
			return
		}
		b.dataDir, err = os.MkdirTemp("", "converge-chromium-")
		if err != nil {
			b.err = err
			return
		}
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			// Without these, chromium stalls on a machine with no network.
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.UserDataDir(b.dataDir),
			chromedp.WindowSize(1280, 800),
		)
		if b.jsFlags != "" {
			opts = append(opts, chromedp.Flag("js-flags", b.jsFlags))
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		b.cancel = []context.CancelFunc{cancelCtx, cancelAlloc}
		// Start the browser with a context that has no timeout: the first
		// Run binds the browser's life to its context.
		if err := chromedp.Do(ctx); err != nil {
			b.err = fmt.Errorf("starting %s: %w", path, err)
			return
		}
		b.ctx = ctx
	})
	return b.err
}

func (b *browser) close() {
	for _, cancel := range b.cancel {
		cancel()
	}
	if b.dataDir != "" {
		_ = os.RemoveAll(b.dataDir)
	}
}

// page is one tab of the shared browser, in its own browser context.
type page struct {
	ctx context.Context
	mu  sync.Mutex
	// console holds what the page wrote to its console, in order.
	console []chromedp.ConsoleMessage
	// seen is signalled on every console message.
	seen chan struct{}
}

// openPage opens url in a new tab with fresh storage and records its console.
// The tab closes when the test ends.
func openPage(t testing.TB, url string) *page {
	t.Helper()
	return openPageWith(t, url)
}

// openPageWith is openPage that first has the tab run scripts in every
// document it loads, before the page's own scripts (to stub a browser API,
// say); "" runs nothing.
func openPageWith(t testing.TB, url string, scripts ...string) *page {
	t.Helper()
	var setup []chromedp.Action[chromedp.Void]
	for _, script := range scripts {
		if script == "" {
			continue
		}
		setup = append(setup, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument,
				cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script})
			return err
		}))
	}
	return openPageSetup(t, url, setup...)
}

// openPageSetup is openPage that first runs setup in the new tab, before
// the navigation (to add a script to every document, or to bypass the
// page's CSP, say).
func openPageSetup(t testing.TB, url string, setup ...chromedp.Action[chromedp.Void]) *page {
	t.Helper()
	b := browserFor(t)
	if err := b.start(); err != nil {
		unavailable(t, "chromium cannot start: %v", err)
	}
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := &page{ctx: ctx, seen: make(chan struct{}, 1)}
	messages := chromedp.Console(ctx) // subscribes now, before the navigation
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.console = append(p.console, m)
			p.mu.Unlock()
			select {
			case p.seen <- struct{}{}:
			default:
			}
		}
	}()
	tctx, tcancel := context.WithTimeout(ctx, pageTimeout)
	defer tcancel()
	if len(setup) > 0 {
		require.NoError(t, chromedp.Do(tctx, setup...), "setting up the tab for %s", url)
	}
	require.NoError(t, chromedp.Do(tctx, chromedp.Navigate(url)), "navigating to %s", url)
	return p
}

// reload reloads the page (its storage stays) and waits for converge.ready.
func (p *page) reload(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	require.NoError(t, chromedp.Do(ctx, chromedp.Reload()))
	p.waitReady(t)
}

// evalJS evaluates expr in the page, awaiting it if it is a Promise, and
// decodes the result as T. A thrown error fails the test with the page's
// console attached.
func evalJS[T any](t testing.TB, p *page, expr string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	require.NoError(t, err, "evaluating %s\nconsole:\n%s", expr, p.consoleText())
	return v
}

// waitReady waits for converge.ready and returns how long it took, measured
// by the page from the start of the navigation.
func (p *page) waitReady(t testing.TB) time.Duration {
	t.Helper()
	ms := evalJS[float64](t, p, `converge.ready.then(() => performance.now())`)
	return time.Duration(ms * float64(time.Millisecond))
}

// screenshot saves a full-page PNG as NAME.png in the test's temp dir and,
// when CONVERGE_SCREENSHOTS=DIR is set, in DIR as TEST-NAME.png too. It
// returns the temp-dir path.
func (p *page) screenshot(t testing.TB, name string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err, "screenshot %s", name)
	file := filepath.Join(t.TempDir(), name+".png")
	require.NoError(t, os.WriteFile(file, png, 0o644))
	if dir := os.Getenv("CONVERGE_SCREENSHOTS"); dir != "" {
		require.NoError(t, os.MkdirAll(dir, 0o755))
		base := strings.NewReplacer("/", "-", " ", "_").Replace(t.Name()) + "-" + name + ".png"
		require.NoError(t, os.WriteFile(filepath.Join(dir, base), png, 0o644))
	}
	return file
}

// assertNoConsoleErrors checks that the page logged no error, warning or
// uncaught exception so far.
func (p *page) assertNoConsoleErrors(t testing.TB) {
	t.Helper()
	assert.Empty(t, p.consoleErrors(t), "console errors and warnings")
}

// consoleErrors returns the errors, warnings and uncaught exceptions that the
// page logged so far, as "TYPE: TEXT (URL:LINE)". It first round-trips a
// marker through the console, so that every message written before the call
// has been recorded.
func (p *page) consoleErrors(t testing.TB) []string {
	t.Helper()
	p.sync(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	var bad []string
	for _, m := range p.console {
		switch m.Type {
		case chromedp.ConsoleError, chromedp.ConsoleWarning, chromedp.ConsoleException:
			bad = append(bad, fmt.Sprintf("%s (%s:%d)", m, m.URL, m.Line+1))
		}
	}
	return bad
}

const syncMarker = "converge-harness-sync"

// sync logs a marker in the page and waits until the recorder has seen it.
func (p *page) sync(t testing.TB) {
	t.Helper()
	_ = evalJS[chromedp.Void](t, p, `console.debug("`+syncMarker+`")`)
	deadline := time.After(pageTimeout)
	for {
		p.mu.Lock()
		for _, m := range p.console {
			if m.Text == syncMarker {
				p.mu.Unlock()
				return
			}
		}
		p.mu.Unlock()
		select {
		case <-p.seen:
		case <-deadline:
			t.Fatalf("the console marker never arrived")
		}
	}
}

// consoleText is the console so far, one message a line, for failure reports.
func (p *page) consoleText() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var sb strings.Builder
	for _, m := range p.console {
		fmt.Fprintf(&sb, "  %s\n", m)
	}
	return sb.String()
}

// lockedBuffer is a strings.Builder safe for concurrent writers.
type lockedBuffer struct {
	mu sync.Mutex
	sb strings.Builder
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.sb.String()
}
