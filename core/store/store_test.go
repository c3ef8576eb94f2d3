package store_test

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/clock"
	"converge/core/simtest"
	"converge/core/store"
)

func TestCreateGetList(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	for _, name := range []string{"c", "a", "b"} {
		simtest.MustCreate(t, s, simtest.NewDeployment(name, 1, "nginx:1.27"))
	}
	var names []string
	for _, o := range s.List(api.KindDeployment) {
		names = append(names, o.GetObjectMeta().Name)
	}
	assert.Equal(t, []string{"c", "a", "b"}, names, "creation order, not name order")
	assert.Equal(t, 3, s.Count(api.KindDeployment))
	require.Len(t, s.Deployments(), 3)
	assert.Equal(t, "c", s.Deployments()[0].Name)

	got, err := s.Get(api.KindDeployment, "", "a")
	require.NoError(t, err, "an empty namespace means default")
	assert.Equal(t, "a", got.GetObjectMeta().Name)
	d, err := s.GetDeployment("default", "b")
	require.NoError(t, err)
	assert.Same(t, s.Deployments()[2], d, "the store hands out its own (shared) object")
}

func TestNotFoundTexts(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	tests := []struct {
		kind, want string
	}{
		{api.KindDeployment, `deployments.apps "web" not found`},
		{api.KindReplicaSet, `replicasets.apps "web" not found`},
		{api.KindPod, `pods "web" not found`},
		{api.KindNode, `nodes "web" not found`},
		{api.KindService, `services "web" not found`},
		{api.KindEndpoints, `endpoints "web" not found`},
		{api.KindConfigMap, `configmaps "web" not found`},
		{api.KindEvent, `events "web" not found`},
	}
	for _, tc := range tests {
		t.Run(tc.kind, func(t *testing.T) {
			t.Parallel()
			_, err := s.Get(tc.kind, "default", "web")
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.True(t, errors.Is(err, store.ErrNotFound))
			assert.False(t, errors.Is(err, store.ErrConflict))
			assert.Equal(t, store.ReasonNotFound, store.ReasonOf(err))
			assert.EqualError(t, s.Delete(tc.kind, "default", "web", store.DeleteOptions{}), tc.want)
		})
	}
	for _, get := range []func() error{
		func() error { _, err := s.GetReplicaSet("", "x"); return err },
		func() error { _, err := s.GetPod("", "x"); return err },
		func() error { _, err := s.GetNode("x"); return err },
		func() error { _, err := s.GetService("", "x"); return err },
		func() error { _, err := s.GetConfigMap("", "x"); return err },
		func() error { _, err := s.GetDeployment("", "x"); return err },
	} {
		assert.True(t, errors.Is(get(), store.ErrNotFound))
	}
	_, err := s.Get("Secret", "default", "x")
	assert.EqualError(t, err, `the server doesn't have a resource type "Secret"`)
	assert.Equal(t, store.ReasonBadRequest, store.ReasonOf(err))
	assert.Nil(t, s.List("Secret"))
	assert.Equal(t, 0, s.Count("Secret"))
	assert.Equal(t, store.Reason(""), store.ReasonOf(errors.New("plain")))
	_, err = s.Create(&struct{ api.Pod }{})
	assert.Error(t, err, "an unknown Go type is not a kind")
}

