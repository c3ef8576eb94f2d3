package store

import "converge/core/api"

// UpdateDeploymentStatus writes a Deployment through its status subresource
// the way the real API server does for apps/v1 Deployments
// (pkg/registry/apps/deployment/strategy.go, deploymentStatusStrategy): the
// new status and the new metadata.annotations are stored, while spec, labels
// and the server-set metadata are kept. generation does not change. The
// Deployment controller writes its deployment.kubernetes.io/revision
// annotation this way, together with the status, so that recording a revision
// does not look like a user edit.
//
// A non-empty resourceVersion that is not the stored one is a Conflict.
func (s *Store) UpdateDeploymentStatus(d *api.Deployment) (*api.Deployment, error) {
	c := s.kinds[api.KindDeployment]
	ns := d.Namespace
	if ns == "" {
		ns = api.NamespaceDefault
	}
	k := key(ns, d.Name)
	o, ok := c.get(k)
	if !ok {
		return nil, notFound(api.KindDeployment, d.Name)
	}
	old := o.(*api.Deployment)
	if d.ResourceVersion != "" && d.ResourceVersion != old.ResourceVersion {
		return nil, conflict(api.KindDeployment, d.Name)
	}
	next := *old
	next.ObjectMeta = old.ObjectMeta.DeepCopy()
	next.Annotations = api.CopyStringMap(d.Annotations)
	next.Status = d.Status.DeepCopy()
	next.ResourceVersion = s.nextRV()
	c.replace(k, &next)
	s.changed(c, changeMeta|changeStatus)
	s.trackWrite(api.KindDeployment, old, &next, SubresourceStatus, nil)
	return &next, nil
}
