package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"converge/core/api"
	"converge/core/manifest"
	"converge/core/store"
)

// A scenario may hold variants (docs/scenarios.md, "Variants"): what-ifs of
// the same scenario, each the scenario with JSON merge patches (RFC 7386)
// applied to its objects at t=0, by KIND/NAME:
//
//	variants:
//	- name: default            # no patch: the scenario as written
//	- name: no-surge
//	  patch:
//	    deployment/web: {spec: {strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}}}
//
// Parse checks every variant as it checks the scenario (a patched object is
// validated as the API server validates a create, its errors placed in the
// patch; the apply steps are checked against each variant's objects), and
// returns the scenario with its first variant selected: Objects are that
// variant's. WithVariant selects another. Marshal writes the scenario as
// written, variants included, whichever is selected.

// MinVariants and MaxVariants bound how many variants a scenario has, when
// it has any.
const (
	MinVariants = 2
	MaxVariants = 6
)

// Variant is one what-if of a scenario.
type Variant struct {
	Name string
	// Patches are the variant's merge patches, in file order.
	Patches []Patch
	// Objects are the scenario's objects with the patches applied, in the
	// order of objects. A patched object's positions are those of its patch.
	Objects []manifest.Doc
	// Line and Col are where the variant is written (0 for one built in
	// code).
	Line, Col int
}

// Patch is one JSON merge patch of a variant.
type Patch struct {
	// Target is KIND/NAME as written (deploy/web); Kind and Name the object
	// it stands for (Deployment, web).
	Target, Kind, Name string
	// JSON is the merge patch.
	JSON []byte
	// Line and Col are where the patch's KIND/NAME key is written.
	Line, Col int
	// node is the patch as written, for Marshal; pos where its fields are.
	node *yaml.Node
	pos  manifest.Positions
}

type rawVariant struct {
	Name  *yaml.Node `json:"name"`
	Patch *yaml.Node `json:"patch"`
}

// VariantNames lists the variants' names in file order; nil when there are
// none.
func (s *Scenario) VariantNames() []string {
	var out []string
	for _, v := range s.Variants {
		out = append(out, v.Name)
	}
	return out
}

// Selected is the name of the variant whose objects Objects are; "" when
// the scenario has no variants.
func (s *Scenario) Selected() string {
	if len(s.Variants) == 0 {
		return ""
	}
	return s.Variants[s.selected].Name
}

// UnknownVariantError is WithVariant's error for a name the scenario does
// not have.
type UnknownVariantError struct {
	Name  string
	Names []string
}

func (e *UnknownVariantError) Error() string {
	if len(e.Names) == 0 {
		return fmt.Sprintf("unknown variant %q: the scenario has no variants", e.Name)
	}
	return fmt.Sprintf("unknown variant %q: the scenario's variants are %s", e.Name, strings.Join(e.Names, ", "))
}

// WithVariant returns a copy of the scenario with the variant name
// selected: its Objects are that variant's. The copy is independent: steps
// appended to it (AppendStep) do not reach s. An unknown name is an
// *UnknownVariantError.
func (s *Scenario) WithVariant(name string) (*Scenario, error) {
	i := slices.IndexFunc(s.Variants, func(v Variant) bool { return v.Name == name })
	if i < 0 {
		return nil, &UnknownVariantError{Name: name, Names: s.VariantNames()}
	}
	c := *s
	c.selected = i
	c.Objects = s.Variants[i].Objects
	c.Steps = slices.Clone(s.Steps)
	c.srcSteps = slices.Clone(s.srcSteps)
	c.Notes = slices.Clone(s.Notes)
	if s.src != nil {
		c.src = copyNode(s.src)
	}
	return &c, nil
}

// writtenObjects are the objects as the file writes them, before any
// variant's patches.
func (s *Scenario) writtenObjects() []manifest.Doc {
	if s.base != nil {
		return s.base
	}
	return s.Objects
}

// copyNode is a deep copy of a YAML tree (aliases keep pointing into the
// copy when their anchor is in it).
func copyNode(n *yaml.Node) *yaml.Node {
	seen := map[*yaml.Node]*yaml.Node{}
	var cp func(*yaml.Node) *yaml.Node
	cp = func(n *yaml.Node) *yaml.Node {
		if n == nil {
			return nil
		}
		if c, ok := seen[n]; ok {
			return c
		}
		c := *n
		seen[n] = &c
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, k := range n.Content {
			c.Content[i] = cp(k)
		}
		c.Alias = cp(n.Alias)
		return &c
	}
	return cp(n)
}