func TestCreateSetsServerFields(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.Advance(s, 5*time.Second)
	d := simtest.NewDeployment("web", 2, "nginx:1.27")
	d.Status.Replicas = 7
	d.Generation = 9
	d.UID = "mine"
	d.DeletionTimestamp = api.NewTimePtr(api.Epoch)
	d.DeletionGracePeriodSeconds = api.Int64(3)
	rv := s.ResourceVersion()
	out := simtest.MustCreate(t, s, d)
	assert.Regexp(t, regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$`), out.UID)
	assert.NotEqual(t, "mine", out.UID)
	assert.Equal(t, int64(1), out.Generation, "Deployments start at generation 1")
	assert.True(t, out.CreationTimestamp.Equal(api.NewTime(api.Epoch.Add(5*time.Second))))
	assert.Nil(t, out.DeletionTimestamp)
	assert.Nil(t, out.DeletionGracePeriodSeconds)
	assert.Equal(t, rv+1, s.ResourceVersion())
	assert.Equal(t, "1", out.ResourceVersion)
	assert.Equal(t, int32(7), out.Status.Replicas, "status given to Create is kept")

	p := simtest.MustCreate(t, s, simtest.NewPod("p"))
	assert.Equal(t, int64(0), p.Generation, "pods have no generation")
	assert.Equal(t, "2", p.ResourceVersion)
	rs := simtest.MustCreate(t, s, simtest.NewReplicaSet("rs", 1, "nginx"))
	assert.Equal(t, int64(1), rs.Generation)

	bare := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}}
	cm := simtest.MustCreate(t, s, bare)
	assert.Equal(t, "default", cm.Namespace, "defaults are applied")
	assert.Equal(t, api.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}, cm.TypeMeta)
	n := simtest.MustCreate(t, s, &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Namespace: "default"}})
	assert.Empty(t, n.Namespace)
	got, err := s.Get(api.KindNode, "anything", "node-1")
	require.NoError(t, err, "nodes ignore the namespace")
	assert.Same(t, n, got)
}

func TestUIDsAreDeterministicAndUnique(t *testing.T) {
	t.Parallel()
	run := func(seed uint64) []string {
		s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: seed})
		var uids []string
		for i := 0; i < 300; i++ {
			p := simtest.MustCreate(t, s, simtest.NewPod("p-"+strconv.Itoa(i)))
			uids = append(uids, p.UID)
		}
		return uids
	}
	a, b := run(1), run(2)
	assert.Equal(t, a, b, "uids depend on the order of creation only")
	seen := map[string]bool{}
	for _, u := range a {
		assert.False(t, seen[u], "duplicate uid %s", u)
		seen[u] = true
	}
	assert.Equal(t, "9e3779b9-7f4a-4c15-8", a[0][:20], "pinned: the first uid of every simulation")
}

var nameRe = regexp.MustCompile(`^web-[bcdfghjklmnpqrstvwxz2456789]{5}$`)

func generated(t *testing.T, s *store.Store, n int) []string {
	t.Helper()
	var names []string
	for i := 0; i < n; i++ {
		p := simtest.NewPod("")
		p.GenerateName = "web-"
		out := simtest.MustCreate(t, s, p)
		names = append(names, out.Name)
	}
	return names
}

func TestGeneratedNames(t *testing.T) {
	t.Parallel()
	a := generated(t, store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 7}), 50)
	for _, n := range a {
		assert.Regexp(t, nameRe, n)
	}
	b := generated(t, store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 7}), 50)
	assert.Equal(t, a, b, "same seed, same names")
	c := generated(t, store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 8}), 50)
	assert.NotEqual(t, a, c, "another seed, other names")

	t.Run("taken names are skipped", func(t *testing.T) {
		t.Parallel()
		s := store.New(store.Options{Clock: clock.New(api.Epoch), Seed: 7})
		simtest.MustCreate(t, s, simtest.NewPod(a[0]))
		next := generated(t, s, 1)[0]
		assert.NotEqual(t, a[0], next)
		assert.Regexp(t, nameRe, next)
	})
	t.Run("long prefixes are cut to 58 characters", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		p := simtest.NewPod("")
		p.GenerateName = strings.Repeat("a", 70)
		out := simtest.MustCreate(t, s, p)
		assert.Len(t, out.Name, 63)
		assert.True(t, strings.HasPrefix(out.Name, strings.Repeat("a", 58)))
	})
	t.Run("an explicit name wins", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		p := simtest.NewPod("fixed")
		p.GenerateName = "web-"
		assert.Equal(t, "fixed", simtest.MustCreate(t, s, p).Name)
	})
	t.Run("RandomSuffix", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		assert.Regexp(t, `^[bcdfghjklmnpqrstvwxz2456789]{12}$`, s.RandomSuffix(12))
		assert.Empty(t, s.RandomSuffix(0))
		assert.NotNil(t, s.Rand())
	})
}

func TestAlreadyExists(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	rv, writes := s.ResourceVersion(), s.Writes()
	_, err := s.Create(simtest.NewDeployment("web", 3, "nginx"))
	require.Error(t, err)
	assert.Equal(t, `deployments.apps "web" already exists`, err.Error())
	assert.True(t, errors.Is(err, store.ErrAlreadyExists))
	assert.Equal(t, rv, s.ResourceVersion())
	assert.Equal(t, writes, s.Writes())
	d, _ := s.GetDeployment("", "web")
	assert.Equal(t, int32(1), *d.Spec.Replicas)

	_, err = s.Create(simtest.NewPod("p"))
	require.NoError(t, err)
	_, err = s.Create(simtest.NewPod("p"))
	assert.EqualError(t, err, `pods "p" already exists`)
	other := simtest.NewPod("p")
	other.Namespace = "prod"
	_, err = s.Create(other)
	assert.NoError(t, err, "names are per namespace")
}

func TestInvalidCreateChangesNothing(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewDeployment("ok", 1, "nginx"))
	rv, writes := s.ResourceVersion(), s.Writes()

	bad := simtest.NewDeployment("web", 1, "nginx")
	bad.Spec.Selector = nil
	_, err := s.Create(bad)
	require.Error(t, err)
	assert.Equal(t, "Deployment.apps \"web\" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`]", err.Error())
	assert.True(t, errors.Is(err, store.ErrInvalid))
	var se *store.StatusError
	require.True(t, errors.As(err, &se))
	assert.Equal(t, "Deployment", se.Kind)
	assert.Equal(t, "web", se.Name)
	assert.Len(t, se.Errs, 2)

	_, err = s.Create(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "p"}})
	assert.EqualError(t, err, `Pod "p" is invalid: spec.containers: Required value`)

	assert.Equal(t, rv, s.ResourceVersion())
	assert.Equal(t, writes, s.Writes())
	assert.Equal(t, 1, s.Count(api.KindDeployment))
	assert.Equal(t, 0, s.Count(api.KindPod))
	next := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	fresh := simtest.NewStore()
	simtest.MustCreate(t, fresh, simtest.NewDeployment("ok", 1, "nginx"))
	assert.Equal(t, simtest.MustCreate(t, fresh, simtest.NewDeployment("web", 1, "nginx")).UID, next.UID, "no uid was used up")
}

