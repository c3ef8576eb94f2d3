package simtest

import (
	"fmt"

	"converge/core/api"
	"converge/core/store"
)

// TB is the part of testing.TB the helpers use, so that they serve tests,
// benchmarks and fuzz targets alike.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// MustCreate creates obj in s and fails the test on error.
func MustCreate[T api.Object](t TB, s *store.Store, obj T) T {
	t.Helper()
	out, err := s.Create(obj)
	if err != nil {
		t.Fatalf("create %T %s: %v", obj, obj.GetObjectMeta().Name, err)
	}
	return out.(T)
}

// Nodes creates n nodes node-1..node-n, each with the given capacity
// ("4", "8Gi", 110 pods), and returns their names.
func Nodes(t TB, s *store.Store, n int, cpu, memory string, pods int) []string {
	t.Helper()
	names := make([]string, n)
	for i := range names {
		names[i] = MustCreate(t, s, NewNode(fmt.Sprintf("node-%d", i+1), cpu, memory, pods)).Name
	}
	return names
}

// OwnedPods creates n pending pods prefix-0..prefix-(n-1) with rs's
// template labels and rs as their controller; opts change each pod further.
func OwnedPods(t TB, s *store.Store, rs *api.ReplicaSet, prefix string, n int, opts ...PodOption) []*api.Pod {
	t.Helper()
	ref := api.NewControllerRef(rs)
	out := make([]*api.Pod, n)
	for i := range out {
		o := append([]PodOption{WithPodLabels(rs.Spec.Template.Labels), WithPodOwnerRef(ref)}, opts...)
		out[i] = MustCreate(t, s, NewPod(fmt.Sprintf("%s-%d", prefix, i), o...))
	}
	return out
}

// GetPod returns pod name of the default namespace, failing the test when
// there is none.
func GetPod(t TB, s *store.Store, name string) *api.Pod {
	t.Helper()
	p, err := s.GetPod(api.NamespaceDefault, name)
	if err != nil {
		t.Fatalf("get pod %s: %v", name, err)
	}
	return p
}

// GetReplicaSet returns ReplicaSet name of the default namespace, failing
// the test when there is none.
func GetReplicaSet(t TB, s *store.Store, name string) *api.ReplicaSet {
	t.Helper()
	rs, err := s.GetReplicaSet(api.NamespaceDefault, name)
	if err != nil {
		t.Fatalf("get replicaset %s: %v", name, err)
	}
	return rs
}
