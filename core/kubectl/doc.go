// Package kubectl is the kubectl subset Converge understands: it parses a
// command line the way kubectl (cobra and pflag) does, runs it against the
// in-memory API server of core/store, and prints kubectl's own output and
// error texts, so that what a user types in a scenario step, the page's
// console or `converge kubectl` behaves as it would against a real cluster.
//
// The commands are apply, create deployment|configmap, get, describe, scale,
// set image|env, patch, label, annotate, rollout
// status|history|undo|restart|pause|resume, delete, cordon, uncordon, drain,
// version and api-resources. Every user-visible text is defined once, in
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
// behind it. Commands that wait in kubectl (rollout status --watch, delete
// --wait, drain) print the state of the moment instead of blocking.
package kubectl
