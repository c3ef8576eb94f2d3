package kubectl

import (
	"time"

	"converge/core/api"
)

// PodStatus is the STATUS column `kubectl get pods` prints for p: Running,
// ContainerCreating, Error, Completed, CrashLoopBackOff, Terminating ...
// (printPod, see podStatus). The page's pod tiles say the same word.
func PodStatus(p *api.Pod) string { return podStatus(p, api.Time{}).status }

// PodReadyColumn is the READY column of `kubectl get pods` for p: "0/1".
func PodReadyColumn(p *api.Pod) string { return podStatus(p, api.Time{}).ready }

// PodRestarts is the RESTARTS column of `kubectl get pods` for p at now: "0",
// or "2 (9s ago)".
func PodRestarts(p *api.Pod, now time.Time) string { return podStatus(p, api.Time{Time: now}).restarts }