func TestUpdateKeepsStatusAndServerFields(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d := simtest.NewDeployment("web", 1, "nginx")
	d.Status.ObservedGeneration = 1
	stored := simtest.MustCreate(t, s, d)
	simtest.Advance(s, time.Minute)

	edit := stored.DeepCopy()
	edit.Spec.Replicas = api.Int32(4)
	edit.Status = api.DeploymentStatus{Replicas: 99}
	edit.UID, edit.CreationTimestamp, edit.Generation = "other", api.NewTime(api.Epoch.Add(time.Hour)), 50
	edit.DeletionTimestamp = api.NewTimePtr(api.Epoch)
	out, err := s.Update(edit)
	require.NoError(t, err)
	got := out.(*api.Deployment)
	assert.Equal(t, int32(4), *got.Spec.Replicas)
	assert.Equal(t, int64(1), got.Status.ObservedGeneration, "status is kept")
	assert.Equal(t, int32(0), got.Status.Replicas)
	assert.Equal(t, stored.UID, got.UID)
	assert.True(t, got.CreationTimestamp.Equal(stored.CreationTimestamp))
	assert.Nil(t, got.DeletionTimestamp)
	assert.Equal(t, int64(2), got.Generation, "generation goes up by one, whatever the caller sent")
	assert.Equal(t, "2", got.ResourceVersion)
	assert.Equal(t, int32(1), *stored.Spec.Replicas, "the stored object given out before is not changed")
}

func TestUpdateConflicts(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	stored := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	first := stored.DeepCopy()
	first.Spec.Replicas = api.Int32(2)
	_, err := s.Update(first)
	require.NoError(t, err)

	stale := stored.DeepCopy()
	stale.Spec.Replicas = api.Int32(3)
	rv := s.ResourceVersion()
	_, err = s.Update(stale)
	require.Error(t, err)
	assert.Equal(t, `Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`, err.Error())
	assert.True(t, errors.Is(err, store.ErrConflict))
	assert.Equal(t, rv, s.ResourceVersion())
	_, err = s.UpdateStatus(stale)
	assert.True(t, errors.Is(err, store.ErrConflict))

	unconditional := stored.DeepCopy()
	unconditional.ResourceVersion = ""
	unconditional.Spec.Replicas = api.Int32(3)
	_, err = s.Update(unconditional)
	assert.NoError(t, err, "an empty resourceVersion writes unconditionally")

	_, err = s.Update(simtest.NewDeployment("missing", 1, "nginx"))
	assert.EqualError(t, err, `deployments.apps "missing" not found`)
	_, err = s.Update(&struct{ api.Pod }{})
	assert.Error(t, err)
}

