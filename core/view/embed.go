package view

// The Embed button's snippets are core/session's (EmbedOf); its texts are
// these.

import (
	"converge/core/scenario"
)

// EmbedIntro is what the Embed panel says above its snippets, for a
// scenario shown at second t.
func EmbedIntro(t int64) string {
	at := "at the start"
	if t > 0 {
		at = "at " + secondsText(t)
	}
	return "Show this scenario " + at + " on a page of any site: add the script tag once, then one element per demo. " +
		"The simulator loads when a demo comes into view."
}

// EmbedTooLarge is what the Embed panel says for a scenario of size
// bytes, which neither an element's share attribute nor a link can carry.
func EmbedTooLarge(size int) string {
	return "No snippet: this scenario is " + kib(size) + ", and an embed carries at most " + kib(scenario.MaxShareSize) +
		". Shorten it (fewer objects or steps) to embed it, or use Download to pass it on as a file."
}
