package main

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"

	"converge/core/view"
)

// withPublicURL is fsys with the app's page (index.html) carrying
// <meta name="converge-public-url" content="URL">: the address the Embed
// button's snippets use instead of the page's own (view.EmbedAddress;
// docs/embedding.md#the-embed-button). An empty publicURL leaves fsys as it
// is; a bad one is a usage error that says why.
func withPublicURL(fsys fs.FS, flag, publicURL string) (fs.FS, error) {
	if publicURL == "" {
		return fsys, nil
	}
	u, err := view.ParsePublicURL(publicURL)
	if err != nil {
		return nil, usageErrorf("%s %v", flag, err)
	}
	page, err := fs.ReadFile(fsys, "index.html")
	if err != nil {
		return nil, fmt.Errorf("reading the page assets: %w", err)
	}
	const anchor = `<meta charset="utf-8">`
	i := bytes.Index(page, []byte(anchor))
	if i < 0 {
		return nil, fmt.Errorf("index.html has no %s to put the public URL after", anchor)
	}
	i += len(anchor)
	meta := "\n" + `<meta name="` + view.PublicURLMeta + `" content="` + html.EscapeString(u) + `">`
	out := append(append(append([]byte{}, page[:i]...), meta...), page[i:]...)
	return overlayFS{FS: fsys, files: map[string][]byte{"index.html": out}}, nil
}

// overlayFS is an fs.FS whose files of the given names read as the given
// bytes (through fs.ReadFile); the rest, and listings, are the FS's.
type overlayFS struct {
	fs.FS
	files map[string][]byte
}

// ReadFile implements fs.ReadFileFS.
func (o overlayFS) ReadFile(name string) ([]byte, error) {
	if data, ok := o.files[name]; ok {
		return append([]byte(nil), data...), nil
	}
	return fs.ReadFile(o.FS, name)
}