func TestInvalidUpdateChangesNothing(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	stored := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	rv, writes := s.ResourceVersion(), s.Writes()
	edit := stored.DeepCopy()
	edit.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web2"}}
	edit.Spec.Template.Labels = map[string]string{"app": "web2"}
	_, err := s.Update(edit)
	require.Error(t, err)
	assert.Equal(t, `Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable`, err.Error())

	tooMany := stored.DeepCopy()
	tooMany.Spec.Replicas = api.Int32(10001)
	_, err = s.Update(tooMany)
	assert.EqualError(t, err, `Deployment.apps "web" is invalid: spec.replicas: Invalid value: 10001: must be less than or equal to 10000 in Converge (a simulation limit, not a Kubernetes one)`)

	assert.Equal(t, rv, s.ResourceVersion())
	assert.Equal(t, writes, s.Writes())
	got, _ := s.GetDeployment("", "web")
	assert.Same(t, stored, got)
}

func TestGenerationRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edit  func(*api.Deployment)
		delta int64
	}{
		{"replicas", func(d *api.Deployment) { d.Spec.Replicas = api.Int32(5) }, 1},
		{"template", func(d *api.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:2" }, 1},
		{"paused", func(d *api.Deployment) { d.Spec.Paused = true }, 1},
		{"annotation", func(d *api.Deployment) { d.Annotations = map[string]string{"a": "b"} }, 1},
		{"labels only", func(d *api.Deployment) { d.Labels = map[string]string{"tier": "web"} }, 0},
		{"nothing", func(*api.Deployment) {}, 0},
		{"defaults filled in again", func(d *api.Deployment) { d.Spec.RevisionHistoryLimit = nil }, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := simtest.NewStore()
			stored := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
			edit := stored.DeepCopy()
			tc.edit(edit)
			out, err := s.Update(edit)
			require.NoError(t, err)
			assert.Equal(t, 1+tc.delta, out.GetObjectMeta().Generation)
		})
	}
	t.Run("status updates never bump", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		stored := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
		edit := stored.DeepCopy()
		edit.Spec.Replicas = api.Int32(9)
		edit.Annotations = map[string]string{"x": "y"}
		edit.Status.Replicas = 3
		out, err := s.UpdateStatus(edit)
		require.NoError(t, err)
		got := out.(*api.Deployment)
		assert.Equal(t, int64(1), got.Generation)
		assert.Equal(t, int32(3), got.Status.Replicas)
		assert.Equal(t, int32(1), *got.Spec.Replicas, "spec sent to the status subresource is ignored")
		assert.Nil(t, got.Annotations)
	})
	t.Run("replica sets bump on spec changes only", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		stored := simtest.MustCreate(t, s, simtest.NewReplicaSet("rs", 1, "nginx"))
		edit := stored.DeepCopy()
		edit.Annotations = map[string]string{api.RevisionAnnotation: "2"}
		out, err := s.Update(edit)
		require.NoError(t, err)
		assert.Equal(t, int64(1), out.GetObjectMeta().Generation)
		edit = out.(*api.ReplicaSet).DeepCopy()
		edit.Spec.Replicas = api.Int32(3)
		out, err = s.Update(edit)
		require.NoError(t, err)
		assert.Equal(t, int64(2), out.GetObjectMeta().Generation)
	})
	t.Run("pods keep generation 0", func(t *testing.T) {
		t.Parallel()
		s := simtest.NewStore()
		stored := simtest.MustCreate(t, s, simtest.NewPod("p"))
		edit := stored.DeepCopy()
		edit.Spec.Containers[0].Image = "nginx:2"
		out, err := s.Update(edit)
		require.NoError(t, err)
		assert.Equal(t, int64(0), out.GetObjectMeta().Generation)
	})
}

func TestUpdateDeploymentStatus(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	stored := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	edit := stored.DeepCopy()
	edit.Annotations = map[string]string{api.RevisionAnnotation: "1"}
	edit.Labels = map[string]string{"ignored": "yes"}
	edit.Spec.Replicas = api.Int32(7)
	edit.Status.ObservedGeneration = 1
	got, err := s.UpdateDeploymentStatus(edit)
	require.NoError(t, err)
	assert.Equal(t, "1", got.Annotations[api.RevisionAnnotation])
	assert.Nil(t, got.Labels)
	assert.Equal(t, int32(1), *got.Spec.Replicas)
	assert.Equal(t, int64(1), got.Generation, "recording a revision is not a user edit")
	assert.Equal(t, int64(1), got.Status.ObservedGeneration)

	_, err = s.UpdateDeploymentStatus(edit)
	assert.True(t, errors.Is(err, store.ErrConflict), "edit carries the old resourceVersion")
	_, err = s.UpdateDeploymentStatus(simtest.NewDeployment("missing", 1, "nginx"))
	assert.True(t, errors.Is(err, store.ErrNotFound))
}

