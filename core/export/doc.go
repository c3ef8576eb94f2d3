// Package export turns a scenario, or the run of one, into files for other
// tools: a bash script that replays the scenario on a real cluster with
// kubectl (Kubectl, `converge export-kubectl`), the trace as JSONL (Trace,
// the bytes of `converge run --output jsonl`) and the charts as a
// standalone SVG document (ChartsSVG). The page offers each as a download;
// docs/sharing.md describes them.
//
// Everything here is pure: the functions take a scenario or a view model
// and return bytes, so that the command line, the page and the tests get
// the same output.
package export
