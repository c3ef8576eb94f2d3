package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// With -cache, each distinct wasm is compressed once: a second build of the
// same bytes copies the cached .br (here a seeded one proves it is read),
// and .brotli-quality says the quality of the .br beside the wasm.
func TestBrotliCache(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in, out, cache := filepath.Join(dir, "in.wasm"), filepath.Join(dir, "dist", "converge.wasm"), filepath.Join(dir, "cache")
	require.NoError(t, os.MkdirAll(filepath.Dir(out), 0o755))
	// Not a module wasmfile knows: it is written as it is (with a warning).
	data := []byte("\x00asm\x01\x00\x00\x00")
	require.NoError(t, os.WriteFile(in, data, 0o644))

	require.NoError(t, run([]string{"-brotli", "1", "-cache", cache, in, out}))
	first, err := os.ReadFile(out + ".br")
	require.NoError(t, err)
	quality, err := os.ReadFile(filepath.Join(dir, "dist", ".brotli-quality"))
	require.NoError(t, err)
	assert.Equal(t, "1\n", string(quality))
	sum := sha256.Sum256(data)
	cached := filepath.Join(cache, hex.EncodeToString(sum[:])+"-q1.br")
	got, err := os.ReadFile(cached)
	require.NoError(t, err, "the cache keeps the .br by the wasm's hash and quality")
	assert.Equal(t, first, got)

	tests := []struct {
		name    string
		quality string
		seed    bool
		want    string
	}{
		{name: "the same wasm and quality read the cache", quality: "1", seed: true, want: "seeded"},
		{name: "another quality compresses again", quality: "2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.seed {
				require.NoError(t, os.WriteFile(cached, []byte("seeded"), 0o644))
			}
			require.NoError(t, os.Remove(out+".br"))
			require.NoError(t, run([]string{"-brotli", tc.quality, "-cache", cache, in, out}))
			br, err := os.ReadFile(out + ".br")
			require.NoError(t, err)
			if tc.want != "" {
				assert.Equal(t, tc.want, string(br))
			} else {
				assert.NotEqual(t, "seeded", string(br))
			}
			q, err := os.ReadFile(filepath.Join(dir, "dist", ".brotli-quality"))
			require.NoError(t, err)
			assert.Equal(t, tc.quality+"\n", string(q))
		})
	}
}
