// Package scenarios is Converge's built-in scenario library: the YAML files
// of this folder (format in docs/scenarios.md), embedded in
// the binary and the wasm so that the page and `converge run` can load them by
// name. A scenario's name is its file name without .yaml.
package scenarios

import "embed"

// FS holds the scenario files, one NAME.yaml each, at its root.
//
//go:embed *.yaml
var FS embed.FS

// Lessons is the learning path: the library grouped and ordered into
// lessons (core/lesson reads it; docs/scenarios.md, "The learning path").
//
//go:embed path/lessons.yaml
var Lessons []byte
