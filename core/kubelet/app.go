package kubelet

import "time"

// answer is how the simulated app answers a probe, a hook or a request.
type answer uint8

const (
	answerOK        answer = iota // it answers and is healthy
	answerRefused                 // nothing listens yet: connection refused
	answerUnhealthy               // it answers, but not ready: HTTP 503, gRPC NOT_SERVING
	answerHung                    // it accepts nothing in time: the probe times out
)

// probeKind is one of a container's three probes.
type probeKind uint8

const (
	startupProbe probeKind = iota
	livenessProbe
	readinessProbe
	numProbes
)

// probeNames are the probe types as the prober prints them ("Liveness probe failed: ...").
var probeNames = [numProbes]string{"Startup", "Liveness", "Readiness"}

// answers is how the app of an image answers on the given probe's endpoint
// s after the container started. Its life, from the image's behaviour keys
// (docs/scenarios.md):
//
//	s < readySeconds                  refused: the app is still starting
//	s >= livenessFailAfterSeconds     hung: nothing answers (liveness, readiness, requests)
//	otherwise, for readiness only:    unhealthy when neverReady, once s >= unreadyAfterSeconds,
//	                                  and in every second period of readinessFlapSeconds
//	                                  counted from readySeconds
//
// Startup and liveness probes pass whenever the app is up and not hung.
func (im Image) answers(kind probeKind, s time.Duration) answer {
	switch {
	case s < im.ready():
		return answerRefused
	case im.LivenessFailAfterSeconds > 0 && s >= seconds(im.LivenessFailAfterSeconds):
		return answerHung
	case kind == readinessProbe && !im.readyEndpointUp(s):
		return answerUnhealthy
	}
	return answerOK
}

// readyEndpointUp reports whether the warm app's readiness endpoint passes.
func (im Image) readyEndpointUp(s time.Duration) bool {
	if im.NeverReady || im.UnreadyAfterSeconds > 0 && s >= seconds(im.UnreadyAfterSeconds) {
		return false
	}
	if p := seconds(im.ReadinessFlapSeconds); p > 0 {
		return (s-im.ready())/p%2 == 0
	}
	return true
}

// serves reports whether the app answers a request s after it started: the
// same as its readiness endpoint.
func (im Image) serves(s time.Duration) bool { return im.answers(readinessProbe, s) == answerOK }

// nextChange is the first time after s at which answers(kind, ·) may change,
// or 0 when it never does: the probe of an app that passes need not run
// again before then.
func (im Image) nextChange(kind probeKind, s time.Duration) time.Duration {
	var next time.Duration
	add := func(t time.Duration) {
		if t > s && (next == 0 || t < next) {
			next = t
		}
	}
	add(im.ready())
	if im.LivenessFailAfterSeconds > 0 {
		add(seconds(im.LivenessFailAfterSeconds))
	}
	if kind == readinessProbe {
		if im.UnreadyAfterSeconds > 0 {
			add(seconds(im.UnreadyAfterSeconds))
		}
		if p := seconds(im.ReadinessFlapSeconds); p > 0 && s >= im.ready() {
			add(im.ready() + ((s-im.ready())/p+1)*p)
		}
	}
	return next
}

func seconds(v int32) time.Duration { return time.Duration(max(v, 0)) * time.Second }
