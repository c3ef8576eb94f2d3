// Package resourcequota is the resource quota controller of
// kube-controller-manager (pkg/controller/resourcequota): for every
// ResourceQuota it keeps status.hard equal to spec.hard and status.used
// equal to what the objects of its namespace use (quota.Calculate), so that
// the admission plugin, which charges each create against status.used,
// sees usage fall again when pods end or go.
//
// Kubernetes recalculates on a full resync every 5 minutes and at once
// when a pod is deleted or finishes (its replenishment controller); Converge
// recalculates on every sync, which is what the replenishment makes of the
// cases a scenario meets. See docs/fidelity.md.
package resourcequota

import (
	"errors"
	"fmt"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/quota"
	"converge/core/store"
)

// Component is the controller's name, the one its sync records carry
// (sim.TickOrder lists every component's).
const Component = "resourcequota-controller"

// Controller is the resource quota controller. It keeps no state.
type Controller struct{}

var _ controller.Controller = (*Controller)(nil)

// New returns the controller.
func New() *Controller { return &Controller{} }

// Name implements controller.Controller.
func (c *Controller) Name() string { return Component }

// Clone implements controller.Controller; the controller has no state.
func (c *Controller) Clone() controller.Controller { return c }

// Sync is syncResourceQuota for every quota: it compares the status with
// the spec's hard limits and the usage it observes, and writes the status
// when either differs (a quota seen for the first time always gets one).
func (c *Controller) Sync(ctx *controller.Context) {
	s := ctx.Store
	quotas := s.ResourceQuotas()
	if len(quotas) == 0 {
		return
	}
	objects := func(kind string) []api.Object { return s.List(kind) }
	for _, q := range quotas {
		syncQuota(ctx, q, objects)
	}
}

func syncQuota(ctx *controller.Context, q *api.ResourceQuota, objects func(string) []api.Object) {
	hard := q.Spec.Hard.DeepCopy()
	if hard == nil {
		hard = api.ResourceList{}
	}
	used := quota.Mask(quota.Add(api.ResourceList{}, q.Status.Used), quota.Names(hard))
	for k, v := range quota.Calculate(q, hard, objects, ctx.Now()) {
		used[k] = v
	}
	rec := controller.SyncRecord{Controller: Component, Object: store.ShortRef(api.KindResourceQuota, q.Name),
		Observed: "used " + describe(used), Desired: "hard " + describe(hard)}
	dirty := q.Status.Hard == nil || q.Status.Used == nil || !quota.Equals(hard, q.Status.Hard) || !quota.Equals(used, q.Status.Used)
	if !dirty {
		rec.InSync = true
		ctx.Record(rec)
		return
	}
	next := q.DeepCopy()
	next.Status = api.ResourceQuotaStatus{Hard: hard, Used: used}
	if _, err := ctx.Store.UpdateStatus(next); err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			rec.Waiting = fmt.Sprintf("update the status of resource quota %s: %v", q.Name, err)
			ctx.Record(rec)
		}
		return
	}
	rec.Action = "update status: used " + describe(used)
	ctx.Record(rec)
}

// describe is "pods=3,requests.cpu=1500m", or "nothing".
func describe(l api.ResourceList) string {
	if len(l) == 0 {
		return "nothing"
	}
	return quota.PrettyPrint(l)
}
