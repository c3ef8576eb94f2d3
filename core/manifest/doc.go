// Package manifest decodes Kubernetes manifests (YAML or JSON, several
// documents, or a `kind: List` as `kubectl get -o yaml` prints several
// objects) into core/api objects, strictly and with positions.
//
// Decoding never stops at the first problem. Every problem is a Problem
// rendered `FILE:LINE:COL: message`:
//
//   - YAML syntax errors, with the parser's line;
//   - unknown fields, at the key, with a "did you mean" hint for a close match;
//   - wrong types (`cannot decode a string into spec.replicas (an integer)`), at
//     the value;
//   - duplicate keys, and label or annotation values that are not strings
//     (`metadata.labels.version: must be a string; quote it: "1.0"`);
//   - kinds that are not registered (`no kind "Foo" is registered for version
//     "v1"`);
//   - aliases that refer to themselves, or that would expand the stream
//     beyond MaxFileSize (4 MiB, the file and its aliases together), at the
//     alias that goes over.
//
// Output of `kubectl get -o yaml` is accepted: fields the API server sets
// (status, metadata.uid, metadata.resourceVersion, metadata.managedFields ...)
// are dropped with a Note instead of an error, and Kubernetes fields that
// Converge does not simulate (hostAliases, dnsConfig ...) are ignored with a
// Note.
//
// Each decoded object comes with its Positions, a map from a field path as
// core/validation/field writes it (spec.template.spec.containers[0].image,
// metadata.labels[app]) to its line and column, so that Validate can put the
// API server's validation errors at their line.
package manifest
