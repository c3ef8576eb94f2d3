// Package precompress compresses the page's WebAssembly once, ahead of time,
// for servers and static hosts that send it with a Content-Encoding: gzip for
// every browser, brotli (br) for the ones that accept it (docs/embedding.md,
// "Compression"). `make build` runs it through tools/precompress, `converge
// export-site` itself, and tools/wasmsize measures with it.
//
// Both encodings are deterministic: the same input gives the same bytes
// (the gzip header carries no name and no time).
//
// Brotli's quality trades time for size. On the 12 MB wasm, measured with
// this package (andybalholm/brotli v1.3.0, one core of a shared 2-core
// machine):
//
//	quality  window  output     time
//	6        22      2.41 MB    0.6 s
//	9        22      2.34 MB    1.6 s
//	10       24      2.12 MB    18 s
//	11       24      2.05 MB    34 s
//
// so `make build` uses a fast quality for `converge serve` and export-site
// the best one, for the bundle that is put on a host.
package precompress

import (
	"bytes"
	"compress/gzip"
	"fmt"

	"github.com/andybalholm/brotli"
)

// BestBrotli is the quality export-site uses; FastBrotli is `make build`'s.
const (
	BestBrotli = 11
	FastBrotli = 6
)

// window is brotli's window (log2 bytes): the largest a browser accepts
// (RFC 7932 allows up to 24 without the large-window extension). A wasm of
// several megabytes repeats itself across more than the default 4 MiB.
const window = 24

// Gzip is data compressed with gzip at its best level.
func Gzip(data []byte) []byte {
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		panic(err) // only for a bad level
	}
	// Writes to a bytes.Buffer cannot fail.
	_, _ = zw.Write(data)
	_ = zw.Close()
	return buf.Bytes()
}

// Brotli is data compressed with brotli at quality (0 to 11).
func Brotli(data []byte, quality int) ([]byte, error) {
	if quality < brotli.BestSpeed || quality > brotli.BestCompression {
		return nil, fmt.Errorf("brotli quality %d is out of range: it is 0 to 11", quality)
	}
	var buf bytes.Buffer
	zw := brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: quality, LGWin: window})
	_, _ = zw.Write(data)
	_ = zw.Close()
	return buf.Bytes(), nil
}
