package view

import (
	"fmt"
	"strconv"

	"converge/core/scenario"
)

// This file decides the page's links: its own address, what the Share
// button copies and says, and what the scenario picker shows
// (docs/sharing.md).

// Origin is where the page's scenario came from and how it changed since:
// what the picker shows and which kind of link the page makes.
type Origin struct {
	// Name is the built-in scenario it was loaded from; "" for a scenario
	// of the user's own (edited and applied, opened from a link or from My
	// scenarios, imported).
	Name string
	// LoadedSteps is how many steps the scenario had when it was loaded;
	// the console adds more.
	LoadedSteps int
}

// Builtin is the built-in scenario's name when scn is exactly it (loaded
// from the library, no step added since), "" otherwise.
func (o Origin) Builtin(scn *scenario.Scenario) string {
	if o.Name == "" || scn == nil || len(scn.Steps) != o.LoadedSteps {
		return ""
	}
	return o.Name
}

// OwnScenario is the picker's entry for a scenario that is not exactly a
// built-in one.
const OwnScenario = "Your own scenario"

// Picker is what the scenario picker shows.
type Picker struct {
	// Value is the built-in scenario to select, or "" for OwnScenario.
	Value string
	// OwnTitle says how the scenario is the user's own (the entry's
	// tooltip); "" when it is a built-in one.
	OwnTitle string
}

// PickerOf is the picker for a scenario of origin o:
//
//	rolling-update as loaded                 → rolling-update
//	rolling-update + 1 step from the console → Your own scenario ("rolling-update, with 1 step added from the console")
//	edited, shared, saved or imported        → Your own scenario ("edited, opened from a link, from My scenarios or imported")
func PickerOf(o Origin, scn *scenario.Scenario) Picker {
	if b := o.Builtin(scn); b != "" {
		return Picker{Value: b}
	}
	if o.Name != "" && scn != nil {
		added := len(scn.Steps) - o.LoadedSteps
		return Picker{OwnTitle: o.Name + ", with " + pluralInt(added, "step") + " added from the console"}
	}
	return Picker{OwnTitle: "edited, opened from a link, from My scenarios or imported"}
}

// ShareCopied is what the Share button says once the link is on the
// clipboard.
func ShareCopied(t int64) string {
	if t == 0 {
		return "Link copied: it opens this scenario at the start."
	}
	return "Link copied: it opens this scenario at " + secondsText(t) + "."
}

// ShareByHand is what the Share button says when the browser did not let
// the page copy (no Clipboard API, or permission refused); the link is
// shown in a field next to it.
const ShareByHand = "Copy this link by hand: the browser did not let the page copy it."

// ShareTooLarge is what the Share button says for a scenario of size bytes,
// too large for a link: saved in My scenarios as savedAs, or, when saving
// failed too, why (saveErr).
func ShareTooLarge(size int, savedAs string, saveErr error) string {
	msg := fmt.Sprintf("No link: this scenario is %s, and a link carries at most %s.", kib(size), kib(scenario.MaxShareSize))
	if saveErr != nil {
		return msg + " Saving it in My scenarios failed too (" + saveErr.Error() + "): use Download to keep it as a file."
	}
	return msg + " It is saved in My scenarios as “" + savedAs + "”; use Download to pass it on as a file."
}

// kib is a size in KiB, rounded up: "64 KiB".
func kib(n int) string { return strconv.Itoa((n+1023)/1024) + " KiB" }
