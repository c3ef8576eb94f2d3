// Package scenario reads Converge's scenario files (docs/scenarios.md): a name, a
// seed, a cluster (nodes, timings, image behaviour), the objects applied at
// t=0 and timed steps (kubectl, apply, fault, expect). A plain manifest file
// is a scenario too.
//
// Parsing is strict and reports every problem at once as FILE:LINE:COL:
// unknown or mistyped fields, bad durations, names, quantities, faults and
// expect expressions, steps with the wrong number of actions, invalid
// objects (decoded and validated by core/manifest) and the limits of one
// simulation (500 nodes, 10,000 replicas).
//
// A parsed scenario keeps its YAML tree, so that steps added at run time
// (AppendStep) are written back into it by Marshal with the file's comments
// intact; share links (EncodeShare, DecodeShare) carry that YAML.
//
// Parse is the one validation policy of every entry point (the command
// line, the page's editor, the JS API): beyond the file itself it parses
// each kubectl step with the kubectl subset's parser (kubectl.Check) and
// validates each apply step as an update of the object it replaces, so that
// what would fail only when the step runs is a problem at load time; a step
// with expectError is exempt. Inputs are bounded by MaxFileSize (ReadAll).
// kubectl lines are kept as strings; the engine runs them.
package scenario
