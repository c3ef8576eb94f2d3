package sim

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"converge/core/api"
)

// planField is one field of Snapshot as a trace line writes it.
type planField struct {
	// key is the field's name as JSON with what comes before it: `{"t":`
	// for the first field, `,"pods":` for the others.
	key []byte
	// index is the field's index in Snapshot.
	index int
	// kind is the kind of the objects of an object list ([]*api.Pod ...),
	// which the store writes; "" for any other field.
	kind string
}

// plan is Snapshot's fields in order, read from its type once.
var plan = newPlan(reflect.TypeFor[Snapshot]())

func snapshotPlan() []planField { return plan }

// newPlan reads the fields of a snapshot struct. Every exported field must
// have a plain json name (or "-"): the writer does not do omitempty, and
// fails at start-up rather than write other bytes than json.Marshal would.
func newPlan(t reflect.Type) []planField {
	objectType := reflect.TypeFor[api.Object]()
	var out []planField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		if tag == "" || strings.Contains(tag, ",") {
			panic(fmt.Sprintf("sim: Snapshot.%s: the trace writer needs a plain json name, not %q", f.Name, tag))
		}
		sep := ","
		if len(out) == 0 {
			sep = "{"
		}
		name, _ := json.Marshal(tag)
		pf := planField{key: []byte(sep + string(name) + ":"), index: i}
		if f.Type.Kind() == reflect.Slice && f.Type.Elem().Implements(objectType) && f.Type.Elem().Kind() == reflect.Pointer {
			obj := reflect.New(f.Type.Elem().Elem()).Interface().(api.Object)
			pf.kind = api.KindOf(obj)
			if pf.kind == "" {
				panic(fmt.Sprintf("sim: Snapshot.%s: %s is not a stored kind", f.Name, f.Type.Elem()))
			}
		}
		out = append(out, pf)
	}
	return out
}

// value returns the field of snap.
func (f planField) value(snap *Snapshot) any {
	return reflect.ValueOf(snap).Elem().Field(f.index).Interface()
}

// setObjects sets the object list field of snap to objs, converted to the
// field's element type.
func (f planField) setObjects(snap *Snapshot, objs []api.Object) {
	fv := reflect.ValueOf(snap).Elem().Field(f.index)
	list := reflect.MakeSlice(fv.Type(), len(objs), len(objs))
	for i, o := range objs {
		list.Index(i).Set(reflect.ValueOf(o))
	}
	fv.Set(list)
}
