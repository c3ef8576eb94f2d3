package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestShareRoundTrip(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, MaxShareSize)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"a scenario", []byte("name: web\nsteps:\n- {at: 1s, kubectl: get pods}\n")},
		{"64 KiB of text", bytes.Repeat([]byte("abcdefgh"), MaxShareSize/8)},
		{"64 KiB that does not compress", random},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := EncodeShare(tc.in)
			require.NoError(t, err)
			assert.NotContains(t, s, "=")
			assert.NotContains(t, s, "+")
			assert.NotContains(t, s, "/")
			out, err := DecodeShare(s)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(tc.in, out))
		})
	}
}

func TestDecodeShareReadsOtherEncoders(t *testing.T) {
	t.Parallel()
	// Python: base64.urlsafe_b64encode(zlib.compressobj(9, zlib.DEFLATED, -15) ...).rstrip("=")
	out, err := DecodeShare("y0vMTbVSSCvKz9UtqCzJyM_jAgA")
	require.NoError(t, err)
	assert.Equal(t, "name: from-python\n", string(out))
	out, err = DecodeShare(" y0vMTbVSSCvKz9UtqCzJyM_jAgA=\n")
	require.NoError(t, err, "padding and blanks are tolerated")
	assert.Equal(t, "name: from-python\n", string(out))
}

func deflate(t *testing.T, data []byte) string {
	t.Helper()
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func TestShareRefusesLargeAndCorruptLinks(t *testing.T) {
	t.Parallel()
	good, err := EncodeShare([]byte("name: web\n"))
	require.NoError(t, err)
	tests := []struct {
		name     string
		link     string
		sentinel error
		want     string
	}{
		{"inflates beyond 64 KiB", deflate(t, make([]byte, MaxShareSize+1)), ErrShareTooLarge,
			"share link is too large: the scenario inflates beyond 64 KiB"},
		{"a deflate bomb", deflate(t, make([]byte, 50<<20)), ErrShareTooLarge,
			"share link is too large: the scenario inflates beyond 64 KiB"},
		{"a link that is too long to be valid", strings.Repeat("A", maxShareLink+1), ErrShareTooLarge,
			"share link is too large: the scenario inflates beyond 64 KiB"},
		{"not base64url", "abc$", ErrShareCorrupt, "share link is corrupt: illegal base64 data at input byte 3"},
		{"standard base64", "ab+/", ErrShareCorrupt, "share link is corrupt: illegal base64 data at input byte 2"},
		{"empty", "", ErrShareCorrupt, "share link is corrupt: the data ends too early"},
		{"truncated", good[:len(good)-4], ErrShareCorrupt, "share link is corrupt: the data ends too early"},
		{"not deflate", base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xff, 0xff}), ErrShareCorrupt,
			"share link is corrupt: flate: corrupt input before offset 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, err := DecodeShare(tc.link)
			assert.Nil(t, out)
			assert.True(t, errors.Is(err, tc.sentinel), "%v", err)
			assert.EqualError(t, err, tc.want)
		})
	}
	_, err = EncodeShare(make([]byte, MaxShareSize+1))
	assert.ErrorIs(t, err, ErrShareTooLarge)
}
