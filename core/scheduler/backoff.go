package scheduler

import (
	"time"

	"converge/core/api"
)

// The scheduler keeps no queue, so when an unschedulable pod is retried is
// worked out from its PodScheduled=False condition: the first failure set
// its lastTransitionTime, and with back-offs of 1, 2, 4, 8 and then 10 s the
// attempts fall at 0, 1, 3, 7, 15, 25, 35, ... seconds after it. Its
// FailedScheduling event, sent on the first failure, is repeated at the
// first attempt at least EventInterval after the previous one: 15, 25,
// 35, ... (EventInterval is not above MaxBackoff, so once the back-off is
// capped every attempt repeats it).

// attemptDue reports whether the pending pod is to be tried now: always
// unless it failed before and is waiting out its back-off.
func attemptDue(p *api.Pod, now time.Time) bool {
	c := api.GetPodCondition(&p.Status, api.PodScheduled)
	if c == nil || c.Status != api.ConditionFalse || c.Reason != UnschedulableReason {
		return true
	}
	return isAttempt(elapsedSeconds(c, now))
}

// elapsedSeconds is the whole seconds since the condition's last
// transition; 0 when that is unknown or in the future.
func elapsedSeconds(c *api.PodCondition, now time.Time) int64 {
	if c.LastTransitionTime.IsZero() {
		return 0
	}
	return max(0, int64(now.Sub(c.LastTransitionTime.Time)/time.Second))
}

func backoffSeconds() (initial, maxB int64) {
	return max(1, int64(InitialBackoff/time.Second)), max(1, int64(MaxBackoff/time.Second))
}

// isAttempt reports whether a pod that first failed e seconds ago is retried
// at e.
//
// Example: true for 0, 1, 3, 7, 15, 25; false for 2, 8, 16.
func isAttempt(e int64) bool {
	initial, maxB := backoffSeconds()
	t, b := int64(0), initial
	for t < e && b < maxB {
		t += b
		b = min(2*b, maxB)
	}
	if t >= e {
		return t == e
	}
	return (e-t)%maxB == 0
}

// eventDue reports whether the retry at e seconds after the first failure
// repeats the FailedScheduling event.
//
// Example: true for 0, 15, 25, 35; false for 1, 3, 7 (within 10 s of the
// first event) and for 5 (no retry then).
func eventDue(e int64) bool {
	if !isAttempt(e) {
		return false
	}
	initial, maxB := backoffSeconds()
	interval := int64(EventInterval / time.Second)
	t, b, last := int64(0), initial, int64(0)
	for t < e {
		if b >= maxB && maxB >= interval && t-last+maxB >= interval {
			// From here on every attempt is at least interval after the
			// previous event.
			return true
		}
		t += b
		b = min(2*b, maxB)
		if t-last >= interval {
			if t == e {
				return true
			}
			last = t
		}
	}
	return t == 0
}
