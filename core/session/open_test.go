package session

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
	"converge/core/simtest"
)

var alphaYAML = `name: alpha
title: Alpha
description: The first one.
duration: 60s
objects:
` + simtest.DeploymentYAML("web", 2, "nginx")

const betaYAML = `name: beta
title: Beta
duration: 30s
`

// testLibrary holds alpha and beta, and a broken file.
func testLibrary() *Library {
	return NewLibrary(fstest.MapFS{
		"alpha.yaml":  {Data: []byte(alphaYAML)},
		"beta.yaml":   {Data: []byte(betaYAML)},
		"broken.yaml": {Data: []byte("name: broken\nbogus: 1\n")},
		"README.md":   {Data: []byte("not a scenario")},
	})
}

func share(t *testing.T, yaml string) string {
	t.Helper()
	s, err := scenario.EncodeShare([]byte(yaml))
	require.NoError(t, err)
	return s
}

// deflate encodes like EncodeShare, without its size limit.
func deflate(t *testing.T, yaml string) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write([]byte(yaml))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

func TestDecide(t *testing.T) {
	t.Parallel()
	tooLarge := deflate(t, "name: big\n#"+strings.Repeat("x", scenario.MaxShareSize))
	tests := []struct {
		name      string
		href      string
		wantName  string // "" for a shared scenario
		wantScn   string // the scenario's name
		wantT     int64
		wantEmbed bool
		wantErr   string // substring of Error; "" for none
	}{
		{name: "the default is the preferred one, else the first by name", href: "http://h/", wantName: "alpha", wantScn: "alpha"},
		{name: "a built-in by name at a time", href: "/?scenario=beta&t=12", wantName: "beta", wantScn: "beta", wantT: 12},
		{name: "t as a Go duration", href: "/?scenario=alpha&t=1m", wantName: "alpha", wantScn: "alpha", wantT: 60},
		{name: "t past the end opens at the end", href: "/?scenario=beta&t=999", wantName: "beta", wantScn: "beta", wantT: 30},
		{name: "t beyond int64 opens at the end", href: "/?scenario=beta&t=99999999999999999999", wantName: "beta", wantScn: "beta", wantT: 30},
		{name: "a duration beyond Go's opens at the end", href: "/?scenario=beta&t=99999999h", wantName: "beta", wantScn: "beta", wantT: 30},
		{name: "a t below int64 opens at 0", href: "/?scenario=beta&t=-99999999999999999999", wantName: "beta", wantScn: "beta",
			wantErr: "t=-99999999999999999999 is before the start; opening at 0s."},
		{name: "embed", href: "/?scenario=beta&embed=1", wantName: "beta", wantScn: "beta", wantEmbed: true},
		{name: "a shared scenario", href: "/#s=" + share(t, betaYAML) + "&t=3", wantScn: "beta", wantT: 3},
		{name: "a share wins over a name", href: "/?scenario=alpha#s=" + share(t, betaYAML), wantScn: "beta"},
		{name: "a corrupt share falls back to the default", href: "/#s=@@@@", wantName: "alpha", wantScn: "alpha",
			wantErr: "The shared scenario cannot be opened: share link is corrupt: illegal base64 data at input byte 0. Showing the built-in scenario alpha instead."},
		{name: "truncated DEFLATE is corrupt", href: "/#s=" + share(t, alphaYAML)[:20], wantName: "alpha", wantScn: "alpha",
			wantErr: "share link is corrupt"},
		{name: "a bad % escape in the share is reported", href: "/#s=AAAA%zz", wantName: "alpha", wantScn: "alpha",
			wantErr: `The shared scenario cannot be opened: share link is corrupt: its s= value has an invalid % escape "%zz". Showing the built-in scenario alpha instead.`},
		{name: "a bad % escape elsewhere does not stop the share", href: "/#t=%zz&s=" + share(t, betaYAML), wantScn: "beta",
			wantErr: `t=%zz is not a whole number of seconds; opening at 0s.`},
		{name: "a too large share is refused", href: "/#s=" + tooLarge, wantName: "alpha", wantScn: "alpha",
			wantErr: "The shared scenario cannot be opened: share link is too large: the scenario inflates beyond 64 KiB."},
		{name: "an invalid shared scenario names its first problem", href: "/#s=" + share(t, "name: x\nbogus: 1\n"),
			wantName: "alpha", wantScn: "alpha", wantErr: "The shared scenario is invalid: 2:1: "},
		{name: "an unknown built-in lists the known ones", href: "/?scenario=nope&t=5", wantName: "alpha", wantScn: "alpha", wantT: 5,
			wantErr: `There is no built-in scenario "nope". Showing the built-in scenario alpha instead.`},
		{name: "an invalid built-in falls back", href: "/?scenario=broken", wantName: "alpha", wantScn: "alpha",
			wantErr: "The built-in scenario broken is invalid: 2:1: "},
		{name: "a bad t opens at 0", href: "/?scenario=beta&t=abc", wantName: "beta", wantScn: "beta",
			wantErr: "t=abc is not a whole number of seconds; opening at 0s."},
		{name: "a fractional t opens at 0", href: "/?scenario=beta&t=1.5s", wantName: "beta", wantScn: "beta",
			wantErr: "t=1.5s is not a whole number of seconds"},
		{name: "a negative t opens at 0", href: "/?scenario=beta&t=-4", wantName: "beta", wantScn: "beta",
			wantErr: "t=-4 is before the start; opening at 0s."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := DecideAddress(ParseAddress(tc.href), testLibrary())
			require.NotNil(t, o.Sim, "error: %s", o.Error)
			assert.Equal(t, tc.wantName, o.Name)
			assert.Equal(t, tc.wantScn, o.Sim.Scenario().Name)
			assert.Equal(t, tc.wantT, o.T)
			assert.Equal(t, tc.wantEmbed, o.Embed)
			assert.NotEmpty(t, o.Source)
			assert.Zero(t, o.Sim.T(), "Decide opens at 0; the caller seeks")
			if tc.wantErr == "" {
				assert.Empty(t, o.Error)
			} else {
				assert.Contains(t, o.Error, tc.wantErr)
			}
		})
	}
}

