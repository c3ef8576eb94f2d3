package kubectl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// sortInfos is kubectl get --sort-by=JSONPATH (the RuntimeSorter): the
// objects ordered by the first value the path reaches in each, numbers by
// value and anything else as text, a stable sort; an object without the
// field goes first. A path no object has is an error, as in kubectl.
func (x *execCtx) sortInfos(infos []info, field string) error {
	expr, err := relaxedJSONPathExpression(field)
	if err != nil {
		return &plainError{msg: err.Error()}
	}
	p, err := parseJSONPath(expr)
	if err != nil {
		return &plainError{msg: err.Error()}
	}
	type keyed struct {
		in    info
		has   bool
		num   float64
		isNum bool
		text  string
	}
	ks := make([]keyed, len(infos))
	found := false
	for i, in := range infos {
		ks[i].in = in
		res := p.results(x.printValue(in.obj))
		if len(res) == 0 {
			continue
		}
		found, ks[i].has = true, true
		switch v := res[0].(type) {
		case json.Number:
			f, err := v.Float64()
			ks[i].num, ks[i].isNum = f, err == nil
		case string:
			ks[i].text = v
		default:
			ks[i].text = jsonPathText(v)
		}
	}
	if !found && len(infos) > 0 {
		return &plainError{msg: fmt.Sprintf("couldn't find any field with path %q in the list of objects", expr)}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		a, b := ks[i], ks[j]
		switch {
		case a.has != b.has:
			return !a.has
		case a.isNum && b.isNum:
			return a.num < b.num
		}
		return strings.Compare(a.text, b.text) < 0
	})
	for i := range ks {
		infos[i] = ks[i].in
	}
	return nil
}
