package humanize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"one", Count(1, "pod"), "1 pod"},
		{"none", Count(0, "pod"), "0 pods"},
		{"many, int32", Count(int32(3), "replica"), "3 replicas"},
		{"many, int64", Count(int64(1234), "row"), "1234 rows"},
		{"the noun alone", Noun(2, "argument"), "arguments"},
		{"the noun alone, one", Noun(1, "argument"), "argument"},
		{"a negative count is plural", Count(-1, "pod"), "-1 pods"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.got)
		})
	}
}

func TestSeconds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    int64
		want string
	}{
		{0, "0s"}, {45, "45s"}, {59, "59s"}, {60, "1m"}, {125, "2m5s"}, {3599, "59m59s"},
		{3600, "1h"}, {3660, "1h1m"}, {3725, "1h2m"}, {86400, "24h"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Seconds(tc.s))
		})
	}
}
