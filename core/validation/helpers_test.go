package validation_test

import (
	"converge/core/api"
)

// deployment returns a defaulted Deployment "web" (selector and template
// labels app=web, one container web running nginx:1.27), then applies the
// tweaks, the way the API server sees a user's Deployment.
func deployment(tweaks ...func(*api.Deployment)) *api.Deployment {
	d := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web"}}
	d.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	d.Spec.Template.Labels = map[string]string{"app": "web"}
	d.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "nginx:1.27"}}
	api.SetDefaultsDeployment(d)
	for _, tw := range tweaks {
		tw(d)
	}
	return d
}

// stored returns d as the store keeps it after a create, so that it can be
// the old object of an update.
func stored(d *api.Deployment) *api.Deployment {
	out := d.DeepCopy()
	out.UID = "uid-1"
	out.ResourceVersion = "1"
	out.Generation = 1
	out.CreationTimestamp = api.NewTime(api.Epoch)
	return out
}

func replicaSet(tweaks ...func(*api.ReplicaSet)) *api.ReplicaSet {
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web-5d9c7b8f4"}}
	rs.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": "web", "pod-template-hash": "5d9c7b8f4"}}
	rs.Spec.Template.Labels = map[string]string{"app": "web", "pod-template-hash": "5d9c7b8f4"}
	rs.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "nginx:1.27"}}
	api.SetDefaultsReplicaSet(rs)
	for _, tw := range tweaks {
		tw(rs)
	}
	return rs
}

func pod(tweaks ...func(*api.Pod)) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-5d9c7b8f4-x2kqz", Labels: map[string]string{"app": "web"}}}
	p.Spec.Containers = []api.Container{{Name: "web", Image: "nginx:1.27"}}
	api.SetDefaultsPod(p)
	for _, tw := range tweaks {
		tw(p)
	}
	return p
}

func storedPod(p *api.Pod) *api.Pod {
	out := p.DeepCopy()
	out.UID = "uid-1"
	out.ResourceVersion = "1"
	out.CreationTimestamp = api.NewTime(api.Epoch)
	return out
}

func intstr(v int32) *api.IntOrString   { x := api.FromInt(v); return &x }
func percent(s string) *api.IntOrString { x := api.FromString(s); return &x }
