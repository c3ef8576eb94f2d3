package view

import (
	"strconv"
	"strings"

	"converge/core/sim"
)

// Timeline is the scrubber: where now is on the scenario's span and the
// marks of steps, failed steps and warnings.
type Timeline struct {
	T    int64
	Span int64
	// Now is "12s", SpanText "1m" and Clock "00:00:12" (simulated time of day).
	Now, SpanText, Clock string
	// Ended is set when T reached the scenario's duration.
	Ended   bool
	Markers []ScrubMarker
}

// ScrubMarker is one mark on the scrubber: every step or warning of one
// kind in one second.
type ScrubMarker struct {
	// Key is "T/kind".
	Key  string
	T    int64
	Kind string // "step", "failed-step", "warning"
	// Left is the position in percent of the span, "12.5".
	Left string
	// Label lists what happened: "12s: kubectl scale deployment/web --replicas=5".
	Label string
}

// MaxMarkerLabels bounds the lines of one marker's label.
const MaxMarkerLabels = 4

// TimelineOf returns the scrubber's state: marks for every second computed
// so far (past and, after a backward seek, the known future).
func TimelineOf(s *sim.Sim) Timeline {
	span := max(int64(s.Duration().Seconds()), s.Horizon(), s.T(), 1)
	tl := Timeline{T: s.T(), Span: span, Now: secondsText(s.T()), SpanText: secondsText(span),
		Clock: s.Now().UTC().Format("15:04:05"), Ended: s.T() >= int64(s.Duration().Seconds())}
	for _, smp := range s.History() {
		for _, kind := range []string{"failed-step", "step", "warning"} {
			var labels []string
			n := 0
			for _, m := range smp.Markers {
				if m.Kind == kind {
					n++
					if len(labels) < MaxMarkerLabels {
						labels = append(labels, m.Label)
					}
				}
			}
			if n == 0 {
				continue
			}
			if n > len(labels) {
				labels = append(labels, "and "+strconv.Itoa(n-len(labels))+" more")
			}
			tl.Markers = append(tl.Markers, ScrubMarker{Key: strconv.FormatInt(smp.T, 10) + "/" + kind, T: smp.T, Kind: kind,
				Left: tenths(smp.T * 1000 / span), Label: secondsText(smp.T) + ": " + strings.Join(labels, "; ")})
		}
	}
	return tl
}
