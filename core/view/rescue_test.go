package view

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRescueRoundTrip(t *testing.T) {
	t.Parallel()
	r := Rescue{Scenario: "name: web\n", Draft: "name: web2\n"}
	got, ok := ParseRescue(r.JSON())
	assert.True(t, ok)
	assert.Equal(t, r, got)
	for _, bad := range []string{"", "{", "{}", `{"scenario": 3}`} {
		_, ok := ParseRescue(bad)
		assert.False(t, ok, bad)
	}
}

func TestOfferOf(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		r    Rescue
		want string
	}{
		{"a built-in", Rescue{Scenario: "name: rolling-update\n", Name: "rolling-update"},
			"The simulator stopped before this reload. It kept the scenario you had (rolling-update, with the steps you added)."},
		{"a shared one with edits", Rescue{Scenario: "title: x\nname: mine\n", Draft: "name: mine\n# more\n"},
			"The simulator stopped before this reload. It kept the scenario you had (mine) and the editor's unapplied edits."},
		{"a manifest", Rescue{Scenario: "apiVersion: v1\n"}, "The simulator stopped before this reload. It kept the scenario you had."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, RescueOffer{Text: tc.want, Restore: "Restore it", Dismiss: "Dismiss"}, OfferOf(tc.r))
		})
	}
}

func TestRescueCoversTheSameEdits(t *testing.T) {
	t.Parallel()
	r := Rescue{Scenario: "name: a\n", Draft: "name: a\n# edit\n"}
	assert.True(t, r.Covers("name: a\n# edit\n"), "the draft it keeps")
	assert.True(t, r.Covers("name: a\n"), "the scenario it restores")
	assert.False(t, r.Covers("name: b\n"), "other edits")
	assert.False(t, Rescue{}.Covers(""), "no draft")
}
