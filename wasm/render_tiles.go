//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"

	"converge/core/view"
)

// tileGrid draws a set of pod tiles into its container, one button per
// pod (view.AppendTileHTML). New tiles go in as markup, one insertion per
// run of consecutive new tiles, rather than five calls into JS per tile
// (docs/performance.md: 10,000 tiles were seconds of one task); a tile
// whose pod stays keeps its element (and so its focus), and one whose pod
// changed gets its class and name set in place. The grid looks a tile's
// element up only when it must change it.
type tileGrid struct {
	el    *node
	keys  []string
	shown []shownTile
}

// shownTile is what a tile's element shows.
type shownTile struct {
	// el is the tile's button once looked up (undefined before).
	el       js.Value
	shape    view.Shape
	status   string
	restarts int32
	node     string
}

func (s *shownTile) same(t *view.Tile) bool {
	return s.shape == t.Shape && s.status == t.Status && s.restarts == t.Restarts && s.node == t.Node
}

// sync makes the grid's tiles those of tiles, in order.
func (g *tileGrid) sync(tiles []view.Tile) {
	if !g.sameKeys(tiles) {
		g.patch(tiles)
	}
	var kids js.Value
	for i := range tiles {
		t := &tiles[i]
		if g.shown[i].same(t) {
			continue
		}
		el := g.shown[i].el
		if el.IsUndefined() {
			if kids.IsUndefined() {
				kids = g.el.Value.Get("children")
			}
			el = kids.Index(i)
		}
		el.Set("className", tileClass(t.Shape))
		el.Call("setAttribute", "aria-label", t.AccessibleName())
		el.Call("setAttribute", "data-status", t.Status)
		g.shown[i] = shownTile{el: el, shape: t.Shape, status: t.Status, restarts: t.Restarts, node: t.Node}
	}
}

func (g *tileGrid) sameKeys(tiles []view.Tile) bool {
	if len(g.keys) != len(tiles) {
		return false
	}
	for i := range tiles {
		if g.keys[i] != tiles[i].Key {
			return false
		}
	}
	return true
}

// patch removes the tiles whose pods went and inserts the new ones as
// markup, one insertion per run of new tiles; sync then updates the tiles
// that stay. The pods keep their order in a column and on a node (by name
// and creation), so the tiles that stay are in order; should they not be,
// or should none stay, every tile is drawn anew (one insertion).
func (g *tileGrid) patch(tiles []view.Tile) {
	pos := make(map[string]int, len(tiles))
	for i := range tiles {
		pos[tiles[i].Key] = i
	}
	// old is where each pod that stays was, in g.shown.
	old := make(map[string]int, len(g.keys))
	last := -1
	for i, k := range g.keys {
		if j, ok := pos[k]; ok {
			if j < last {
				clear(old)
				break
			}
			last, old[k] = j, i
		}
	}
	kids := g.el.Value.Get("children")
	if len(old) == 0 {
		g.el.Value.Set("textContent", "")
	} else {
		// Remove from the end, so that the indexes before stay valid.
		for i := len(g.keys) - 1; i >= 0; i-- {
			if _, ok := old[g.keys[i]]; ok {
				continue
			}
			el := g.shown[i].el
			if el.IsUndefined() {
				el = kids.Index(i)
			}
			el.Call("remove")
		}
	}
	shown := make([]shownTile, len(tiles))
	var b strings.Builder
	for i := 0; i < len(tiles); {
		if o, ok := old[tiles[i].Key]; ok {
			shown[i] = g.shown[o]
			i++
			continue
		}
		start := i
		b.Reset()
		for ; i < len(tiles); i++ {
			if _, ok := old[tiles[i].Key]; ok {
				break
			}
			view.AppendTileHTML(&b, &tiles[i])
			shown[i] = shownTile{shape: tiles[i].Shape, status: tiles[i].Status, restarts: tiles[i].Restarts, node: tiles[i].Node}
		}
		if start == 0 {
			g.el.Value.Call("insertAdjacentHTML", "afterbegin", b.String())
			continue
		}
		prev := shown[start-1].el
		if prev.IsUndefined() {
			prev = kids.Index(start - 1)
		}
		prev.Call("insertAdjacentHTML", "afterend", b.String())
	}
	g.shown = shown
	g.keys = g.keys[:0]
	for i := range tiles {
		g.keys = append(g.keys, tiles[i].Key)
	}
}
