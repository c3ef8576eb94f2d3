package kubelet

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// sum256 is crypto/sha256's digest: the FIPS 180-4 examples, every length
// around the padding's block boundaries, and the ids the kubelet makes.
func TestSum256IsSHA256(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
	}{
		{name: "empty", in: ""},
		{name: "FIPS 180-4 one block", in: "abc"},
		{name: "FIPS 180-4 two blocks", in: "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"},
		{name: "an image id's input", in: "image/docker.io/library/nginx:1.27"},
		{name: "a container id's input", in: "uid-0001/web/0"},
		{name: "a million a", in: strings.Repeat("a", 1_000_000)},
	}
	for n := range 200 {
		tests = append(tests, struct{ name, in string }{name: fmt.Sprintf("length %d", n), in: strings.Repeat("x", n)})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, sha256.Sum256([]byte(tc.in)), sum256([]byte(tc.in)))
		})
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte("abc"))
	f.Add(make([]byte, 55))
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := sum256(data), sha256.Sum256(data); got != want {
			t.Fatalf("sum256(%q) = %x, want %x", data, got, want)
		}
	})
}
