package view

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/kubectl"
	"converge/core/labels"
	"converge/core/sim"
	"converge/core/store"
)

// Ownership is who selects and who owns which pods: the Deployments' and
// ReplicaSets' selectors, the Services', and the pods grouped by their
// labels and controller.
type Ownership struct {
	Selectors []SelectorRow
	Groups    []PodGroup
	// Notes explain what the groups show (unowned pods that still get
	// traffic, ReplicaSets whose pods' labels left the selector).
	Notes []Note
	// Rejected are the refusals of this second about a selector or the
	// template's labels (MarkRejected): the selector the API server
	// refused, with its text.
	Rejected []Rejection
}

// SelectorRow is one object that selects pods.
type SelectorRow struct {
	// Key is "deployment/web".
	Key  string
	Kind string
	Name string
	// Selector is the -l form: "app=web,pod-template-hash=5d9c7b8f4".
	Selector string
	// Labels is the pod template's labels ("" for a Service).
	Labels string
	// Hash is a ReplicaSet's pod-template-hash; Owner its controller.
	Hash, Owner string
	// Pods counts the pods the selector matches.
	Pods int
	// Rejected is the API server's text when a change of this object's
	// selector or labels was refused this second (MarkRejected).
	Rejected string
}

// MarkRejected marks the rows whose selector or template labels a refusal
// of this second (Rejections) is about, and keeps those refusals in
// Rejected: the refused selector of an object that does not exist (its
// create was refused) is listed there alone.
func (o *Ownership) MarkRejected(rs []Rejection) {
	for _, r := range rs {
		if !strings.Contains(r.Message, "selector") && !strings.Contains(r.Message, "labels") {
			continue
		}
		o.Rejected = append(o.Rejected, r)
		for i := range o.Selectors {
			if o.Selectors[i].Key == r.Object {
				o.Selectors[i].Rejected = r.Message
			}
		}
	}
}

// PodGroup is the pods that share labels and controller.
type PodGroup struct {
	// Key is the labels and the controller's uid.
	Key    string
	Labels string
	// Controller is "replicaset/web-5d9c7b8f4", or "none".
	Controller string
	// MatchedBy lists the selectors that match these labels: "deployment/web", "service/web".
	MatchedBy []string
	Pods      int
	// Names are the first MaxGroupNames pod names.
	Names []string
	// Traffic is set when a Service sends traffic to at least one of them
	// (they are ready addresses of its Endpoints).
	Traffic bool
	// Warning explains a group that needs attention ("" otherwise).
	Warning string
}

// MaxGroupNames bounds the names listed per group.
const MaxGroupNames = 5

type selectorOf struct {
	row *SelectorRow
	sel labels.Selector
}

// OwnershipOf computes the ownership view of the whole namespace.
func OwnershipOf(s *sim.Sim) Ownership {
	st := s.Store()
	var out Ownership
	var sels []selectorOf
	addSel := func(row SelectorRow, sel labels.Selector) {
		out.Selectors = append(out.Selectors, row)
		sels = append(sels, selectorOf{sel: sel})
	}
	for _, d := range st.Deployments() {
		sel := labels.MustFromLabelSelector(d.Spec.Selector)
		addSel(SelectorRow{Key: store.ShortRef(api.KindDeployment, d.Name), Kind: api.KindDeployment, Name: d.Name, Selector: sel.String(),
			Labels: labels.FormatLabels(d.Spec.Template.Labels)}, sel)
	}
	for _, rs := range st.ReplicaSets() {
		sel := labels.MustFromLabelSelector(rs.Spec.Selector)
		row := SelectorRow{Key: store.ShortRef(api.KindReplicaSet, rs.Name), Kind: api.KindReplicaSet, Name: rs.Name, Selector: sel.String(),
			Labels: labels.FormatLabels(rs.Spec.Template.Labels), Hash: rs.Labels[api.DefaultDeploymentUniqueLabelKey], Owner: "none"}
		if ref := api.GetControllerOf(&rs.ObjectMeta); ref != nil {
			row.Owner = store.ShortRef(ref.Kind, ref.Name)
		}
		addSel(row, sel)
	}
	for _, svc := range st.Services() {
		if len(svc.Spec.Selector) == 0 {
			continue
		}
		sel := labels.SelectorFromSet(svc.Spec.Selector)
		addSel(SelectorRow{Key: store.ShortRef(api.KindService, svc.Name), Kind: api.KindService, Name: svc.Name, Selector: sel.String()}, sel)
	}
	for i := range sels {
		sels[i].row = &out.Selectors[i]
	}
	serving := servedPods(st)
	groups := map[string]*PodGroup{}
	var order []string
	st.EachPod(func(p *api.Pod) bool {
		if !api.IsPodActive(p) {
			return true
		}
		ctl, ctlUID := "none", ""
		if ref := api.GetControllerOf(&p.ObjectMeta); ref != nil {
			ctl, ctlUID = store.ShortRef(ref.Kind, ref.Name), ref.UID
		}
		lbl := labels.FormatLabels(p.Labels)
		key := lbl + "|" + ctlUID
		g, ok := groups[key]
		if !ok {
			g = &PodGroup{Key: key, Labels: lbl, Controller: ctl}
			for _, so := range sels {
				if so.sel.Matches(p.Labels) {
					g.MatchedBy = append(g.MatchedBy, so.row.Key)
				}
			}
			groups[key] = g
			order = append(order, key)
		}
		for _, so := range sels {
			if so.sel.Matches(p.Labels) {
				so.row.Pods++
			}
		}
		g.Pods++
		if len(g.Names) < MaxGroupNames {
			g.Names = append(g.Names, p.Name)
		}
		if serving[p.Name] {
			g.Traffic = true
		}
		return true
	})
	for _, k := range order {
		g := groups[k]
		if g.Controller == "none" {
			g.Warning = "No controller: nothing replaces these pods if they fail, and no ReplicaSet counts them."
			if g.Traffic {
				g.Warning = "No controller, yet a Service sends them traffic: its selector matches their labels. " +
					"Nothing replaces them if they fail, and no Deployment rolls them to a new version."
				out.Notes = appendOnce(out.Notes, Note{Key: "unowned-traffic", Text: "Some pods have no controller but " +
					"still receive traffic: a Service selects pods by labels only, never by owner."})
			}
		}
		out.Groups = append(out.Groups, *g)
	}
	sort.SliceStable(out.Groups, func(i, j int) bool { return out.Groups[i].Controller < out.Groups[j].Controller })
	return out
}

