package deployment

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/simtest"
	"converge/core/store"
)

// fixture is a store on a fake clock plus helpers to build the objects the
// Deployment controller reads. Tests call the controller's functions on it
// directly, synchronously, as sample-controller's tests call syncHandler.
type fixture struct {
	t     testing.TB
	store *store.Store
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	return &fixture{t: t, store: simtest.NewStore()}
}

// advance moves the clock on by n seconds.
func (f *fixture) advance(n int) { simtest.Advance(f.store, time.Duration(n)*time.Second) }

func (f *fixture) now() time.Time { return f.store.Clock().Now() }

// deployment creates a Deployment "foo" (labels foo=bar, image foo:2) with the options.
func (f *fixture) deployment(replicas int32, opts ...simtest.DeploymentOption) *api.Deployment {
	f.t.Helper()
	opts = append([]simtest.DeploymentOption{simtest.WithDeploymentLabels(map[string]string{"foo": "bar"})}, opts...)
	return simtest.MustCreate(f.t, f.store, simtest.NewDeployment("foo", replicas, "foo:2", opts...))
}

// rolling returns the RollingUpdate option with maxSurge and maxUnavailable.
func rolling(maxSurge, maxUnavailable string) simtest.DeploymentOption {
	return simtest.WithRollingUpdate(maxSurge, maxUnavailable)
}

// rsSpec describes a ReplicaSet owned by the fixture's Deployment.
type rsSpec struct {
	name      string
	image     string // "" means the Deployment's current template (the new RS)
	replicas  int32
	status    int32 // status.replicas
	available int32 // status.availableReplicas (and readyReplicas)
	revision  string
	// annotations are added as they are (desired-replicas, max-replicas ...).
	annotations map[string]string
}

// rs creates a ReplicaSet owned by d as the controller would have made it.
func (f *fixture) rs(d *api.Deployment, sp rsSpec) *api.ReplicaSet {
	f.t.Helper()
	tmpl := d.Spec.Template.DeepCopy()
	if sp.image != "" {
		tmpl.Spec.Containers[0].Image = sp.image
	}
	hash := ComputeHash(&tmpl, nil)
	tmpl.Labels = withLabel(tmpl.Labels, api.DefaultDeploymentUniqueLabelKey, hash)
	sel := d.Spec.Selector.DeepCopy()
	sel.MatchLabels = withLabel(sel.MatchLabels, api.DefaultDeploymentUniqueLabelKey, hash)
	name := sp.name
	if name == "" {
		name = d.Name + "-" + hash
	}
	rs := &api.ReplicaSet{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: d.Namespace, Labels: api.CopyStringMap(tmpl.Labels),
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(d)}, Annotations: api.CopyStringMap(sp.annotations)},
		Spec:   api.ReplicaSetSpec{Replicas: api.Int32(sp.replicas), Selector: sel, Template: tmpl, MinReadySeconds: d.Spec.MinReadySeconds},
		Status: api.ReplicaSetStatus{Replicas: sp.status, ReadyReplicas: sp.available, AvailableReplicas: sp.available, ObservedGeneration: 1},
	}
	if sp.revision != "" {
		if rs.Annotations == nil {
			rs.Annotations = map[string]string{}
		}
		rs.Annotations[api.RevisionAnnotation] = sp.revision
	}
	return simtest.MustCreate(f.t, f.store, rs)
}

// replicasAnnotations returns desired-replicas and max-replicas annotations.
func replicasAnnotations(desired, maxReplicas int32) map[string]string {
	return map[string]string{
		api.DesiredReplicasAnnotation: strconv.Itoa(int(desired)),
		api.MaxReplicasAnnotation:     strconv.Itoa(int(maxReplicas)),
	}
}

// getRS returns the stored ReplicaSet.
func (f *fixture) getRS(name string) *api.ReplicaSet {
	f.t.Helper()
	rs, err := f.store.GetReplicaSet(api.NamespaceDefault, name)
	require.NoError(f.t, err)
	return rs
}

// getD returns the stored Deployment.
func (f *fixture) getD(name string) *api.Deployment {
	f.t.Helper()
	d, err := f.store.GetDeployment(api.NamespaceDefault, name)
	require.NoError(f.t, err)
	return d
}

// context returns a fresh controller context with a sync log.
func (f *fixture) context() *controller.Context {
	return &controller.Context{Store: f.store, Log: &controller.SyncLog{}}
}

// syncer returns a syncer for the stored Deployment, as Sync makes one.
func (f *fixture) syncer(name string) *syncer {
	ctx := f.context()
	return &syncer{ctx: ctx, store: f.store, now: ctx.Now(), d: f.getD(name).DeepCopy()}
}

// sync runs one controller Sync and returns its context.
func (f *fixture) sync() *controller.Context {
	ctx := f.context()
	New().Sync(ctx)
	return ctx
}

// eventTexts returns the messages of the emitted events.
func eventTexts(ctx *controller.Context) []string {
	var out []string
	for _, e := range ctx.Emitted {
		out = append(out, e.Message)
	}
	return out
}

// update writes a changed copy of the stored Deployment, as a user would.
func (f *fixture) update(name string, change func(d *api.Deployment)) *api.Deployment {
	f.t.Helper()
	d := f.getD(name).DeepCopy()
	change(d)
	out, err := f.store.Update(d)
	require.NoError(f.t, err)
	return out.(*api.Deployment)
}

func specOf(rs *api.ReplicaSet) int32 { return api.Deref(rs.Spec.Replicas, 1) }
