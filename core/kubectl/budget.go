package kubectl

import (
	"encoding/json"
	"fmt"

	"converge/core/api"
)

// MaxOutput bounds what -o json and -o yaml print for one command: 64 MiB,
// about twice `get pods -o json` of the 10,000 plain pods a scenario may
// hold. Beyond it the command prints nothing and fails, checked while the
// objects are read (before the List is built), so that 10,000 pods that
// each carry a 250 KB environment value (2.5 GB as JSON) cost no more than
// the limit. A Converge limit, not a Kubernetes one: docs/limits.md.
const MaxOutput = 64 << 20

// outputTooLarge is the error of an output beyond MaxOutput.
func outputTooLarge(format string, objects int) error {
	what := "-o " + format
	if format == "describe" {
		what = "describe"
	}
	return &plainError{msg: fmt.Sprintf("the output of %s would be larger than %d MiB, the limit of one command's output in Converge "+
		"(a simulation limit, not a Kubernetes one); %s too much to print at once: name fewer objects, or use -o name or a table",
		what, MaxOutput>>20, plural(objects, "object holds", "objects hold"))}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "the " + one
	}
	return fmt.Sprintf("the %d %s", n, many)
}

// printedSize is at least the size of v printed by -o json (four spaces an
// indent level; YAML's two make it smaller): its scalars' JSON, each key
// and element on its own indented line. It stops counting once over
// limit, so that it never walks more than what fits.
func printedSize(v any, level int, limit int64) int64 {
	indent := int64(4*level + 1) // the indent and the line break
	switch x := v.(type) {
	case map[string]any:
		n := int64(2)
		for k, e := range x {
			n += indent + 4 + int64(len(k)) + 2 + printedSize(e, level+1, limit-n)
			if n > limit {
				return n
			}
		}
		return n
	case []any:
		n := int64(2)
		for _, e := range x {
			n += indent + 4 + printedSize(e, level+1, limit-n)
			if n > limit {
				return n
			}
		}
		return n
	case string:
		return int64(len(x)) + 2
	case json.Number:
		return int64(len(x))
	}
	return 5
}

// checkPrinted fails when v, printed as format, would exceed MaxOutput.
func checkPrinted(v any, format string, objects int) error {
	if printedSize(v, 0, MaxOutput) > MaxOutput {
		return outputTooLarge(format, objects)
	}
	return nil
}

// listValueWithin is the v1 List kubectl prints for several objects,
// failing as soon as the objects' JSON goes beyond MaxOutput (before the
// rest is read).
func (x *execCtx) listValueWithin(objs []api.Object, format string) (any, error) {
	total := 0
	items := make([]any, 0, len(objs))
	for _, o := range objs {
		b, err := json.Marshal(o)
		if err == nil {
			total += len(b)
		}
		if total > MaxOutput {
			return nil, outputTooLarge(format, len(objs))
		}
		items = append(items, x.printValue(o))
	}
	v := map[string]any{"apiVersion": "v1", "items": items, "kind": "List",
		"metadata": map[string]any{"resourceVersion": ""}}
	return v, checkPrinted(v, format, len(objs))
}