func appendOnce(notes []Note, n Note) []Note {
	for _, x := range notes {
		if x.Key == n.Key {
			return notes
		}
	}
	return append(notes, n)
}

// servedPods returns the pods that are ready addresses of some Endpoints.
func servedPods(st *store.Store) map[string]bool {
	out := map[string]bool{}
	for _, ep := range st.EndpointsList() {
		for _, ss := range ep.Subsets {
			for _, a := range ss.Addresses {
				if a.TargetRef != nil && a.TargetRef.Kind == api.KindPod {
					out[a.TargetRef.Name] = true
				}
			}
		}
	}
	return out
}

// SelectorEdit is an edit of a Deployment's selector and template labels,
// both in the k=v,k2=v2 form.
type SelectorEdit struct {
	Selector string
	Labels   string
}

// Verdict is what the API server says of an edit before it is applied.
type Verdict struct {
	// OK is set when the server would accept it.
	OK bool
	// Message is kubectl's output or error for the dry run, in the API
	// server's words: `The Deployment "web" is invalid: spec.selector: ...`.
	Message string
	// Command is the console command that applies the edit ("" when there
	// is nothing to apply or the input does not parse).
	Command string
	// Changed is set when the edit differs from the Deployment.
	Changed bool
}

// CurrentEdit returns the Deployment's selector (its matchLabels) and
// template labels in the editable form.
func CurrentEdit(d *api.Deployment) SelectorEdit {
	var ml map[string]string
	if d.Spec.Selector != nil {
		ml = d.Spec.Selector.MatchLabels
	}
	return SelectorEdit{Selector: setText(ml), Labels: setText(d.Spec.Template.Labels)}
}

func setText(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	return labels.FormatLabels(m)
}

// CheckSelectorEdit asks the API server (a server-side dry run of the
// patch through kubectl) what it would say of edit on the Deployment named
// name (or the focus).
func CheckSelectorEdit(s *sim.Sim, name string, edit SelectorEdit) Verdict {
	d := Focus(s, name)
	if d == nil {
		return Verdict{Message: "there is no Deployment to edit"}
	}
	patch, changed, err := selectorPatch(d, edit)
	if err != nil {
		return Verdict{Message: "error: " + err.Error()}
	}
	if !changed {
		return Verdict{OK: true, Message: "no change: the selector and the template labels are as stored"}
	}
	cmd := "patch deployment " + d.Name + " --type=merge -p '" + patch + "'"
	res := kubectl.Run(s.Env(), cmd+" --dry-run=server")
	v := Verdict{OK: res.OK(), Changed: true, Message: res.Output}
	if !res.OK() {
		v.Message = res.Error
	} else {
		v.Command = cmd
	}
	return v
}

// selectorPatch builds the merge patch of an edit: only the parts that
// change, removed keys as null.
func selectorPatch(d *api.Deployment, edit SelectorEdit) (string, bool, error) {
	sel, err := parseSet(edit.Selector, "selector")
	if err != nil {
		return "", false, err
	}
	lbl, err := parseSet(edit.Labels, "labels")
	if err != nil {
		return "", false, err
	}
	var oldSel map[string]string
	if d.Spec.Selector != nil {
		oldSel = d.Spec.Selector.MatchLabels
	}
	spec := map[string]any{}
	if m, ok := mergeMap(oldSel, sel); ok {
		spec["selector"] = map[string]any{"matchLabels": m}
	}
	if m, ok := mergeMap(d.Spec.Template.Labels, lbl); ok {
		spec["template"] = map[string]any{"metadata": map[string]any{"labels": m}}
	}
	if len(spec) == 0 {
		return "", false, nil
	}
	b, err := json.Marshal(map[string]any{"spec": spec})
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}

// mergeMap is the merge patch from old to new: changed and added keys, and
// removed keys as null; ok is false when they are equal.
func mergeMap(old, new map[string]string) (map[string]any, bool) {
	out := map[string]any{}
	for k, v := range new {
		if ov, ok := old[k]; !ok || ov != v {
			out[k] = v
		}
	}
	for k := range old {
		if _, ok := new[k]; !ok {
			out[k] = nil
		}
	}
	return out, len(out) > 0
}

// parseSet reads "k=v,k2=v2" (blanks around the parts are ignored).
func parseSet(s, what string) (map[string]string, error) {
	out := map[string]string{}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" {
			return nil, fmt.Errorf("%s: %q is not key=value", what, part)
		}
		if strings.ContainsAny(v, "'") || strings.ContainsAny(k, "'") {
			return nil, fmt.Errorf("%s: %q: a quote cannot be part of a label", what, part)
		}
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s: key %q given twice", what, k)
		}
		out[k] = v
	}
	return out, nil
}
