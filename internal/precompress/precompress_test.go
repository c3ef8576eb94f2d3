package precompress

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCompressedFilesDecompressToTheInput(t *testing.T) {
	t.Parallel()
	in := bytes.Repeat([]byte("\x00asm converge wasm bytes "), 5000)
	gz := Gzip(in)
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	require.NoError(t, err)
	out, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, in, out)
	assert.Empty(t, zr.Name, "no name in the header")
	assert.True(t, zr.ModTime.IsZero(), "no time in the header")
	assert.Equal(t, gz, Gzip(in), "deterministic")

	for _, q := range []int{0, FastBrotli, BestBrotli} {
		br, err := Brotli(in, q)
		require.NoError(t, err)
		out, err := io.ReadAll(brotli.NewReader(bytes.NewReader(br)))
		require.NoError(t, err)
		assert.Equal(t, in, out, "quality %d", q)
		again, _ := Brotli(in, q)
		assert.Equal(t, br, again, "deterministic at quality %d", q)
	}
	_, err = Brotli(in, 12)
	assert.ErrorContains(t, err, "out of range")
}
