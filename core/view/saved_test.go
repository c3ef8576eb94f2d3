package view

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"converge/core/library"
	"converge/core/scenario"
)

var paris = time.FixedZone("CET", 3600)

func TestSavedListOf(t *testing.T) {
	t.Parallel()
	entries := []library.Entry{
		{Name: "api", Modified: time.Date(2026, 3, 5, 13, 2, 9, 0, time.UTC), Size: 100},
		{Name: "web", Modified: time.Date(2026, 3, 5, 23, 30, 0, 0, time.UTC), Size: 5000},
	}
	got := SavedListOf(entries, paris, "web")
	assert.Equal(t, SavedList{Rows: []SavedRow{
		{Key: "api", Name: "api", Modified: "2026-03-05 14:02", Size: "1 KiB"},
		{Key: "web", Name: "web", Modified: "2026-03-06 00:30", Size: "5 KiB", Open: true},
	}}, got, "times in the page's zone")
	empty := SavedListOf(nil, time.UTC, "")
	assert.Empty(t, empty.Rows)
	assert.Contains(t, empty.Empty, "No saved scenarios yet.")
}

func TestSaveButtonOf(t *testing.T) {
	t.Parallel()
	entries := []library.Entry{{Name: "web"}}
	tests := []struct {
		name string
		want SaveButton
	}{
		{"api", SaveButton{Label: "Save"}},
		{"web", SaveButton{Label: "Replace"}},
		{"", SaveButton{Label: "Save", Disabled: true}},
		{"a/b", SaveButton{Label: "Save", Disabled: true, Problem: `Invalid name "a/b": a name may not contain "/".`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, SaveButtonOf(tc.name, entries))
		})
	}
}

func TestSaveName(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "mine", SaveName("mine", &scenario.Scenario{Name: "rolling-update"}))
	assert.Equal(t, "rolling-update", SaveName("", &scenario.Scenario{Name: "rolling-update"}))
	assert.Equal(t, "scenario", SaveName("", nil))
}

func TestSavedText(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "Saved “web”: the scenario as it runs, with the steps added from the console.", Saved("web", false))
	assert.Contains(t, Saved("web", true), "they are kept as a draft")
}

func TestDraftOfferOf(t *testing.T) {
	t.Parallel()
	d := library.Draft{Text: "name: x\n", From: "rolling-update", Modified: time.Date(2026, 3, 5, 13, 2, 0, 0, time.UTC)}
	offer, ok := DraftOfferOf(d, true, "name: y\n", paris)
	assert.True(t, ok)
	assert.Equal(t, DraftOffer{
		Text:  "You have a draft from 2026-03-05 14:02 that was not applied (edited from rolling-update). Restore it into the editor?",
		Draft: "name: x\n",
	}, offer)
	_, ok = DraftOfferOf(d, true, "name: x\n", paris)
	assert.False(t, ok, "the editor shows it already")
	_, ok = DraftOfferOf(d, false, "", paris)
	assert.False(t, ok, "no draft")
	_, ok = DraftOfferOf(library.Draft{Text: "  \n"}, true, "x", paris)
	assert.False(t, ok, "an empty draft is nothing to restore")
	own, ok := DraftOfferOf(library.Draft{Text: "a"}, true, "b", time.UTC)
	assert.True(t, ok)
	assert.Contains(t, own.Text, "(edited from a scenario of your own)")
}

func TestStorageNotice(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "", StorageNotice(nil, nil))
	assert.Equal(t, "Your scenarios and drafts are kept in memory only, until this page closes: this browser does not let the page store them (IndexedDB is not available). Use Download to keep a scenario.",
		StorageNotice(errors.New("IndexedDB is not\navailable"), nil))
	assert.Equal(t, "Saving in this browser's storage failed (QuotaExceededError): your scenarios and drafts are kept in memory from now on, until this page closes. Use Download to keep a scenario.",
		StorageNotice(nil, errors.New("QuotaExceededError")))
	assert.Equal(t, "Your scenarios and drafts are kept in memory only, until this page closes: this browser does not let the page store them (SecurityError: The user denied permission to access the database). Use Download to keep a scenario.",
		StorageNotice(errors.New("SecurityError: The user denied permission to access the database."), nil), "no full stop before the parenthesis closes")
}

func TestImportOf(t *testing.T) {
	t.Parallel()
	assert.Equal(t, Import{}, ImportOf("web.yaml", 100))
	assert.Equal(t, Import{}, ImportOf("WEB.YML", scenario.MaxFileSize))
	assert.Equal(t, Import{Refused: "“notes.txt” is not a .yaml file: import takes a scenario or manifests in YAML."}, ImportOf("notes.txt", 10))
	assert.Equal(t, Import{Refused: "“big.yaml” is 5.0 MiB: a scenario may have at most 4 MiB."}, ImportOf("big.yaml", 5<<20))
	assert.Equal(t, "Imported “web.yaml” as “web 2” in My scenarios, and opened it.", Imported("web.yaml", "web 2", 0))
	assert.Equal(t, "“web.yaml” has 2 problems: it is in the editor to fix, then Apply.", Imported("web.yaml", "", 2))
}
