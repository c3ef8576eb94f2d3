package store

import (
	"time"

	"converge/core/api"
)

func secondsDur(s int64) time.Duration { return time.Duration(s) * time.Second }

// Typed accessors. Each returns shared objects: do not modify them.

// Deployments returns every Deployment in creation order.
func (s *Store) Deployments() []*api.Deployment {
	return listAs[*api.Deployment](s, api.KindDeployment)
}

// ReplicaSets returns every ReplicaSet in creation order.
func (s *Store) ReplicaSets() []*api.ReplicaSet {
	return listAs[*api.ReplicaSet](s, api.KindReplicaSet)
}

// Pods returns every Pod in creation order.
func (s *Store) Pods() []*api.Pod { return listAs[*api.Pod](s, api.KindPod) }

// Nodes returns every Node in creation order.
func (s *Store) Nodes() []*api.Node { return listAs[*api.Node](s, api.KindNode) }

// Services returns every Service in creation order.
func (s *Store) Services() []*api.Service { return listAs[*api.Service](s, api.KindService) }

// ConfigMaps returns every ConfigMap in creation order.
func (s *Store) ConfigMaps() []*api.ConfigMap { return listAs[*api.ConfigMap](s, api.KindConfigMap) }

// EndpointsList returns every Endpoints object in creation order.
func (s *Store) EndpointsList() []*api.Endpoints { return listAs[*api.Endpoints](s, api.KindEndpoints) }

// HorizontalPodAutoscalers returns every HorizontalPodAutoscaler in creation order.
func (s *Store) HorizontalPodAutoscalers() []*api.HorizontalPodAutoscaler {
	return listAs[*api.HorizontalPodAutoscaler](s, api.KindHorizontalPodAutoscaler)
}

// ResourceQuotas returns every ResourceQuota in creation order.
func (s *Store) ResourceQuotas() []*api.ResourceQuota {
	return listAs[*api.ResourceQuota](s, api.KindResourceQuota)
}

// PodDisruptionBudgets returns every PodDisruptionBudget in creation order.
func (s *Store) PodDisruptionBudgets() []*api.PodDisruptionBudget {
	return listAs[*api.PodDisruptionBudget](s, api.KindPodDisruptionBudget)
}

// Events returns every Event in creation order.
func (s *Store) Events() []*api.Event { return listAs[*api.Event](s, api.KindEvent) }

func listAs[T api.Object](s *Store, kind string) []T {
	c := s.kinds[kind]
	out := make([]T, 0, c.len())
	c.each(func(o api.Object) bool {
		out = append(out, o.(T))
		return true
	})
	return out
}

// EachPod calls f for every pod in creation order until f returns false. It
// allocates nothing; use it on hot paths. f may write to the store: a pod
// it deletes is not visited afterwards, and pods it creates are not
// visited in this loop.
func (s *Store) EachPod(f func(*api.Pod) bool) {
	c := s.kinds[api.KindPod]
	c.iterating++
	defer func() {
		c.iterating--
		c.maybeCompact()
	}()
	n := c.n
	for pos := 0; pos < n; pos++ {
		if o := c.at(pos); o != nil && !f(o.(*api.Pod)) {
			return
		}
	}
}

// GetDeployment returns a Deployment, or nil and a NotFound error.
func (s *Store) GetDeployment(namespace, name string) (*api.Deployment, error) {
	return getAs[*api.Deployment](s, api.KindDeployment, namespace, name)
}

// GetReplicaSet returns a ReplicaSet, or nil and a NotFound error.
func (s *Store) GetReplicaSet(namespace, name string) (*api.ReplicaSet, error) {
	return getAs[*api.ReplicaSet](s, api.KindReplicaSet, namespace, name)
}

// GetPod returns a Pod, or nil and a NotFound error.
func (s *Store) GetPod(namespace, name string) (*api.Pod, error) {
	return getAs[*api.Pod](s, api.KindPod, namespace, name)
}

// GetNode returns a Node, or nil and a NotFound error.
func (s *Store) GetNode(name string) (*api.Node, error) {
	return getAs[*api.Node](s, api.KindNode, "", name)
}

// GetService returns a Service, or nil and a NotFound error.
func (s *Store) GetService(namespace, name string) (*api.Service, error) {
	return getAs[*api.Service](s, api.KindService, namespace, name)
}

// GetConfigMap returns a ConfigMap, or nil and a NotFound error.
func (s *Store) GetConfigMap(namespace, name string) (*api.ConfigMap, error) {
	return getAs[*api.ConfigMap](s, api.KindConfigMap, namespace, name)
}

// GetHorizontalPodAutoscaler returns an HPA, or nil and a NotFound error.
func (s *Store) GetHorizontalPodAutoscaler(namespace, name string) (*api.HorizontalPodAutoscaler, error) {
	return getAs[*api.HorizontalPodAutoscaler](s, api.KindHorizontalPodAutoscaler, namespace, name)
}

// getAs is Get for a kind whose Go type is T; the typed getters above are
// built on it, as the typed lists are on listAs.
func getAs[T api.Object](s *Store, kind, namespace, name string) (T, error) {
	o, err := s.Get(kind, namespace, name)
	if err != nil {
		var none T
		return none, err
	}
	return o.(T), nil
}
