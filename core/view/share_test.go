package view

import (
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest/simrun"
)

func TestOriginBuiltinAndThePicker(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "basic-loop"))
	o := Origin{Name: "basic-loop", LoadedSteps: len(s.Scenario().Steps)}
	assert.Equal(t, "basic-loop", o.Builtin(s.Scenario()))
	assert.Equal(t, Picker{Value: "basic-loop"}, PickerOf(o, s.Scenario()))

	s.SeekTo(30)
	r := s.Run("scale deployment/web --replicas=4")
	require.True(t, r.OK, r.Error)
	assert.Equal(t, "", o.Builtin(s.Scenario()), "a console step makes it the user's own")
	assert.Equal(t, Picker{OwnTitle: "basic-loop, with 1 step added from the console"}, PickerOf(o, s.Scenario()))

	r = s.Run("get pods")
	require.True(t, r.OK)
	assert.Equal(t, Picker{OwnTitle: "basic-loop, with 1 step added from the console"}, PickerOf(o, s.Scenario()), "a read is no step")

	own := Origin{}
	assert.Equal(t, Picker{OwnTitle: "edited, opened from a link, from My scenarios or imported"}, PickerOf(own, s.Scenario()))
	assert.Equal(t, "", own.Builtin(nil))
}

func TestLinkURL(t *testing.T) {
	t.Parallel()
	yaml := []byte("name: mine\nduration: 90s\n")
	share, err := scenario.EncodeShare(yaml)
	require.NoError(t, err)
	tests := []struct {
		name string
		link Link
		base string
		want string
	}{
		{"a built-in at the start", Link{Builtin: "rolling-update", YAML: yaml}, "https://x.example/c/", "https://x.example/c/?scenario=rolling-update"},
		{"a built-in at 30s", Link{Builtin: "rolling-update", YAML: yaml, T: 30}, "https://x.example/c/", "https://x.example/c/?scenario=rolling-update&t=30"},
		{"own at 41s", Link{YAML: yaml, T: 41}, "https://x.example/c/", "https://x.example/c/#s=" + share + "&t=41"},
		{"own at the start, the page's own address", Link{YAML: yaml}, "/", "/#s=" + share},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := tc.link.URL(tc.base)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// The link's fragment carries the scenario and t exactly (the page reads
// it with bridge.ParseAddress; wasm/bridge tests that it opens at t).
func TestShareOfRoundTrips(t *testing.T) {
	t.Parallel()
	yaml := []byte(strings.Repeat("# padding\n", 100) + "name: mine\n")
	sh := ShareOf("http://127.0.0.1:8080/", Link{YAML: yaml, T: 75})
	require.False(t, sh.TooLarge)
	u, err := url.Parse(sh.URL)
	require.NoError(t, err)
	q, err := url.ParseQuery(u.Fragment)
	require.NoError(t, err)
	assert.Equal(t, "75", q.Get("t"))
	got, err := scenario.DecodeShare(q.Get("s"))
	require.NoError(t, err)
	assert.Equal(t, string(yaml), string(got))
}

func TestShareOfTooLarge(t *testing.T) {
	t.Parallel()
	yaml := []byte("name: big\n" + strings.Repeat("#", scenario.MaxShareSize))
	sh := ShareOf("/", Link{YAML: yaml, T: 5})
	assert.Equal(t, Share{TooLarge: true, Size: len(yaml)}, sh)
	_, err := Link{YAML: yaml}.URL("/")
	assert.ErrorIs(t, err, ErrTooLargeForLink)
	at := ShareOf("/", Link{YAML: yaml[:scenario.MaxShareSize]})
	assert.False(t, at.TooLarge, "64 KiB exactly still fits")
	builtin := ShareOf("/", Link{Builtin: "big", YAML: yaml})
	assert.False(t, builtin.TooLarge, "a built-in's link carries only its name")
}

func TestShareTexts(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "Link copied: it opens this scenario at the start.", ShareCopied(0))
	assert.Equal(t, "Link copied: it opens this scenario at 1m21s.", ShareCopied(81))
	assert.Equal(t, "No link: this scenario is 83 KiB, and a link carries at most 64 KiB. It is saved in My scenarios as “big”; use Download to pass it on as a file.",
		ShareTooLarge(83*1024-100, "big", nil))
	assert.Equal(t, "No link: this scenario is 65 KiB, and a link carries at most 64 KiB. Saving it in My scenarios failed too (disk full): use Download to keep it as a file.",
		ShareTooLarge(64*1024+1, "", errors.New("disk full")))
}

// An address too large to write is said, with the sizes, and what to do.
func TestAddressTooLarge(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "The page's address still opens the scenario from before: this one is 80 KiB, and an address carries at most 64 KiB. "+
		"A reload would lose it; Share saves it in My scenarios, Download as a file.", AddressTooLarge(80*1024))
}
