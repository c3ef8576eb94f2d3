package view

import "converge/core/manifest"

// Seeking is what the page shows while a seek far ahead goes in slices:
// a progress bar of Value out of Max, its text, and a Cancel button.
type Seeking struct {
	// Text is "Computing up to 24h: 12,345 of 86,400 seconds".
	Text       string
	Value, Max int64
}

// SeekingOf is the progress of a seek from second from to target, now at
// t.
func SeekingOf(from, t, target int64) Seeking {
	done, all := min(max(t-from, 0), max(target-from, 0)), max(target-from, 0)
	return Seeking{Text: "Computing up to " + secondsText(target) + ": " + manifest.Thousands(done) + " of " +
		manifest.Thousands(all) + " seconds", Value: done, Max: all}
}
