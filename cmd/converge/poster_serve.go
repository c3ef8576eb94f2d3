package main

import (
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"

	"converge/core/poster"
)

// posterCacheSize bounds the posters `converge serve` keeps drawn.
const posterCacheSize = 256

// posterSite serves posters/NAME.svg and posters/NAME-Ts.svg (poster.Path)
// of every built-in scenario at any second, drawn on demand (one at a
// time, the last posterCacheSize kept), and everything else from next:
// the element asks for its poster next to converge.js (docs/embedding.md,
// "Posters"). export-site writes the posters at 0s as files.
type posterSite struct {
	next http.Handler
	mu   sync.Mutex // one drawing at a time; guards drawn and order
	// drawn are the posters drawn, by path, oldest first in order.
	drawn map[string][]byte
	order []string
}

func withPosters(next http.Handler) *posterSite {
	return &posterSite{next: next, drawn: map[string][]byte{}}
}

func (p *posterSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	scn, t, ok := poster.ParsePath(name)
	if !ok || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		p.next.ServeHTTP(w, r)
		return
	}
	svg, err := p.draw(name, scn, t)
	h := w.Header()
	for _, kv := range corsHeaders {
		h.Set(kv[0], kv[1])
	}
	if err != nil {
		http.Error(w, "404 "+err.Error(), http.StatusNotFound)
		return
	}
	h.Set("Content-Type", contentType(name))
	h.Set("Content-Length", strconv.Itoa(len(svg)))
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method == http.MethodGet {
		_, _ = w.Write(svg)
	}
}

// draw returns the poster of the built-in scenario at second t, drawn once.
func (p *posterSite) draw(key, scn string, t int64) ([]byte, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if svg, ok := p.drawn[key]; ok {
		return svg, nil
	}
	svg, err := poster.Builtin(scn, t)
	if err != nil {
		return nil, err
	}
	if len(p.order) >= posterCacheSize {
		delete(p.drawn, p.order[0])
		p.order = p.order[1:]
	}
	p.drawn[key] = svg
	p.order = append(p.order, key)
	return svg, nil
}

// posterFiles are the posters export-site writes: every built-in
// scenario without variants at 0s, which an element without a t shows.
func posterFiles() ([]bundleFile, error) {
	var out []bundleFile
	for _, name := range poster.Builtins() {
		svg, err := poster.Builtin(name, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, bundleFile{name: poster.Path(name, 0), data: svg})
	}
	return out, nil
}
