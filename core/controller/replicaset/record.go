package replicaset

import (
	"fmt"
	"strings"
)

// maxNamed is how many pod names a sync record spells out.
const maxNamed = 5

// nameList renders an action on pods for a sync record: "create pod a",
// "delete 3 pods: a, b, c", "create 12 pods: a, b, c, d, e and 7 more".
func nameList(verb string, names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return verb + " pod " + names[0]
	}
	shown := names
	if len(shown) > maxNamed {
		shown = shown[:maxNamed]
	}
	s := fmt.Sprintf("%s %d pods: %s", verb, len(names), strings.Join(shown, ", "))
	if rest := len(names) - len(shown); rest > 0 {
		s += fmt.Sprintf(" and %d more", rest)
	}
	return s
}

// joinActions joins the steps of one sync: "adopt pod a; delete pod b".
func joinActions(actions []string) string { return strings.Join(actions, "; ") }

// podsText is "1 pod" or "3 pods".
func podsText(n int32) string {
	if n == 1 {
		return "1 pod"
	}
	return fmt.Sprintf("%d pods", n)
}

// observedText is "2 pods (2 ready, 1 available)", with ", 1 terminating"
// when pods are terminating.
func observedText(c podCounts) string {
	s := fmt.Sprintf("%s (%d ready, %d available)", podsText(c.active), c.ready, c.available)
	if c.terminating > 0 {
		s += fmt.Sprintf(", %d terminating", c.terminating)
	}
	return s
}
