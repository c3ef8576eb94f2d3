// Package kubelet simulates every node's kubelet: node heartbeats, image
// pulls (and InvalidImageName), container starts, startup, liveness and
// readiness probes, crashes and probe kills with their back-off, preStop
// hooks and graceful termination, and the node-down and crash faults. The
// rules and texts are in docs/scenarios.md; what is simplified is in
// docs/fidelity.md.
//
// The kubelet is the one component with runtime state that is not in the
// API: which images a node holds, which pull is in progress, when a
// container started, its probe counters and back-off. Controller keeps it
// keyed by pod uid and Clone copies it for checkpoints. Everything else is
// level-based: each Sync compares the status the kubelet would report with
// the pod's stored status and writes only when they differ.
//
// # Timings
//
// An image behaves as its Image entry says (unlisted images are healthy):
// a pull takes PullSeconds (2), a container takes StartSeconds (1) from
// "Container created" to running, and the app needs ReadySeconds (0) after
// that before it answers requests or passes a readiness probe. For a pod
// bound at t:
//
//	t     Pulling image "nginx:1.25"         waiting ContainerCreating, phase Pending
//	t+2   Successfully pulled image ...      Container created
//	t+3   Container started                  running, phase Running, Ready (no probe)
//
// A probe runs at startedAt+initialDelaySeconds and then every
// periodSeconds (probe.go); a result counts after successThreshold or
// failureThreshold equal results in a row. A failed liveness or startup
// probe, like a deletion, stops the container as killContainer does
// (kill.go): Killing, the preStop hook, SIGTERM, SIGKILL at the end of the
// grace period (at least 2s after SIGTERM).
//
// # Back-off
//
// Both image pulls and container restarts use client-go's flowcontrol
// back-off as the kubelet configures it: 10s, doubling, capped at 300s.
// A failed pull waits 10s, 20s, 40s ... before the next attempt. A crashed
// (or probe-killed) container restarts at once the first time (the back-off
// entry does not exist yet), then after 10s, 20s, 40s, ..., 300s; the entry
// is forgotten when an exit comes more than 600s after the last restart.
package kubelet
