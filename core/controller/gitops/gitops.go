// Package gitops is a simplified GitOps reconciler, in the manner of Argo
// CD's automated sync and Flux's Kustomization controller: a repository of
// manifests (Git) that it applies to the cluster at t=0 and every interval.
//
// At each sync, for every manifest in Git it merges the manifest into the
// live object (a JSON merge patch of the manifest, without status and
// nulls, onto the live object, then the API server's defaults) and applies
// the result with field manager "gitops" (operation Apply) when that
// changes anything, creating the object when it is missing. Its rule is
// Argo CD's autoSync (controller/appcontroller.go): the first sync at a
// commit it has not synced yet syncs the whole application, every manifest
// (so drift on objects the commit did not touch is undone too); at a
// commit it already synced it does nothing without selfHeal (it only
// reports the drift, and an object deleted from the cluster stays
// deleted), and with selfHeal it re-applies the manifests out of sync. Objects a commit removed from Git are deleted
// at the next sync when prune is set, and reported otherwise. Every object
// it changes gets a Normal Synced event naming the commit and the changes
// ("Synced to commit 3: spec.replicas 8 → 3"). Between syncs it keeps
// comparing Git with the cluster, for the page's loop panel: "in sync" or
// "out of sync: spec.replicas 8 in the cluster, 3 in Git".
//
// docs/fidelity.md says how this differs from Argo CD's three-way diff and
// Flux's server-side apply.
package gitops

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// Component is the reconciler's name (its events' source and sync records).
const Component = "gitops"

// FieldManager is the manager its writes carry in managedFields.
const FieldManager = "gitops"

// By names the reconciler in the page's field history.
const By = "the GitOps reconciler"

// Event reasons.
const (
	ReasonSynced = "Synced"
	ReasonPruned = "Pruned"
)

// DefaultInterval is the interval of a repo that sets none: Argo CD's
// timeout.reconciliation, 180 s.
const DefaultInterval = 180 * time.Second

// Options configure the reconciler.
type Options struct {
	// Interval is the time between syncs; the first is at t=0.
	Interval time.Duration
	// SelfHeal re-applies Git over drift at every sync.
	SelfHeal bool
	// Prune deletes objects removed from Git at the next sync.
	Prune bool
	// Repo is Git's content at t=0 (commit 1), in order.
	Repo []api.Object
	// Start is the time of t=0.
	Start time.Time
}

// Change is one item of a commit: a manifest that replaces (or adds) its
// object's manifest, or the removal of one.
type Change struct {
	Object api.Object
	// Delete names the manifest removed ("deployment/web"): Kind and Name.
	DeleteKind, DeleteName string
}

// Controller is the reconciler.
type Controller struct {
	opts Options
	// commit is Git's latest commit number; manifests its content in order.
	commit    int
	manifests []*manifest
	// removed are the objects commits took out of Git that may still live.
	removed []ref
	// nextSync is when the next sync is due.
	nextSync time.Time
	// lastSync and synced: when it last synced and which commit.
	lastSync     time.Time
	syncedCommit int
	// attempted is the last commit a sync was made at (Argo CD's
	// alreadyAttemptedSync): a sync at a newer one syncs everything.
	attempted int
	// reported is the second of the last report (once per tick).
	reported time.Time
}

type manifest struct {
	kind, name, namespace string
	obj                   api.Object
	// json is the manifest as merged: without status and nulls.
	json map[string]any
	// commit is the commit that last changed it; applied the commit it
	// was last applied at (0: never).
	commit, applied int
}

type ref struct{ kind, namespace, name string }

var _ controller.Controller = (*Controller)(nil)

// New returns the reconciler with Git at commit 1.
func New(o Options) *Controller {
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	c := &Controller{opts: o, commit: 1, nextSync: o.Start, reported: o.Start.Add(-time.Second)}
	for _, obj := range o.Repo {
		c.put(obj, 1)
	}
	return c
}

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller. Manifests are never modified
// once stored (a commit replaces them), so clones share them.
func (c *Controller) Clone() controller.Controller {
	out := *c
	out.manifests = make([]*manifest, len(c.manifests))
	for i, m := range c.manifests {
		x := *m
		out.manifests[i] = &x
	}
	out.removed = append([]ref(nil), c.removed...)
	return &out
}