// variants reads the scenario's variants and applies their patches to
// objects (the scenario's objects, valid on their own when checkObjects).
func (p *parser) variants(raw []rawVariant, objects []manifest.Doc, checkObjects bool) []Variant {
	if raw == nil {
		return nil
	}
	switch {
	case len(raw) < MinVariants:
		p.problem(p.pos.Lookup("variants"), "variants: a scenario has %d to %d variants, not %d (without variants it runs as written)",
			MinVariants, MaxVariants, len(raw))
	case len(raw) > MaxVariants:
		p.problem(p.pos.Lookup(fmt.Sprintf("variants[%d]", MaxVariants)), "variants: a scenario has at most %d variants, not %d",
			MaxVariants, len(raw))
	}
	out := make([]Variant, 0, len(raw))
	names := map[string]int{}
	for i, rv := range raw {
		path := fmt.Sprintf("variants[%d]", i)
		vpos := p.pos.Lookup(path)
		v := Variant{Line: vpos.Line, Col: vpos.Col}
		if name, ok := p.name(rv.Name, path); ok {
			if j, dup := names[name]; dup {
				p.problem(nodePos(rv.Name), "%s.name: duplicate variant name %q (variants[%d] has it)", path, name, j)
			}
			names[name] = i
			v.Name = name
		}
		v.Patches = p.patches(rv.Patch, path+".patch", objects)
		if checkObjects {
			v.Objects = p.patchObjects(v, objects)
		}
		out = append(out, v)
	}
	return out
}

// patches reads a variant's patch: a mapping of KIND/NAME to a merge patch.
func (p *parser) patches(n *yaml.Node, path string, objects []manifest.Doc) []Patch {
	if n == nil || isNull(n) {
		return nil
	}
	x, probs := manifest.Expand(n, p.file)
	p.probs = append(p.probs, probs...)
	if probs.HasErrors() {
		return nil
	}
	if x.Kind != yaml.MappingNode {
		p.problem(nodePos(x), "%s: must be a mapping of KIND/NAME to a merge patch, such as deployment/web: {spec: {replicas: 3}}", path)
		return nil
	}
	var out []Patch
	seen := map[string]int{}
	for i := 0; i+1 < len(x.Content); i += 2 {
		k, v := x.Content[i], x.Content[i+1]
		target, ok := p.str(k, path+" key")
		if !ok {
			continue
		}
		kind, name, ok := p.patchTarget(k, target, path, objects)
		if !ok {
			continue
		}
		key := kind + "/" + name
		if line, dup := seen[key]; dup {
			p.problem(nodePos(k), "%s: %s is patched twice in this variant (first at line %d)", path, target, line)
			continue
		}
		seen[key] = nodePos(k).Line
		js, pos, probs := manifest.DecodePatch(v, kind, p.file)
		p.probs = append(p.probs, probs...)
		if probs.HasErrors() {
			continue
		}
		kp := nodePos(k)
		out = append(out, Patch{Target: target, Kind: kind, Name: name, JSON: js, Line: kp.Line, Col: kp.Col, node: v, pos: pos})
	}
	return out
}

// patchTarget resolves KIND/NAME (kubectl's spellings of KIND) to an object
// of objects.
func (p *parser) patchTarget(k *yaml.Node, target, path string, objects []manifest.Doc) (kind, name string, ok bool) {
	kindName, name, found := strings.Cut(target, "/")
	if !found || name == "" || kindName == "" {
		p.problem(nodePos(k), "%s: %q: a patch's key is KIND/NAME of one of the objects, such as deployment/web", path, target)
		return "", "", false
	}
	kind, known := LookupKind(kindName)
	if !known {
		msg := fmt.Sprintf("%s: unknown kind %q", path, kindName)
		if s := manifest.Suggest(kindName, kindNameList()); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		p.problem(nodePos(k), "%s", msg)
		return "", "", false
	}
	var candidates []string
	for _, d := range objects {
		k2, n2 := d.Object.GetTypeMeta().Kind, d.Object.GetObjectMeta().Name
		if k2 == kind && n2 == name {
			return kind, name, true
		}
		candidates = append(candidates, resourceName(k2)+"/"+n2)
	}
	msg := fmt.Sprintf("%s: no object %s in objects (a patch changes the objects applied at t=0)", path, resourceName(kind)+"/"+name)
	if s := manifest.Suggest(resourceName(kind)+"/"+name, candidates); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	p.problem(nodePos(k), "%s", msg)
	return "", "", false
}

// patchObjects applies a variant's patches to objects and validates each
// patched object as a create, its errors placed in its patch.
func (p *parser) patchObjects(v Variant, objects []manifest.Doc) []manifest.Doc {
	out := slices.Clone(objects)
	for _, pt := range v.Patches {
		for i, d := range out {
			if d.Object.GetTypeMeta().Kind != pt.Kind || d.Object.GetObjectMeta().Name != pt.Name {
				continue
			}
			nd, ok := p.patchObject(d, pt)
			if ok {
				out[i] = nd
			}
		}
	}
	return out
}

