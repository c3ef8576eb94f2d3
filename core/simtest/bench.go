package simtest

import (
	"fmt"
	"testing"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/store"
)

// ClusterOptions describes a large cluster for benchmarks.
type ClusterOptions struct {
	// Nodes is the number of nodes node-1..node-N, each with 64 cpu, 256Gi
	// and room for 110 pods.
	Nodes int
	// Pods is the number of pods of the ReplicaSet, named web-HASH-00000...
	Pods int
	// Bound binds the pods to the nodes, round-robin; otherwise they are pending.
	Bound bool
	// Ready makes every bound pod Running and Ready.
	Ready bool
	// Requests makes every pod request 100m cpu and 128Mi.
	Requests bool
}

// Cluster is what NewCluster built.
type Cluster struct {
	Store      *store.Store
	Nodes      []string
	Deployment *api.Deployment
	// ReplicaSet is the Deployment's (its pod-template-hash is BenchHash),
	// with spec.replicas Pods and every pod.
	ReplicaSet *api.ReplicaSet
}

// BenchHash is the pod-template-hash of a Cluster's ReplicaSet.
const BenchHash = "5d9c7b8f4"

// NewCluster builds, in a new store, a Deployment web whose ReplicaSet owns
// o.Pods pods on o.Nodes nodes: the middle of a large simulation. Like the
// pods a ReplicaSet sync creates, each batch of 500 pods shares one
// containers array.
func NewCluster(t TB, o ClusterOptions) *Cluster {
	t.Helper()
	s := NewStore()
	c := &Cluster{Store: s, Nodes: Nodes(t, s, o.Nodes, "64", "256Gi", 110)}
	c.Deployment = MustCreate(t, s, NewDeployment("web", int32(o.Pods), "nginx:1.25"))
	l := map[string]string{"app": "web", api.DefaultDeploymentUniqueLabelKey: BenchHash}
	c.ReplicaSet = MustCreate(t, s, NewReplicaSet("web-"+BenchHash, int32(o.Pods), "nginx:1.25", WithRSLabels(l), WithRSOwner(c.Deployment)))
	ref := api.NewControllerRef(c.ReplicaSet)
	var shared []api.Container
	for i := 0; i < o.Pods; i++ {
		opts := []PodOption{WithPodLabels(l), WithPodOwnerRef(ref)}
		if o.Requests {
			opts = append(opts, WithPodRequests("100m", "128Mi"))
		}
		if o.Bound && len(c.Nodes) > 0 {
			opts = append(opts, WithPodNode(c.Nodes[i%len(c.Nodes)]))
			if o.Ready {
				opts = append(opts, WithPodReady(s.Clock().Now()))
			}
		}
		p := NewPod(fmt.Sprintf("%s-%05d", c.ReplicaSet.Name, i), opts...)
		if i%500 == 0 {
			shared = p.Spec.Containers
		}
		p.Spec.Containers = shared
		MustCreate(t, s, p)
	}
	return c
}

// BenchSync measures one Sync of c, each on a fresh copy of base; making
// the copy is not timed.
func BenchSync(b *testing.B, base *store.Store, c controller.Controller) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s := base.Clone(base.Clock().Clone())
		b.StartTimer()
		c.Sync(&controller.Context{Store: s})
	}
}

// BenchSteadyState measures one Sync of c on s, which must have nothing to
// do: the cost every control-plane round pays. It fails the benchmark when
// a Sync wrote to the store.
func BenchSteadyState(b *testing.B, s *store.Store, c controller.Controller) {
	b.Helper()
	rv := s.ResourceVersion()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.Sync(&controller.Context{Store: s})
	}
	b.StopTimer()
	if s.ResourceVersion() != rv {
		b.Fatalf("a steady-state Sync wrote to the store (resourceVersion %d, then %d)", rv, s.ResourceVersion())
	}
}
