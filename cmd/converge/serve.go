package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"time"

	"converge/web"
)

// defaultAddr is where `converge serve` listens unless told otherwise:
// loopback only, since the page is for the person at this machine.
const defaultAddr = "127.0.0.1:8080"

// shutdownGrace is how long a stopping server waits for requests in flight.
const shutdownGrace = 5 * time.Second

var serveCommand = &command{
	name:    "serve",
	args:    "[--addr ADDR] [--public-url URL]",
	summary: "serve the web page (the wasm and assets are embedded in the binary)",
	help: `Serves Converge's page and prints the address to open in a browser.
Everything the page needs is inside this binary; nothing is read from disk.
Ctrl+C (SIGINT) or SIGTERM stops the server after the requests in flight.
--public-url is the address readers reach it (or a copy of export-site) by,
which the Embed button's snippets then use instead of this machine's.`,
	flags: func(fs *flag.FlagSet) runFunc {
		addr := fs.String("addr", defaultAddr, "`ADDR` to listen on, host:port; port 0 picks a free port")
		public := fs.String("public-url", "", "the `URL` the Embed button's snippets use (where readers reach the page)")
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) > 0 {
				return usageErrorf("unexpected argument %q", args[0])
			}
			fsys, err := withPublicURL(web.FS, "--public-url", *public)
			if err != nil {
				return err
			}
			return serveFS(ctx, e, fsys, *addr)
		}
	},
}

// serveFS is serve of fsys: the embedded page, with its public URL.
func serveFS(ctx context.Context, e *env, fsys fs.FS, addr string) error {
	root := "index.html"
	if !web.Built() {
		root = web.PlaceholderPath
		fmt.Fprintln(e.stderr, "converge serve: warning: this binary has no WebAssembly build; run make build (the page says so too)")
	}
	s, err := newSite(fsys, root)
	if err != nil {
		return err
	}
	s.addHashedNames(web.WasmPath)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return badInput(err)
	}
	srv := newServer(withPosters(s), e, defaultLimits)
	if w := bindWarning(addr, ln.Addr()); w != "" {
		fmt.Fprintln(e.stderr, w)
	}
	fmt.Fprintf(e.stdout, "Converge is serving on %s\n", siteURL(ln.Addr()))
	fmt.Fprintln(e.stdout, "Press Ctrl+C to stop.")

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err // Serve only returns early when the listener fails
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("stopping: %w", err)
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	fmt.Fprintln(e.stdout, "Converge stopped.")
	return nil
}

// siteURL is the address to open for a listener: its real port (port 0
// picks one), and localhost when it listens on every interface.
func siteURL(addr net.Addr) string {
	host, port := "localhost", ""
	if ta, ok := addr.(*net.TCPAddr); ok {
		port = strconv.Itoa(ta.Port)
		if !ta.IP.IsUnspecified() {
			host = ta.IP.String()
		}
	} else if h, p, err := net.SplitHostPort(addr.String()); err == nil {
		host, port = h, p
	}
	return "http://" + net.JoinHostPort(host, port)
}

// recoverHandler turns a panic in h into a 500 and one line on stderr,
// instead of net/http's logged stack trace.
func recoverHandler(h http.Handler, e *env) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				fmt.Fprintf(e.stderr, "converge serve: internal error serving %s: %s\n", r.URL.Path, oneLine(fmt.Sprint(v)))
				http.Error(w, "500 internal server error", http.StatusInternalServerError)
			}
		}()
		h.ServeHTTP(w, r)
	})
}
