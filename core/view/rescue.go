package view

import (
	"encoding/json"
	"strings"
)

// The page keeps a rescue copy of what the user has in sessionStorage
// (docs/limits.md): should the simulator ever stop (the Go runtime ran
// out of memory, or a bug ended it), the page, reloaded in the same tab,
// offers it back. The copy is written as it changes, before anything can
// go wrong; converge.js marks the stop (RescueStoppedKey) when it sees the
// runtime exit.

// Keys of sessionStorage.
const (
	// RescueKey holds the Rescue of the page, as JSON.
	RescueKey = "converge:rescue"
	// RescueStoppedKey is set ("1") by converge.js when the simulator
	// stopped; the next boot in the tab offers the rescue.
	RescueStoppedKey = "converge:stopped"
)

// Rescue is what the page keeps: the scenario as it runs (with the steps
// added from the console), the built-in scenario's name when it is one, and
// the editor's text while it has edits that are not applied.
type Rescue struct {
	Scenario string `json:"scenario"`
	Name     string `json:"name,omitempty"`
	Draft    string `json:"draft,omitempty"`
}

// Covers reports whether restoring r brings back text, an editor's draft
// kept elsewhere (the saved scenarios' draft): the page then offers r
// alone, not the same edits twice.
func (r Rescue) Covers(text string) bool {
	return text != "" && (text == r.Draft || text == r.Scenario)
}

// JSON is the rescue as stored.
func (r Rescue) JSON() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// ParseRescue reads a stored rescue; false when there is none or it cannot
// be read (a copy from another version, say).
func ParseRescue(s string) (Rescue, bool) {
	var r Rescue
	if err := json.Unmarshal([]byte(s), &r); err != nil || r.Scenario == "" && r.Draft == "" {
		return Rescue{}, false
	}
	return r, true
}

// RescueOffer is what the page says after a reload that follows a stop,
// and its two buttons.
type RescueOffer struct {
	Text, Restore, Dismiss string
}

// OfferOf is the offer of r: which scenario it brings back, and whether
// with the editor's unapplied edits.
func OfferOf(r Rescue) RescueOffer {
	what := "the scenario you had"
	if r.Name != "" {
		what = "the scenario you had (" + r.Name + ", with the steps you added)"
	} else if name := scenarioName(r.Scenario); name != "" {
		what = "the scenario you had (" + name + ")"
	}
	if r.Draft != "" {
		what += " and the editor's unapplied edits"
	}
	return RescueOffer{Text: "The simulator stopped before this reload. It kept " + what + ".",
		Restore: "Restore it", Dismiss: "Dismiss"}
}

// scenarioName is the name: line of a scenario's YAML, "" without one.
func scenarioName(yaml string) string {
	for _, line := range strings.Split(yaml, "\n") {
		if v, ok := strings.CutPrefix(line, "name: "); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
