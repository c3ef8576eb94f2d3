package view

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"converge/core/library"
	"converge/core/scenario"
)

// This file is the view model of "My scenarios" (the user's saved
// scenarios, core/library), the offer to restore a draft, imports and
// the notice that storage is in memory only (docs/sharing.md).

// SavedRow is one saved scenario in the list.
type SavedRow struct {
	// Key is the row's key (the name).
	Key, Name string
	// Modified is when it was saved, in the page's time zone:
	// "2026-03-05 14:02".
	Modified string
	// Size is "2 KiB".
	Size string
	// Open says the page runs this one (it was opened or saved last).
	Open bool
}

// SavedList is the list of My scenarios.
type SavedList struct {
	Rows []SavedRow
	// Empty is the text of an empty list; "" when there are rows.
	Empty string
}

// SavedListOf is the list of entries, sorted as given (by name), with
// open marked.
func SavedListOf(entries []library.Entry, loc *time.Location, open string) SavedList {
	l := SavedList{}
	for _, e := range entries {
		l.Rows = append(l.Rows, SavedRow{Key: e.Name, Name: e.Name, Modified: e.Modified.In(loc).Format("2006-01-02 15:04"),
			Size: kib(int(e.Size)), Open: e.Name == open})
	}
	if len(l.Rows) == 0 {
		l.Empty = "No saved scenarios yet. Save keeps the scenario that runs, with the steps added from the console; Import adds a .yaml file."
	}
	return l
}

// SaveButton is the Save button's label for the name typed: "Save", or
// "Replace" when a saved scenario has that name; disabled (with why) when
// the name is invalid.
type SaveButton struct {
	Label    string
	Disabled bool
	Problem  string
}

// SaveButtonOf decides the Save button for name among entries.
func SaveButtonOf(name string, entries []library.Entry) SaveButton {
	if err := library.CheckName(name); err != nil {
		if name == "" {
			return SaveButton{Label: "Save", Disabled: true}
		}
		return SaveButton{Label: "Save", Disabled: true, Problem: capitalize(err.Error()) + "."}
	}
	for _, e := range entries {
		if e.Name == name {
			return SaveButton{Label: "Replace"}
		}
	}
	return SaveButton{Label: "Save"}
}

// SaveName is the name the Save field proposes: the saved scenario the
// page runs, else the scenario's own name.
func SaveName(open string, scn *scenario.Scenario) string {
	if open != "" {
		return open
	}
	if scn == nil || scn.Name == "" {
		return "scenario"
	}
	return library.SanitizeName(scn.Name)
}

// Saved is what the page says after a save: "Saved “web” (the scenario as
// it runs, with the steps added from the console)." and, when the editor
// holds edits that are not applied, that they are kept as a draft.
func Saved(name string, editorEdited bool) string {
	msg := "Saved “" + name + "”: the scenario as it runs, with the steps added from the console."
	if editorEdited {
		msg += " The editor's edits that are not applied are not in it; they are kept as a draft."
	}
	return msg
}

// DraftOffer is the offer, after a reload, to restore the editor's draft.
type DraftOffer struct {
	// Text is the offer, e.g. "You have a draft from 2026-03-05 14:02 that
	// was not applied (edited from rolling-update). Restore it into the
	// editor?"
	Text string
	// Draft is the text to restore.
	Draft string
}

// DraftOfferOf decides whether to offer draft d (has: there is one) to an
// editor that shows editorText: only when their texts differ.
func DraftOfferOf(d library.Draft, has bool, editorText string, loc *time.Location) (DraftOffer, bool) {
	if !has || d.Text == editorText || strings.TrimSpace(d.Text) == "" {
		return DraftOffer{}, false
	}
	from := "a scenario of your own"
	if d.From != "" {
		from = d.From
	}
	return DraftOffer{
		Text:  "You have a draft from " + d.Modified.In(loc).Format("2006-01-02 15:04") + " that was not applied (edited from " + from + "). Restore it into the editor?",
		Draft: d.Text,
	}, true
}

// StorageNotice is what the page says, once, when its scenarios cannot be
// kept in the browser: unavailable is why IndexedDB could not be opened
// (private mode, a browser without it), degraded why a write to it failed
// later (its quota). "" when storage works.
func StorageNotice(unavailable, degraded error) string {
	switch {
	case unavailable != nil:
		return "Your scenarios and drafts are kept in memory only, until this page closes: this browser does not let the page store them (" +
			oneLineError(unavailable) + "). Use Download to keep a scenario."
	case degraded != nil:
		return "Saving in this browser's storage failed (" + oneLineError(degraded) +
			"): your scenarios and drafts are kept in memory from now on, until this page closes. Use Download to keep a scenario."
	}
	return ""
}

// Import is what the page does with a file the user imports (the file
// picker, or a file dropped on the editor).
type Import struct {
	// Refused is why the file is not read at all ("" to read it).
	Refused string
}

// ImportOf checks a file before the page reads it: a .yaml or .yml file of
// at most scenario.MaxFileSize bytes.
func ImportOf(fileName string, size int64) Import {
	lower := strings.ToLower(fileName)
	switch {
	case !strings.HasSuffix(lower, ".yaml") && !strings.HasSuffix(lower, ".yml"):
		return Import{Refused: "“" + fileName + "” is not a .yaml file: import takes a scenario or manifests in YAML."}
	case size > scenario.MaxFileSize:
		return Import{Refused: fmt.Sprintf("“%s” is %s: a scenario may have at most %d MiB.", fileName, mib(size), scenario.MaxFileSize>>20)}
	}
	return Import{}
}

// Imported is what the page says once it read an imported file: saved as
// name and opened; or, for a file with errors problems, put into the
// editor to fix.
func Imported(fileName, name string, problems int) string {
	if problems > 0 {
		return "“" + fileName + "” has " + pluralInt(problems, "problem") + ": it is in the editor to fix, then Apply."
	}
	return "Imported “" + fileName + "” as “" + name + "” in My scenarios, and opened it."
}

func mib(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// oneLineError is err's text on one line, without a final full stop (the
// text goes inside parentheses).
func oneLineError(err error) string {
	return strings.TrimSuffix(strings.Join(strings.Fields(err.Error()), " "), ".")
}