func TestUpdateStatusOfKindsWithoutStatus(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	stored := simtest.MustCreate(t, s, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "c"}, Data: map[string]string{"a": "1"}})
	edit := stored.DeepCopy()
	edit.Data = map[string]string{"a": "2"}
	out, err := s.UpdateStatus(edit)
	require.NoError(t, err)
	assert.Equal(t, "1", out.(*api.ConfigMap).Data["a"], "a ConfigMap has no status to write")
	assert.NotEqual(t, stored.ResourceVersion, out.GetObjectMeta().ResourceVersion)
}

func TestTypedAccessors(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	simtest.MustCreate(t, s, simtest.NewNode("node-1", "4", "8Gi", 110))
	simtest.MustCreate(t, s, simtest.NewReplicaSet("rs", 1, "nginx"))
	simtest.MustCreate(t, s, &api.Service{ObjectMeta: api.ObjectMeta{Name: "svc"}, Spec: api.ServiceSpec{Ports: []api.ServicePort{{Port: 80}}}})
	simtest.MustCreate(t, s, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "cfg"}})
	simtest.MustCreate(t, s, &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: "svc"}})
	for _, n := range []string{"p1", "p2", "p3"} {
		simtest.MustCreate(t, s, simtest.NewPod(n))
	}
	assert.Len(t, s.Nodes(), 1)
	assert.Len(t, s.ReplicaSets(), 1)
	assert.Len(t, s.Services(), 1)
	assert.Len(t, s.ConfigMaps(), 1)
	assert.Len(t, s.EndpointsList(), 1)
	assert.Len(t, s.Pods(), 3)
	assert.Empty(t, s.Events())
	var seen []string
	s.EachPod(func(p *api.Pod) bool { seen = append(seen, p.Name); return p.Name != "p2" })
	assert.Equal(t, []string{"p1", "p2"}, seen, "EachPod stops when f returns false")
	for _, get := range []func() (api.Object, error){
		func() (api.Object, error) { return s.GetReplicaSet("", "rs") },
		func() (api.Object, error) { return s.GetPod("", "p1") },
		func() (api.Object, error) { return s.GetNode("node-1") },
		func() (api.Object, error) { return s.GetService("", "svc") },
		func() (api.Object, error) { return s.GetConfigMap("", "cfg") },
	} {
		o, err := get()
		require.NoError(t, err)
		assert.NotNil(t, o)
	}
	assert.Equal(t, api.KindEndpoints, api.KindOf(&api.Endpoints{}))
	assert.Equal(t, "", api.KindOf(nil))
	for _, r := range api.Resources() {
		assert.Equal(t, r.Kind, api.KindOf(store.NewObject(r.Kind)), r.Kind)
	}
	assert.Nil(t, store.NewObject("Secret"))
	assert.Equal(t, "Deployment.apps", store.GroupKind(api.KindDeployment))
	assert.Equal(t, "Pod", store.GroupKind(api.KindPod))
	assert.Equal(t, "deployment/web", store.ShortRef("Deployment", "web"))
	assert.Same(t, s.Clock(), s.Clock())
	assert.True(t, s.Now().Equal(api.NewTime(api.Epoch)))
}

func TestByUID(t *testing.T) {
	t.Parallel()
	s := simtest.NewStore()
	d := simtest.MustCreate(t, s, simtest.NewDeployment("web", 1, "nginx"))
	o, ok := s.ByUID(d.UID)
	require.True(t, ok)
	assert.Same(t, d, o)
	assert.True(t, s.Exists(d.UID))
	require.NoError(t, s.Delete(api.KindDeployment, "", "web", store.DeleteOptions{}))
	_, ok = s.ByUID(d.UID)
	assert.False(t, ok)
	assert.False(t, s.Exists(d.UID))
	_, ok = s.ByUID("nope")
	assert.False(t, ok)
}

func TestErrorHelpers(t *testing.T) {
	t.Parallel()
	err := store.NewForbidden(api.KindPod, "p", "because")
	assert.EqualError(t, err, `pods "p" is forbidden: because`)
	assert.True(t, errors.Is(err, store.ErrForbidden))
	err = store.NewBadRequest("bad")
	assert.EqualError(t, err, "bad")
	assert.Equal(t, store.ReasonBadRequest, store.ReasonOf(err))
	assert.False(t, errors.Is(err, errors.New("bad")))
	assert.Equal(t, "replicasets.apps", store.Resource(api.KindReplicaSet))
	assert.Equal(t, "endpoints", store.Resource(api.KindEndpoints))
}