// Commit records a new commit and returns its number; it is applied at the
// next sync.
func (c *Controller) Commit(changes []Change) int {
	c.commit++
	for _, ch := range changes {
		if ch.Object != nil {
			c.put(ch.Object, c.commit)
			continue
		}
		kind, name := ch.DeleteKind, ch.DeleteName
		for i, m := range c.manifests {
			if m.kind == kind && m.name == name {
				c.removed = append(c.removed, ref{m.kind, m.namespace, m.name})
				c.manifests = append(c.manifests[:i:i], c.manifests[i+1:]...)
				break
			}
		}
	}
	return c.commit
}

// CommitNumber is Git's latest commit.
func (c *Controller) CommitNumber() int { return c.commit }

// NextSync is when the next sync is due.
func (c *Controller) NextSync() time.Time { return c.nextSync }

func (c *Controller) put(obj api.Object, commit int) {
	obj = obj.DeepCopyObject()
	m := obj.GetObjectMeta()
	if m.Namespace == "" {
		m.Namespace = api.NamespaceDefault
	}
	mf := &manifest{kind: api.KindOf(obj), name: m.Name, namespace: m.Namespace, obj: obj, json: manifestJSON(obj), commit: commit}
	for i, x := range c.manifests {
		if x.kind == mf.kind && x.name == mf.name && x.namespace == mf.namespace {
			mf.applied = x.applied
			c.manifests[i] = mf
			return
		}
	}
	for i, r := range c.removed {
		if r == (ref{mf.kind, mf.namespace, mf.name}) {
			c.removed = append(c.removed[:i:i], c.removed[i+1:]...)
			break
		}
	}
	c.manifests = append(c.manifests, mf)
}

// manifestJSON is obj's JSON as a merge patch: status dropped, and every
// null (a field the manifest leaves out) removed so that it deletes nothing.
func manifestJSON(obj api.Object) map[string]any {
	b, err := json.Marshal(obj)
	if err != nil {
		return map[string]any{}
	}
	var v map[string]any
	if json.Unmarshal(b, &v) != nil {
		return map[string]any{}
	}
	delete(v, "status")
	return dropNulls(v).(map[string]any)
}

func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = dropNulls(e)
		}
	case []any:
		for i := range x {
			x[i] = dropNulls(x[i])
		}
	}
	return v
}

// Sync syncs when one is due (once per tick: the control-plane round may
// run it again in the same second) and records where Git and the cluster
// stand.
func (c *Controller) Sync(ctx *controller.Context) {
	now := ctx.Now()
	if !now.Before(c.nextSync) && !c.lastSync.Equal(now) {
		c.lastSync, c.syncedCommit = now, c.commit
		for c.nextSync = c.nextSync.Add(c.opts.Interval); !c.nextSync.After(now); c.nextSync = c.nextSync.Add(c.opts.Interval) {
		}
		c.sync(ctx)
		return
	}
	if c.lastSync.Equal(now) || c.reported.Equal(now) {
		return // this second's sync or report is recorded
	}
	c.reported = now
	c.report(ctx)
}

// sync applies Git: each manifest in order, then the pruning.
func (c *Controller) sync(ctx *controller.Context) {
	prev := ctx.Store.SetWriter(store.Writer{Manager: FieldManager, By: By})
	defer ctx.Store.SetWriter(prev)
	newCommit := c.commit > c.attempted
	c.attempted = c.commit
	for _, m := range c.manifests {
		ctx.Record(c.syncOne(ctx, m, newCommit))
	}
	var kept []ref
	for _, r := range c.removed {
		live, err := ctx.Store.Get(r.kind, r.namespace, r.name)
		if err != nil {
			continue // gone: nothing to prune
		}
		obj := store.ShortRef(r.kind, r.name)
		if !c.opts.Prune {
			kept = append(kept, r)
			ctx.Record(controller.SyncRecord{Controller: Component, Object: obj, Observed: "not in Git since a commit removed it",
				Waiting: "out of sync: " + obj + " is not in Git and prune is off, so it stays" + c.nextText(ctx.Now())})
			continue
		}
		ctx.Event(live, Component, api.EventTypeNormal, ReasonPruned, fmt.Sprintf("Pruned at commit %d: %s is no longer in Git", c.commit, obj))
		rec := controller.SyncRecord{Controller: Component, Object: obj, Observed: "not in Git", Action: "delete " + obj + " (prune)"}
		if err := ctx.Store.Delete(r.kind, r.namespace, r.name, store.DeleteOptions{PropagationPolicy: store.DeletePropagationBackground}); err != nil {
			rec.Action, rec.Waiting = "", "cannot prune "+obj+": "+err.Error()
			kept = append(kept, r)
		}
		ctx.Record(rec)
	}
	c.removed = kept
}

