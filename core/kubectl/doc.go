// Package kubectl is the kubectl subset Converge understands: it parses a
// command line the way kubectl (cobra and pflag) does, runs it against the
// in-memory API server of core/store, and prints kubectl's own output and
// error texts, so that what a user types in a scenario step, the page's
// console or `converge kubectl` behaves as it would against a real cluster.
//
// The commands are apply, create deployment|configmap, get, describe, scale,
// set image|env, patch, label, annotate, rollout
// status|history|undo|restart|pause|resume, delete, cordon, uncordon, drain,
// wait, version and api-resources. Every user-visible text is defined once, in
// messages.go, and pinned by table and golden tests.
//
// Output follows kubectl closely:
//   - tables use kubectl's columns and tab writer settings, ages are
//     apimachinery's HumanDuration against the store's simulated clock;
//   - `-o yaml` and `-o json` print the object as kubectl prints an
//     unstructured object (keys sorted at every level, go-yaml v2 layout);
//   - describe reproduces kubectl's describers, including their alignment.
//
// What kubectl writes to stdout goes to Result.Output and what it writes to
// stderr as an error goes to Result.Error, each without the final newline.
// Two deliberate differences: warnings ("Warning: ...") and
// "No resources found in default namespace." are informational stderr lines
// in kubectl; here they are part of Output, so that a successful command has
// an empty Error.
//
// A command reads and writes only through the store; there is no controller
// behind it.
//
// # Commands that wait
//
// Where kubectl blocks on a watch (`rollout status`, `wait --for=...`, a
// drain retrying its evictions), Exec does what kubectl does at once
// (check the arguments, look at the cluster, print the first line) and
// returns the rest of the command as a continuation, Result.Wait, a Waiter.
// Nothing here blocks or runs in the background: the caller polls the
// Waiter, which reads the cluster and the time from the Env it is given,
// prints what changed (Poll.Output), and reports when the command has ended
// and with which error text (Poll.Error), e.g. `error: timed out waiting
// for the condition`. The simulation (core/sim) polls each waiting step
// once a second after the control plane's round, so its lines land in the
// trace in the second kubectl would print them. A Waiter keeps its own
// state (what it printed, its --timeout deadline) and Clone copies it for
// checkpoints. To make a command wait: do its first look in the run
// function, then set x.wait to a Waiter that does the rest (see waiter.go).
// `delete --wait` does not wait: the deletion is done when the command
// returns.
package kubectl
