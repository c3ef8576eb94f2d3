package kubectl

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"converge/core/api"
	"converge/core/labels"
	"converge/core/store"
)

// deploymentReplicaSets is deploymentutil.GetAllReplicaSets as kubectl has
// it: the ReplicaSets the Deployment's selector matches and that it
// controls, sorted by creation; the new one is the oldest whose template
// equals the Deployment's (ignoring pod-template-hash), the rest are old.
func deploymentReplicaSets(st *store.Store, d *api.Deployment) (old []*api.ReplicaSet, newRS *api.ReplicaSet) {
	sel, err := labels.FromLabelSelector(d.Spec.Selector)
	if err != nil {
		return nil, nil
	}
	var owned []*api.ReplicaSet
	for _, rs := range st.ReplicaSets() {
		if rs.Namespace == d.Namespace && sel.Matches(rs.Labels) && api.IsControlledBy(&rs.ObjectMeta, d.UID) {
			owned = append(owned, rs)
		}
	}
	sort.SliceStable(owned, func(i, j int) bool {
		a, b := owned[i], owned[j]
		if !a.CreationTimestamp.Equal(b.CreationTimestamp) {
			return a.CreationTimestamp.Before(b.CreationTimestamp.Time)
		}
		return a.Name < b.Name
	})
	for _, rs := range owned {
		if newRS == nil && equalIgnoreHash(&rs.Spec.Template, &d.Spec.Template) {
			newRS = rs
			continue
		}
		old = append(old, rs)
	}
	return old, newRS
}

// equalIgnoreHash compares two pod templates without their
// pod-template-hash labels; empty and missing fields compare equal.
func equalIgnoreHash(a, b *api.PodTemplateSpec) bool {
	return bytes.Equal(templateJSON(a), templateJSON(b))
}

func templateJSON(t *api.PodTemplateSpec) []byte {
	c := t.DeepCopy()
	delete(c.Labels, api.DefaultDeploymentUniqueLabelKey)
	if len(c.Labels) == 0 {
		c.Labels = nil
	}
	if len(c.Annotations) == 0 {
		c.Annotations = nil
	}
	b, _ := json.Marshal(c)
	return b
}

// revisionOf is deploymentutil.Revision: deployment.kubernetes.io/revision,
// 0 when missing; ok is false when it is not a number.
func revisionOf(m *api.ObjectMeta) (int64, bool) {
	v, found := m.Annotations[api.RevisionAnnotation]
	if !found {
		return 0, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}
