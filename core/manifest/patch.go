package manifest

import (
	"reflect"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
)

// DecodePatch reads a JSON merge patch (RFC 7386) for an object of kind,
// written as YAML (a scenario's variant patches, docs/scenarios.md). The
// patch is decoded strictly against the kind's fields, as an object is:
// unknown fields (with a "did you mean"), duplicate keys and values of the
// wrong type are problems at their line and column; fields Converge does not
// simulate are notes. null is allowed anywhere: in a merge patch it deletes
// the field. It returns the patch as JSON, in the key order written, and
// where each field path was written (the empty path is the patch itself), so
// that the errors of the patched object can be placed in the patch with
// PlaceErrors. A patch must be a mapping; on errors the JSON is nil.
func DecodePatch(n *yaml.Node, kind, file string) ([]byte, Positions, Problems) {
	x, probs := Expand(n, file)
	x = unwrapDocument(x)
	d := newDecoder(file, ignoredFields)
	r := api.ResourceFor(kind)
	switch {
	case r == nil:
		d.problem(x, "internal error: no resource of kind %q", kind)
		return nil, d.pos, append(probs, d.probs...)
	case x.Kind != yaml.MappingNode:
		d.problem(x, "a patch must be a mapping of the fields to change, not %s", describe(x))
		return nil, d.pos, append(probs, d.probs...)
	}
	d.pos.set("", posOf(x), posOf(x))
	d.decode(x, reflect.ValueOf(r.New()).Elem(), path{})
	probs = append(probs, d.probs...)
	if probs.HasErrors() {
		return nil, d.pos, probs
	}
	// The fields decoded, so the JSON form has nothing left to report.
	j := newDecoder(file, nil)
	js, ok := j.toJSON(x)
	if !ok {
		return nil, d.pos, append(probs, j.probs...)
	}
	return js, d.pos, probs
}