func TestDecidePrefersTheNamedDefaults(t *testing.T) {
	t.Parallel()
	lib := NewLibrary(fstest.MapFS{
		"alpha.yaml":      {Data: []byte(alphaYAML)},
		"basic-loop.yaml": {Data: []byte(strings.Replace(betaYAML, "name: beta", "name: basic-loop", 1))},
	})
	o := DecideAddress(ParseAddress("/"), lib)
	require.NotNil(t, o.Sim)
	assert.Equal(t, "basic-loop", o.Name)
}

func TestDecideWithNothingToOpen(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		lib     *Library
		href    string
		wantErr string
	}{
		{name: "an empty library", lib: NewLibrary(fstest.MapFS{}), href: "/",
			wantErr: "There are no built-in scenarios to open."},
		{name: "a corrupt share and an empty library", lib: NewLibrary(fstest.MapFS{}), href: "/#s=@",
			wantErr: "The shared scenario cannot be opened: share link is corrupt: illegal base64 data at input byte 0. There are no built-in scenarios to open."},
		{name: "an invalid default", lib: NewLibrary(fstest.MapFS{"broken.yaml": {Data: []byte("bogus: 1\n")}}), href: "/",
			wantErr: "The built-in scenario broken is invalid: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := DecideAddress(ParseAddress(tc.href), tc.lib)
			assert.Nil(t, o.Sim)
			assert.Contains(t, o.Error, tc.wantErr)
		})
	}
}

func TestOpenResultSaysCompare(t *testing.T) {
	t.Parallel()
	variants := "name: two\nobjects:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {k: a}}\n" +
		"variants:\n- name: a\n- name: b\n  patch:\n    configmap/c: {data: {k: b}}\n"
	tests := []struct {
		name, href string
		want       bool
	}{
		{name: "a scenario without variants", href: "/?scenario=beta", want: false},
		{name: "asked for", href: "/?scenario=beta&compare=1", want: true},
		{name: "a shared scenario with variants", href: "/#s=" + share(t, variants), want: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			o := DecideAddress(ParseAddress(tc.href), testLibrary())
			require.Empty(t, o.Error)
			assert.Equal(t, tc.want, o.Result().Compare)
		})
	}
}
