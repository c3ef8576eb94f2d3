package manifest

import (
	"fmt"

	"converge/core/api"
	"converge/core/validation"
	"converge/core/validation/field"
)

// Validate checks a decoded object as the API server would on create: it
// defaults a copy (api.SetDefaults) and runs validation.ValidateObject. Each
// error is placed at the field it names, or at its nearest ancestor that was
// written in the file, with kubectl's wording:
//
//	web.yaml:12:7: The Deployment "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"api-v2"}: `selector` does not match template `labels`
func Validate(doc Doc) Problems {
	if doc.Object == nil {
		return nil
	}
	obj := doc.Object.DeepCopyObject()
	api.SetDefaults(obj)
	return PlaceErrors(doc, obj, validation.ValidateObject(obj, nil))
}

// PlaceErrors turns the API server's field errors about obj (doc's object,
// defaulted) into problems at the fields they name in doc, or at the
// nearest ancestor written in the file, in kubectl's words, dropping
// duplicates as kubectl does. Validate uses it for creates, core/scenario
// for the updates of apply steps.
func PlaceErrors(doc Doc, obj api.Object, errs field.ErrorList) Problems {
	kind, name := obj.GetTypeMeta().Kind, obj.GetObjectMeta().Name
	var probs Problems
	seen := map[string]bool{}
	for _, e := range errs {
		msg := fmt.Sprintf("The %s %q is invalid: %s", kind, name, e.Error())
		if seen[msg] {
			continue
		}
		seen[msg] = true
		pos := doc.Positions.Lookup(e.Field)
		if pos.Line == 0 {
			pos = Position{Line: max(doc.Line, 1), Col: max(doc.Col, 1)}
		}
		probs = append(probs, Problem{File: doc.File, Line: pos.Line, Col: pos.Col, Message: msg})
	}
	return probs
}
