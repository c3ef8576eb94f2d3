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

func shownOf(t *view.Tile) shownTile {
	return shownTile{shape: t.Shape, status: t.Status, restarts: t.Restarts, node: t.Node}
}

func (s *shownTile) same(t *view.Tile) bool {
	return s.shape == t.Shape && s.status == t.Status && s.restarts == t.Restarts && s.node == t.Node
}

// sync makes the grid's tiles those of tiles, in order.
func (g *tileGrid) sync(tiles []view.Tile) {
	var kids js.Value
	at := func(i int) js.Value {
		if g.shown[i].el.IsUndefined() {
			if kids.IsUndefined() {
				kids = g.el.Value.Get("children")
			}
			g.shown[i].el = kids.Index(i)
		}
		return g.shown[i].el
	}
	if !g.sameKeys(tiles) && !g.patch(tiles) {
		g.rebuild(tiles)
		return
	}
	for i := range tiles {
		t := &tiles[i]
		if g.shown[i].same(t) {
			continue
		}
		el := at(i)
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

// patch removes the tiles whose pods went and inserts the new ones, when
// the pods that stay keep their order and some stay; it reports false
// (having changed nothing) otherwise. The tiles that stay are updated by
// sync.
func (g *tileGrid) patch(tiles []view.Tile) bool {
	pos := make(map[string]int, len(tiles))
	for i := range tiles {
		pos[tiles[i].Key] = i
	}
	last, kept := -1, 0
	for _, k := range g.keys {
		if j, ok := pos[k]; ok {
			if j < last {
				return false
			}
			last, kept = j, kept+1
		}
	}
	if kept == 0 {
		return false
	}
	kids := g.el.Value.Get("children")
	// Remove from the end, so that the indexes before stay valid.
	for i := len(g.keys) - 1; i >= 0; i-- {
		if _, ok := pos[g.keys[i]]; ok {
			continue
		}
		el := g.shown[i].el
		if el.IsUndefined() {
			el = kids.Index(i)
		}
		el.Call("remove")
	}
	old := make(map[string]shownTile, kept)
	for i, k := range g.keys {
		if _, ok := pos[k]; ok {
			old[k] = g.shown[i]
		}
	}
	shown := make([]shownTile, len(tiles))
	var b strings.Builder
	for i := 0; i < len(tiles); {
		if s, ok := old[tiles[i].Key]; ok {
			shown[i] = s
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
			shown[i] = shownOf(&tiles[i])
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
	g.setKeys(tiles)
	return true
}

// rebuild draws every tile anew, as one piece of markup, and gives the
// focus back to the tile that had it if its pod is still there.
func (g *tileGrid) rebuild(tiles []view.Tile) {
	focused := ""
	if active := g.el.Value.Get("ownerDocument").Get("activeElement"); active.Truthy() && g.el.Value.Call("contains", active).Bool() {
		i := js.Global().Get("Array").Get("prototype").Get("indexOf").Call("call", g.el.Value.Get("children"), active).Int()
		if i >= 0 && i < len(g.keys) {
			focused = g.keys[i]
		}
	}
	var b strings.Builder
	b.Grow(len(tiles) * 120)
	g.shown = make([]shownTile, len(tiles))
	for i := range tiles {
		view.AppendTileHTML(&b, &tiles[i])
		g.shown[i] = shownOf(&tiles[i])
	}
	g.el.Value.Set("innerHTML", b.String())
	g.setKeys(tiles)
	if focused == "" {
		return
	}
	for i, k := range g.keys {
		if k == focused {
			g.el.Value.Get("children").Index(i).Call("focus")
			return
		}
	}
}

func (g *tileGrid) setKeys(tiles []view.Tile) {
	g.keys = g.keys[:0]
	for i := range tiles {
		g.keys = append(g.keys, tiles[i].Key)
	}
}
