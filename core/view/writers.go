package view

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller/gitops"
	"converge/core/sim"
	"converge/core/store"
)

// FieldWrite is one write that changed a Deployment's spec.replicas or pod
// template: when, by whom, from what to what and why.
type FieldWrite struct {
	// Key identifies the write in its list.
	Key string
	// T is the simulated second of the write.
	T int64
	// Field is "spec.replicas" or "spec.template".
	Field string
	// From and To are the values in words: "3" → "8"; for the template,
	// the images ("nginx:1.27" → "nginx:1.28") or "changed".
	From, To string
	// Writer is who wrote it: "kubectl scale", "the GitOps reconciler",
	// "the HorizontalPodAutoscaler web", "kubectl apply".
	Writer string
	// Manager is the managedFields manager, with the operation or
	// subresource when it is not a plain Update: "kubectl (scale)",
	// "gitops (Apply)".
	Manager string
	// Why is the writer's reason: "Git declares 3 (commit 2)", "cpu 20%
	// below target 50%"; "" when it gave none (a user).
	Why string
	// User is set for a person's write (kubectl).
	User bool
	// Undid is set when this write set the field back over another
	// writer's change.
	Undid bool
}

// FieldWriters is the page's "who wrote it" timeline of one Deployment.
type FieldWriters struct {
	Deployment string
	// Replicas and Template are the writes of each field, oldest first
	// (at most MaxFieldWrites each).
	Replicas, Template []FieldWrite
	// Owners are spec.replicas' managers now (from managedFields):
	// "kube-controller-manager (scale) since 75 s".
	Owners []string
	// TemplateOwners are the managers of spec.template's fields now.
	TemplateOwners []string
}

// MaxFieldWrites bounds each list of the timeline (the latest are kept).
const MaxFieldWrites = 12

// Writers returns the timeline of a Deployment's spec.replicas and
// template writers, from the store's field history (core/store's
// FieldHistory) and managedFields, or nil when the Deployment does not
// exist.
func Writers(s *sim.Sim, deployment string) *FieldWriters {
	d, err := s.Store().GetDeployment(api.NamespaceDefault, deployment)
	if err != nil {
		return nil
	}
	out := &FieldWriters{Deployment: d.Name}
	for i, h := range s.Store().FieldHistory(d.UID) {
		w := fieldWrite(h)
		w.Key = fmt.Sprintf("%s#%d", h.Field, i)
		if h.Field == "spec.replicas" {
			out.Replicas = append(out.Replicas, w)
		} else {
			out.Template = append(out.Template, w)
		}
	}
	markUndos(out.Replicas)
	markUndos(out.Template)
	out.Replicas = lastN(out.Replicas, MaxFieldWrites)
	out.Template = lastN(out.Template, MaxFieldWrites)
	for _, e := range s.Store().ManagedFields(d.UID) {
		if e.FieldsV1 == nil || e.FieldsV1.Children["f:spec"] == nil {
			continue
		}
		owner := fmt.Sprintf("%s since %d s", managerText(e.Manager, e.Operation, e.Subresource), seconds(e.Time.Time))
		if e.FieldsV1.Children["f:spec"].Children["f:replicas"] != nil {
			out.Owners = append(out.Owners, owner)
		}
		if e.FieldsV1.Children["f:spec"].Children["f:template"] != nil {
			out.TemplateOwners = append(out.TemplateOwners, owner)
		}
	}
	return out
}

func lastN(ws []FieldWrite, n int) []FieldWrite {
	if len(ws) > n {
		return ws[len(ws)-n:]
	}
	return ws
}

func seconds(t time.Time) int64 { return int64(t.Sub(api.Epoch) / time.Second) }

func fieldWrite(h store.FieldChange) FieldWrite {
	w := FieldWrite{T: seconds(h.Time.Time), Field: h.Field, Writer: writerName(h), Manager: managerText(h.Manager, h.Operation, h.Subresource),
		User: strings.HasPrefix(h.Manager, "kubectl")}
	if h.Field == "spec.replicas" {
		w.From, w.To = orNone(h.Old), orNone(h.New)
	} else {
		w.From, w.To = templateText(h.Old, h.New)
	}
	w.Why = whyOf(h, w.To)
	return w
}

// writerName is who wrote, in words: the writer's own name, or the
// component's title.
func writerName(h store.FieldChange) string {
	switch {
	case h.By == "":
		return h.Manager
	case loopTexts[h.By].title != "":
		return "the " + lowerFirst(loopTexts[h.By].title)
	}
	return h.By
}

func lowerFirst(s string) string {
	if s == "" || strings.HasPrefix(s, "GitOps") || strings.HasPrefix(s, "HorizontalPodAutoscaler") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func managerText(manager, op, sub string) string {
	switch {
	case sub != "":
		return manager + " (" + sub + ")"
	case op == api.ManagedFieldsOperationApply:
		return manager + " (Apply)"
	}
	return manager
}

// whyOf is the writer's reason in words: Git's declaration for the
// reconciler, the manifest for kubectl apply, the HPA's own words.
func whyOf(h store.FieldChange, to string) string {
	switch h.Manager {
	case gitops.FieldManager:
		s := "Git declares " + to
		if h.Field == "spec.template" {
			s = "Git declares the template (" + to + ")"
		}
		if h.Reason != "" {
			s += " (" + h.Reason + ")"
		}
		return s
	case store.ManagerClientSideApply:
		if h.Field == "spec.template" {
			if to == "changed" {
				return "the applied manifest declares a changed template (same images)"
			}
			return "the applied manifest declares the template (" + to + ")"
		}
		return "the applied manifest declares " + to
	}
	return h.Reason
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// templateText is a template change in words: the images that changed, or
// "changed" when the images are the same.
func templateText(old, new string) (string, string) {
	a, b := templateImages(old), templateImages(new)
	if a == b {
		return "", "changed"
	}
	return orNone(a), b
}

// templateImages lists the images of a template's JSON: "nginx:1.27, busybox:1".
func templateImages(raw string) string {
	var t api.PodTemplateSpec
	if raw == "" || json.Unmarshal([]byte(raw), &t) != nil {
		return ""
	}
	return images(&t)
}

// markUndos marks the writes that set a field back: the value another
// writer changed it from, right after that writer's change.
func markUndos(ws []FieldWrite) {
	for i := 1; i < len(ws); i++ {
		prev, cur := ws[i-1], ws[i]
		if cur.Writer != prev.Writer && cur.To == prev.From && prev.From != "(none)" {
			ws[i].Undid = true
		}
	}
}

// Undone is the Why panel's sentence when a person's change of
// spec.replicas (a kubectl command) was set back by another writer, the
// last write of the field: "spec.replicas set back to 3 by the GitOps
// reconciler at 60 s: Git declares 3 (commit 1)". "" otherwise.
func Undone(s *sim.Sim, deployment string) string {
	fw := Writers(s, deployment)
	if fw == nil {
		return ""
	}
	for _, ws := range [][]FieldWrite{fw.Replicas, fw.Template} {
		n := len(ws)
		if n < 2 || !ws[n-1].Undid || !ws[n-2].User || ws[n-1].User {
			continue
		}
		last, prev := ws[n-1], ws[n-2]
		what := last.Field + " set back to " + last.To
		if last.Field == "spec.template" {
			what = "the pod template set back to " + last.To
		}
		s := fmt.Sprintf("%s by %s at %d s", what, last.Writer, last.T)
		if last.Why != "" {
			s += ": " + last.Why
		}
		return s + fmt.Sprintf(". It undid %s at %d s.", prev.Writer, prev.T)
	}
	return ""
}
