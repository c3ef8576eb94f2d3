package main

import (
	"fmt"
	"log"
	"net"
	"net/http"
	"strconv"
	"time"
)

// serverLimits bound what one connection to `converge serve` may hold
// (docs/limits.md lists them): a page of a few megabytes for the person at
// this machine needs little, and a client that opens connections and
// sends nothing, or idles between requests, must not pile them up (3,000
// idle connections were held without them).
type serverLimits struct {
	// readHeader bounds the wait for a request's headers, read its whole
	// request, write its answer (from the end of the headers), idle a
	// kept-alive connection between requests.
	readHeader, read, write, idle time.Duration
	// maxHeader bounds a request's headers (its request line included), in
	// bytes: what a request may send, net/http's own 4 KiB of slack
	// (bufio's, which http.Server adds to MaxHeaderBytes) included.
	maxHeader int
}

// defaultLimits are serve's. The write limit is the longest: the wasm is
// 5.5 MB (1.4 MB gzipped), which takes two minutes at about 50 KB/s.
var defaultLimits = serverLimits{
	readHeader: 10 * time.Second,
	read:       30 * time.Second,
	write:      2 * time.Minute,
	idle:       30 * time.Second,
	maxHeader:  16 << 10,
}

// newServer is the HTTP server of serve: h behind recoverHandler, with the
// limits l and errors logged on e's stderr.
func newServer(h http.Handler, e *env, l serverLimits) *http.Server {
	return &http.Server{
		Handler:           recoverHandler(h, e),
		ReadHeaderTimeout: l.readHeader,
		ReadTimeout:       l.read,
		WriteTimeout:      l.write,
		IdleTimeout:       l.idle,
		MaxHeaderBytes:    l.maxHeader - headerSlack,
		ErrorLog:          log.New(e.stderr, "converge serve: ", 0),
	}
}

// headerSlack is what net/http reads beyond MaxHeaderBytes before it
// refuses headers (http.Server's initialReadLimitSize adds 4096 bytes of
// bufio slop), so that maxHeader is what a request may really send.
const headerSlack = 4 << 10

// bindWarning is the warning for a listener that other machines can reach
// (every interface, 0.0.0.0 or ::, or an address that is not loopback),
// or "". addr is the address as given (--addr), named with the port the
// listener got.
func bindWarning(addr string, ln net.Addr) string {
	ta, ok := ln.(*net.TCPAddr)
	if !ok || ta.IP.IsLoopback() {
		return ""
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		host = ta.IP.String()
	}
	where := net.JoinHostPort(host, strconv.Itoa(ta.Port))
	if ta.IP.IsUnspecified() {
		where += " (every interface)"
	}
	return fmt.Sprintf("converge serve: warning: listening on %s: other machines can open the page; the default, 127.0.0.1, keeps it to this one", where)
}
