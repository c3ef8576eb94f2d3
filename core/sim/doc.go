// Package sim is the engine: it owns the simulated clock, the store and the
// controllers of one simulation, runs the scenario's steps at their time and
// produces one snapshot (trace line) per simulated second.
//
// # The order of work in a tick
//
// One tick is one simulated second. Tick 0 is the initial state: the
// cluster's nodes are created and the scenario's objects are applied in
// order, as `kubectl apply` would. Then every tick, including tick 0, does:
//
//  1. the scenario's steps whose `at` is this second run, in file order
//     (kubectl, apply, fault, expect); steps added at run time join them;
//  2. a control-plane round runs, in this fixed order: the node lifecycle
//     controller (node-controller), the garbage collector
//     (garbage-collector-controller), the replicaset controller
//     (replicaset-controller), the deployment controller
//     (deployment-controller), the scheduler (default-scheduler), the
//     endpoints controller (endpoint-controller); the round repeats while it
//     wrote anything to the store (at most MaxRounds times), the way the
//     real components react to each other within milliseconds (the
//     replicaset controller goes before the deployment controller, so that a
//     ReplicaSet scaled by hand acts before the Deployment scales it back, as
//     the race between the two usually ends);
//     then the commands that wait are polled (see below);
//  3. the kubelets (kubelet) run, node by node (heartbeats, pulls, starts,
//     probes, crashes, terminations); the control plane sees what they
//     changed in the next tick;
//  4. each Service's requests of this second are sent to the endpoints of
//     the previous tick (kube-proxy lags), and fail on pods that are not
//     really serving;
//  5. the snapshot of the tick is taken.
//
// Before tick t+1 starts the clock advances by one second.
//
// TickOrder returns the components of steps 2 and 3 as data, each under its
// one name: the name in parentheses above, which its sync records (the
// trace's syncs[].controller) and its events carry, and under which the
// page's loop panel lists it.
//
// # Steps that wait
//
// A kubectl command that waits in kubectl (`rollout status`, `wait
// --for=...`, `drain` as it retries evictions) returns a continuation, a
// kubectl.Waiter (see core/kubectl). Its step prints what kubectl prints at
// once, then runs alongside the later steps: after each control-plane round
// (from the step's own second on) the engine polls it, until it ends. Each
// second in which it printed something or ended, the trace's steps list
// holds a result for it: the step's own at and action, that second's
// output, waiting: true until the last one, which carries the outcome and
// is checked against the step's expectError (in its first second its
// result also holds what the poll printed). The waiters are part of the
// state, so checkpoints and seeks replay them; Progress returns all a
// waiting step has printed so far, and Unfinished the steps still waiting.
// A read-only command that waits, run from the console (Run), is no step:
// it lives beside the state, is polled the same way while the simulation
// goes forward, and stops when it goes back.
//
// # Determinism and seeking
//
// All names and random choices come from the store's generator seeded with
// the scenario's seed, and nothing reads the wall clock, so the same
// scenario gives the same trace, byte for byte. The engine keeps checkpoints
// (cheap copies: stored objects are immutable and shared) every few seconds;
// SeekTo(t) restores the nearest checkpoint at or before t and replays from
// there, which is how the page scrubs backwards.
//
// # Memory
//
// A checkpoint shares with the state it was cloned from every object and
// every piece of the store and of the kubelets' state that neither wrote
// since (package persist), so it costs what changed. Options.MemoryBudget
// bounds what the checkpoints hold, as estimated (Memory): the spacing
// doubles, and the checkpoints off it go, when they would exceed it. Seeks
// then replay more seconds; memory stays bounded however long the scenario.
//
// # Trace lines
//
// WriteTraceLine writes a snapshot field by field, each stored object from
// the JSON the store keeps for its version (store.Store.WriteJSONList): the
// bytes of json.Marshal(Snapshot), at the cost of the objects that changed.
// docs/performance.md has the figures.
package sim
