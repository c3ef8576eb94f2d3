package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// Rows of apimachinery's pkg/util/duration tests, plus the boundaries of
// each branch.
func TestHumanDuration(t *testing.T) {
	t.Parallel()
	tests := []struct {
		d    time.Duration
		want string
	}{
		{-2 * time.Second, "<invalid>"},
		{-time.Second, "0s"},
		{0, "0s"},
		{time.Second, "1s"},
		{70 * time.Second, "70s"},
		{119 * time.Second, "119s"},
		{2 * time.Minute, "2m"},
		{2*time.Minute + 5*time.Second, "2m5s"},
		{9*time.Minute + 59*time.Second, "9m59s"},
		{10 * time.Minute, "10m"},
		{179 * time.Minute, "179m"},
		{3 * time.Hour, "3h"},
		{3*time.Hour + 5*time.Minute, "3h5m"},
		{7*time.Hour + 59*time.Minute, "7h59m"},
		{8 * time.Hour, "8h"},
		{47*time.Hour + 59*time.Minute, "47h"},
		{48 * time.Hour, "2d"},
		{60 * time.Hour, "2d12h"},
		{7*24*time.Hour + 23*time.Hour, "7d23h"},
		{8 * 24 * time.Hour, "8d"},
		{729 * 24 * time.Hour, "729d"},
		{2 * 365 * 24 * time.Hour, "2y"},
		{(2*365 + 3) * 24 * time.Hour, "2y3d"},
		{8 * 365 * 24 * time.Hour, "8y"},
	}
	for _, tc := range tests {
		t.Run(tc.d.String(), func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, HumanDuration(tc.d))
		})
	}
}
