package main

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"path"
	"sort"
	"strings"
)

// Content-hashed names (docs/embedding.md#caching). The page's modules,
// its stylesheet and the wasm are served, and exported, a second time
// under v/HASH/, where HASH is the hash of all of them together: a
// browser may keep those for good (Cache-Control: immutable), so that a
// repeat visit fetches nothing and reuses the wasm's compiled code. They
// are hashed together, not one by one, because they are one version:
// converge.js, wasm_exec.js and the wasm must match. The names without a
// hash stay (a docs page that loads .../converge.js keeps working), and
// are revalidated on every visit; converge.js among them is a two-line
// module that re-exports v/HASH/converge.js, so that every page, old
// snippets included, loads the hashed copies.

// hashedRoot is the folder of the content-hashed copies.
const hashedRoot = "v/"

// immutableCaching is the Cache-Control of the content-hashed copies: a
// year, never revalidated.
const immutableCaching = "public, max-age=31536000, immutable"

// hashedName reports whether name has a content-hashed copy: every asset
// but the HTML pages (their addresses are what people link to), the
// precompressed siblings (they go with their file) and the export's
// host files.
func hashedName(name string) bool {
	switch ext := path.Ext(name); {
	case ext == ".html", ext == ".br", ext == ".gz", name == "_headers", name == "README.md",
		strings.HasPrefix(name, hashedRoot), strings.HasPrefix(path.Base(name), "."):
		return false
	}
	return true
}

// bundleHash is the content hash of the files that hashedName keeps, read
// by read: 12 hex digits of the SHA-256 of their names and bytes, in name
// order.
func bundleHash(names []string, read func(name string) []byte) string {
	kept := make([]string, 0, len(names))
	for _, n := range names {
		if hashedName(n) {
			kept = append(kept, n)
		}
	}
	sort.Strings(kept)
	h := sha256.New()
	var n [8]byte
	for _, name := range kept {
		data := read(name)
		binary.BigEndian.PutUint64(n[:], uint64(len(name)))
		h.Write(n[:])
		h.Write([]byte(name))
		binary.BigEndian.PutUint64(n[:], uint64(len(data)))
		h.Write(n[:])
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

// hashedDir is the folder of the copies of the bundle whose hash is hash.
func hashedDir(hash string) string { return hashedRoot + hash + "/" }

// entryModule is what converge.js is at the root once the bundle has
// content-hashed copies: it re-exports the hashed converge.js, which
// finds its imports and the wasm next to itself.
func entryModule(hash string) []byte {
	return []byte(`// converge.js of this build: the modules and the wasm are under ` + hashedDir(hash) + `,
// names that change with their content, cached for good (docs/embedding.md#caching).
export * from "./` + hashedDir(hash) + `converge.js";
`)
}
