// Package view is the pure view model of the page: from a *sim.Sim (the
// state of now, the records of this tick and the per-second history) it
// computes everything the page draws, in words and numbers, with stable keys,
// and knows nothing of the DOM. The wasm renderer applies it to the page,
// updating elements by key (a pod tile keeps its element while the pod
// lives).
//
// # Parts
//
// Each part is one function and one small file, so that the page computes
// only what it shows:
//
//   - Why: one line per Deployment saying what the rollout waits for and
//     which bound (maxSurge, maxUnavailable, paused, the progress deadline)
//     blocks its next step, from the deployment controller's sync record;
//   - Loop: per controller, what it observed, what it wants and the step it
//     took this second, or "in sync";
//   - Rollout: the Deployment's ReplicaSets side by side by revision, their
//     pods as tiles (state, shape, label) and the surge and unavailability
//     gauges with their arithmetic (deployment.FencepostMath);
//   - Nodes: pods per node, the Ready condition, taints and capacity;
//   - Charts: replica counts over time as SVG path data in a fixed viewBox,
//     the surge and unavailability bands, the Service's success rate;
//   - Events: the event log like `kubectl get events -w` plus the steps,
//     each row with the second it links to, filterable;
//   - Markers: the scrubber's marks (steps, failed steps, warnings);
//   - Revisions: the ledger of ReplicaSets by revision, a line diff of the
//     pod template between two revisions and the surprises explained
//     (a scale makes no revision, undo renumbers, revisionHistoryLimit,
//     CHANGE-CAUSE <none>);
//   - Ownership: selectors, labels, controllers, unowned pods that a
//     Service still sends traffic to, and the API server's verdict on an
//     edited selector or template (CheckSelectorEdit);
//   - Checks: the scenario's expect steps, pending, passed or failed;
//   - Validate: the editor's problems at line and column; Editor: the
//     editor's state (edited or as the scenario runs, the problems shown,
//     the status line, whether Apply may run); Library: the scenario
//     picker;
//   - Console: the kubectl console's log, its history (the arrow keys, no
//     repeats in a row), tab completion of a command line and the commands
//     suggested to a new user.
//
// Console and Editor are the only parts with state: what the user typed,
// which the page keeps between renders. They hold no simulation: the
// bridge runs a command or a load and hands its result in.
//
// Everything is deterministic: lists are sorted, maps are never ranged over
// to decide order, and numbers are integers until they are formatted.
package view