// syncOne applies one manifest when it changes the cluster and the policy
// allows it: at a new commit (newCommit) always, else only with selfHeal.
func (c *Controller) syncOne(ctx *controller.Context, m *manifest, newCommit bool) controller.SyncRecord {
	obj := store.ShortRef(m.kind, m.name)
	rec := controller.SyncRecord{Controller: Component, Object: obj, Observed: fmt.Sprintf("Git at commit %d", c.commit)}
	live, _ := ctx.Store.Get(m.kind, m.namespace, m.name)
	desired, diffs, err := Desired(live, m.json, m.kind)
	if err != nil {
		rec.Waiting = "cannot merge Git's manifest: " + err.Error()
		return rec
	}
	if live != nil && len(diffs) == 0 {
		m.applied = c.commit
		rec.InSync = true
		rec.Observed += c.nextText(ctx.Now())
		return rec
	}
	if !c.opts.SelfHeal && !newCommit {
		drift := obj + " is missing from the cluster"
		if live != nil {
			drift = driftText(diffs)
		}
		rec.Waiting = "out of sync: " + drift + "; selfHeal is off, so only a new commit syncs it" + c.nextText(ctx.Now())
		return rec
	}
	w := ctx.Store.CurrentWriter()
	ctx.Store.SetWriter(store.Writer{Manager: w.Manager, By: w.By, Reason: fmt.Sprintf("commit %d", c.commit)})
	stored, err := ctx.Store.Apply(desired, m.obj.DeepCopyObject())
	ctx.Store.SetWriter(w)
	if err != nil {
		rec.Waiting = "sync failed: " + err.Error()
		return rec
	}
	m.applied = c.commit
	what := "created"
	if live != nil {
		what = changesText(diffs)
	}
	ctx.Event(stored, Component, api.EventTypeNormal, ReasonSynced, fmt.Sprintf("Synced to commit %d: %s", c.commit, what))
	rec.Desired = "Git's manifest"
	rec.Action = fmt.Sprintf("sync %s to commit %d: %s", obj, c.commit, what)
	return rec
}

// report records, between syncs, whether the cluster matches Git.
func (c *Controller) report(ctx *controller.Context) {
	now := ctx.Now()
	for _, m := range c.manifests {
		obj := store.ShortRef(m.kind, m.name)
		rec := controller.SyncRecord{Controller: Component, Object: obj, Observed: fmt.Sprintf("Git at commit %d", c.commit)}
		live, _ := ctx.Store.Get(m.kind, m.namespace, m.name)
		_, diffs, err := Desired(live, m.json, m.kind)
		switch {
		case err != nil:
			rec.Waiting = "cannot merge Git's manifest: " + err.Error()
		case live == nil:
			rec.Waiting = "out of sync: " + obj + " is missing from the cluster" + c.nextText(now)
		case len(diffs) == 0:
			rec.InSync = true
			rec.Observed += c.nextText(now)
		case m.commit > m.applied:
			rec.Waiting = fmt.Sprintf("out of sync: commit %d is not applied yet: %s", m.commit, driftText(diffs)) + c.nextText(now)
		case !c.opts.SelfHeal:
			rec.Waiting = "out of sync: " + driftText(diffs) + "; selfHeal is off" + c.nextText(now)
		default:
			rec.Waiting = "out of sync: " + driftText(diffs) + c.nextText(now)
		}
		ctx.Record(rec)
	}
	for _, r := range c.removed {
		if _, err := ctx.Store.Get(r.kind, r.namespace, r.name); err != nil {
			continue
		}
		obj := store.ShortRef(r.kind, r.name)
		what := "prune is off, so it stays"
		if c.opts.Prune {
			what = "it is pruned at the next sync"
		}
		ctx.Record(controller.SyncRecord{Controller: Component, Object: obj, Observed: "not in Git",
			Waiting: "out of sync: " + obj + " is not in Git; " + what + c.nextText(now)})
	}
}

