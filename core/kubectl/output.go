package kubectl

import (
	"encoding/json"
	"fmt"
	"strings"

	"converge/core/api"
	"converge/core/kubectl/yamlprint"
)

// Output formats Converge prints.
const (
	outputWide = "wide"
	outputYAML = "yaml"
	outputJSON = "json"
	outputName = "name"
)

// checkOutput validates -o for a command that prints objects; wide only
// applies to get.
func checkOutput(format string, wideOK bool) error {
	switch format {
	case "", outputYAML, outputJSON, outputName:
		return nil
	case outputWide:
		if wideOK {
			return nil
		}
	}
	allowed := "json,name,yaml"
	if wideOK { // kubectl get, which also prints -o jsonpath=... and -o custom-columns=... (template.go)
		allowed = "custom-columns,json,jsonpath,name,wide,yaml"
	}
	return &plainError{msg: fmt.Sprintf("unable to match a printer suitable for the output format %q, allowed formats are: %s", format, allowed)}
}

// objectValue is an object as kubectl's printers see it: its JSON decoded
// into maps, so that keys print sorted.
func objectValue(obj api.Object) any {
	v, err := toJSONValue(obj)
	if err != nil {
		return map[string]any{}
	}
	return v
}

// printValue is an object as -o yaml|json prints it: with
// metadata.managedFields when --show-managed-fields is given, which kubectl
// strips otherwise (the store keeps them beside the object).
func (x *execCtx) printValue(obj api.Object) any {
	v := objectValue(obj)
	if !x.cmd.boolean(fShowManaged.name) {
		return v
	}
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	meta, ok := m["metadata"].(map[string]any)
	if !ok {
		return v
	}
	var entries []any
	for _, e := range x.st.ManagedFields(obj.GetObjectMeta().UID) {
		ev, err := toJSONValue(e)
		if err == nil {
			entries = append(entries, ev)
		}
	}
	if len(entries) > 0 {
		meta["managedFields"] = entries
	}
	return v
}

// formatValue prints a value as -o yaml or -o json does.
func formatValue(v any, format string) string {
	if format == outputJSON {
		b, err := json.MarshalIndent(v, "", "    ")
		if err != nil {
			return "{}\n"
		}
		return string(b) + "\n"
	}
	return yamlprint.Marshal(v)
}

// printObject is what a command that changed an object prints: the name
// printer's "<kind>/<name> <operation>" or, with -o yaml|json, the object.
func (x *execCtx) printObject(rt *resourceType, obj api.Object, operation string) {
	switch f := x.cmd.str("output"); f {
	case outputYAML, outputJSON:
		if f == outputYAML && x.printed > 0 {
			x.out.WriteString("---\n")
		}
		x.printed++
		x.out.WriteString(formatValue(x.printValue(obj), f))
	default:
		x.printName(rt, obj.GetObjectMeta().Name, operation)
	}
}

// toJSONValue turns an object into the generic value kubectl's printers see.
func toJSONValue(obj any) (any, error) {
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
