package scenario

import (
	"slices"
	"strings"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/manifest"
	"converge/core/validation"
)

// checkUpdates validates the objects of each apply step as updates of the
// objects they replace, as the API server will when the step runs: an
// object replaces the one last applied under its kind and name, in objects
// or an earlier apply step. A change of an immutable field, such as a
// Deployment's selector, is then a problem at that field of the step:
//
//	s.yaml:22:7: The Deployment "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"api"}}: field is immutable
//
// A step with expectError is meant to fail: it is neither checked nor
// counted as applied. A kubectl delete step forgets what it deletes, so
// that a later apply creates the object anew. With variants, the steps are
// checked against each variant's objects too; a problem only a variant has
// says so ("in variant "recreate": ...").
func (p *parser) checkUpdates(s *Scenario) {
	written := updateProblems(s.writtenObjects(), s.Steps)
	p.probs = append(p.probs, written...)
	// A variant's objects may make a step fail that the file's do not.
	for _, v := range s.Variants {
		if len(v.Patches) == 0 {
			continue
		}
		for _, pr := range updateProblems(v.Objects, s.Steps) {
			if !slices.Contains(written, pr) {
				pr.Message = variantPrefix(v) + pr.Message
				p.probs = append(p.probs, pr)
			}
		}
	}
}

// updateProblems checks the apply steps against objects (see checkUpdates).
func updateProblems(objects []manifest.Doc, steps []Step) Problems {
	var probs Problems
	last := map[string]api.Object{}
	for _, d := range objects {
		last[objectKey(d.Object)] = defaulted(d.Object)
	}
	for _, st := range steps {
		switch {
		case st.ExpectError != "":
		case st.Kubectl != "":
			forgetDeleted(last, st.Kubectl)
		default:
			for _, d := range st.Apply {
				k, obj := objectKey(d.Object), defaulted(d.Object)
				if old, ok := last[k]; ok {
					probs = append(probs, manifest.PlaceErrors(d, obj, validation.ValidateObject(obj, old))...)
				}
				last[k] = obj
			}
		}
	}
	return probs
}

// objectKey is KIND/NAME.
func objectKey(o api.Object) string { return o.GetTypeMeta().Kind + "/" + o.GetObjectMeta().Name }

// defaulted is a defaulted copy of o, as the API server stores it.
func defaulted(o api.Object) api.Object {
	c := o.DeepCopyObject()
	api.SetDefaults(c)
	return c
}

// forgetDeleted drops from last what a `kubectl delete` line may delete:
// `delete KIND NAME...`, `delete KIND/NAME...`, and every object of KIND
// for `delete KIND -l SELECTOR` or `--all`. A resource name the scenario
// does not know stands for every kind (the step's error, if it is one,
// shows at run time).
func forgetDeleted(last map[string]api.Object, line string) {
	c, err := kubectl.Parse(line)
	if err != nil || len(c.Path) != 1 || c.Path[0] != "delete" {
		return
	}
	forget := func(resource, name string) {
		kind, known := LookupKind(resource)
		for k := range last { // deleting: the order does not matter
			kk, kn, _ := strings.Cut(k, "/")
			if (!known || kk == kind) && (name == "" || kn == name) {
				delete(last, k)
			}
		}
	}
	var types []string
	names := 0
	for i, a := range c.Args {
		if resource, name, ok := strings.Cut(a, "/"); ok {
			forget(resource, name)
			continue
		}
		if i == 0 {
			types = strings.Split(a, ",")
			continue
		}
		names++
		for _, t := range types {
			forget(t, a)
		}
	}
	if names == 0 {
		for _, t := range types {
			forget(t, "")
		}
	}
}