func (c *Controller) nextText(now time.Time) string {
	return fmt.Sprintf("; next sync in %ds", int64(c.nextSync.Sub(now)/time.Second))
}

// Desired is what a sync makes of the live object (nil when missing) and
// Git's manifest (as merged): the live object with the manifest merged in
// and the API server's defaults, and the differences it has from the live
// object, sorted by path. A missing object is created from the manifest.
func Desired(live api.Object, manifest map[string]any, kind string) (api.Object, []Diff, error) {
	var base any = map[string]any{}
	var liveV any
	if live != nil {
		b, err := json.Marshal(live)
		if err != nil {
			return nil, nil, err
		}
		if err := json.Unmarshal(b, &base); err != nil {
			return nil, nil, err
		}
		_ = json.Unmarshal(b, &liveV)
	}
	merged := store.MergeValue(base, deepCopy(manifest))
	mb, err := json.Marshal(merged)
	if err != nil {
		return nil, nil, err
	}
	out := store.NewObject(kind)
	if out == nil {
		return nil, nil, fmt.Errorf("unknown kind %q", kind)
	}
	if err := json.Unmarshal(mb, out); err != nil {
		return nil, nil, err
	}
	api.SetDefaults(out)
	if live == nil {
		return out, nil, nil
	}
	ob, err := json.Marshal(out)
	if err != nil {
		return nil, nil, err
	}
	var outV any
	if err := json.Unmarshal(ob, &outV); err != nil {
		return nil, nil, err
	}
	var diffs []Diff
	diffValues("", liveV, outV, &diffs)
	out.GetObjectMeta().ResourceVersion = ""
	return out, diffs, nil
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// Diff is one field where the cluster and Git differ: its path
// (spec.replicas, spec.template.spec.containers[0].image) and both values
// as short text ("" when absent).
type Diff struct {
	Path, Live, Git string
}

// diffValues walks the live object and the desired one, status and
// server-set metadata aside, and appends the leaves that differ.
func diffValues(path string, a, b any, out *[]Diff) {
	switch path {
	case "status", "metadata.resourceVersion", "metadata.managedFields":
		return
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			diffValues(joinPath(path, k), am[k], bm[k], out)
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) {
		for i := range al {
			diffValues(fmt.Sprintf("%s[%d]", path, i), al[i], bl[i], out)
		}
		return
	}
	if !jsonEqual(a, b) {
		*out = append(*out, Diff{Path: path, Live: short(a), Git: short(b)})
	}
}

func joinPath(p, k string) string {
	if p == "" {
		return k
	}
	if strings.ContainsAny(k, "./") {
		return p + "[" + k + "]"
	}
	return p + "." + k
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// short is a value as the texts show it: scalars as JSON (strings bare),
// objects and lists summarized.
func short(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case map[string]any:
		return fmt.Sprintf("{%d fields}", len(x))
	case []any:
		if len(x) == 1 {
			return "[1 item]"
		}
		return fmt.Sprintf("[%d items]", len(x))
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// MaxListed bounds the differences a text names.
const MaxListed = 3

// changesText is "spec.replicas 8 → 3; spec.template...image a → b".
func changesText(diffs []Diff) string {
	var parts []string
	for i, d := range diffs {
		if i == MaxListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(diffs)-MaxListed))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s → %s", d.Path, orAbsent(d.Live), orAbsent(d.Git)))
	}
	return strings.Join(parts, "; ")
}

// driftText is "spec.replicas 8 in the cluster, 3 in Git".
func driftText(diffs []Diff) string {
	var parts []string
	for i, d := range diffs {
		if i == MaxListed {
			parts = append(parts, fmt.Sprintf("and %d more", len(diffs)-MaxListed))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s in the cluster, %s in Git", d.Path, orAbsent(d.Live), orAbsent(d.Git)))
	}
	return strings.Join(parts, "; ")
}

func orAbsent(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
