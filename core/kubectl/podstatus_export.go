package kubectl

import (
	"converge/core/api"
)

// PodStatus is the STATUS column `kubectl get pods` prints for p: Running,
// ContainerCreating, Error, Completed, CrashLoopBackOff, Terminating ...
// (printPod, see podStatus). The page's pod tiles say the same word.
func PodStatus(p *api.Pod) string { return podStatus(p, api.Time{}).status }