// patchObject applies one patch to one object.
func (p *parser) patchObject(d manifest.Doc, pt Patch) (manifest.Doc, bool) {
	pos := pt.pos
	at := func(field string) manifest.Position {
		if q := pos.Lookup(field); q.Line > 0 {
			return q
		}
		return manifest.Position{Line: pt.Line, Col: pt.Col}
	}
	if pos.Has("status") {
		p.problem(at("status"), "%s: a patch cannot set status: the cluster writes it (patch metadata and spec)", pt.Target)
		return d, false
	}
	obj, err := ApplyPatch(d.Object, pt.JSON)
	if err != nil {
		p.problem(at(""), "%s: %v", pt.Target, err)
		return d, false
	}
	om, nm := d.Object.GetObjectMeta(), obj.GetObjectMeta()
	ot, nt := d.Object.GetTypeMeta(), obj.GetTypeMeta()
	for _, c := range []struct{ field, was, is string }{
		{"apiVersion", ot.APIVersion, nt.APIVersion}, {"kind", ot.Kind, nt.Kind},
		{"metadata.name", om.Name, nm.Name}, {"metadata.namespace", om.Namespace, nm.Namespace},
	} {
		if c.was != c.is {
			p.problem(at(c.field), "%s: a patch cannot change %s (from %q to %q): it patches the object, it does not replace it",
				pt.Target, c.field, c.was, c.is)
			return d, false
		}
	}
	nd := manifest.Doc{Object: obj, Positions: pos, Line: pt.Line, Col: pt.Col, File: d.File}
	probs := manifest.Validate(nd)
	p.probs = append(p.probs, probs...)
	return nd, !probs.HasErrors()
}

// ApplyPatch returns a copy of obj with an RFC 7386 JSON merge patch
// applied (store.MergeValue: objects merge, null deletes, anything else
// replaces); obj is not changed. Numbers keep their written digits.
func ApplyPatch(obj api.Object, patch []byte) (api.Object, error) {
	orig, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	doc, err := decodeJSON(orig)
	if err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	pv, err := decodeJSON(patch)
	if err != nil {
		return nil, fmt.Errorf("invalid merge patch: %v", err)
	}
	if _, ok := pv.(map[string]any); !ok {
		return nil, fmt.Errorf("a merge patch must be a mapping")
	}
	merged, err := json.Marshal(store.MergeValue(doc, pv))
	if err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	kind := obj.GetTypeMeta().Kind
	next := store.NewObject(kind)
	if next == nil {
		return nil, fmt.Errorf("internal error: unknown kind %q", kind)
	}
	if err := json.Unmarshal(merged, next); err != nil {
		return nil, fmt.Errorf("the patched object does not decode: %v", err)
	}
	return next, nil
}

func decodeJSON(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// variantNode writes a variant for a scenario built in code.
func variantNode(v Variant) *yaml.Node {
	m := mapNode("name", strNode(v.Name))
	if len(v.Patches) == 0 {
		return m
	}
	patch := mapNode()
	for _, pt := range v.Patches {
		n := pt.node
		if n == nil {
			n = jsonNode(pt.JSON)
		}
		patch.Content = append(patch.Content, strNode(pt.Target), n)
	}
	m.Content = append(m.Content, strNode("patch"), patch)
	return m
}

// jsonNode is the YAML of a JSON text, in flow style.
func jsonNode(js []byte) *yaml.Node {
	var n yaml.Node
	if yaml.Unmarshal(js, &n) != nil || len(n.Content) == 0 {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}
	}
	root := n.Content[0]
	var flow func(*yaml.Node)
	flow = func(n *yaml.Node) {
		n.Line, n.Column = 0, 0
		if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
			n.Style = yaml.FlowStyle
		} else if n.Style == yaml.DoubleQuotedStyle && n.Tag == "!!str" {
			n.Style = 0
		}
		for _, c := range n.Content {
			flow(c)
		}
	}
	flow(root)
	return root
}

// variantsNode writes the variants, or nil.
func variantsNode(vs []Variant) *yaml.Node {
	if len(vs) == 0 {
		return nil
	}
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, v := range vs {
		seq.Content = append(seq.Content, variantNode(v))
	}
	return seq
}

// variantPrefix names a variant in a problem that only it has.
func variantPrefix(v Variant) string {
	return "in variant " + strconv.Quote(v.Name) + ": "
}

// selectVariants reads the variants of s (when objectsOK, the objects are
// valid and the patched ones are checked too) and selects the first.
func (p *parser) selectVariants(s *Scenario, raw []rawVariant, objectsOK bool) {
	s.Variants = p.variants(raw, s.Objects, objectsOK)
	if len(s.Variants) == 0 || !objectsOK {
		return
	}
	s.base = s.Objects
	for _, v := range s.Variants {
		if len(v.Patches) > 0 {
			p.checkReplicas(v.Objects, "variant "+strconv.Quote(v.Name)+" asks for")
		}
	}
	s.Objects = s.Variants[0].Objects
}

// String is the patch as a line of YAML: `deploy/web: {spec: {replicas: 3}}`.
func (p Patch) String() string {
	b, err := encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{jsonNode(p.JSON)}})
	if err != nil {
		return p.Target + ": " + string(p.JSON)
	}
	return p.Target + ": " + strings.TrimSpace(string(b))
}
