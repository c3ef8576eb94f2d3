package k8scase

import (
	"fmt"
	"strconv"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/deployment"
	"converge/core/controller/replicaset"
	"converge/core/store"
)

// fillerNamespace holds the pods that use up the store's pod limit when a
// case sets CreateLimit; Dump never looks there.
const fillerNamespace = "k8scase-filler"

// Run loads the case into a Converge store, runs one sync of the case's
// controller (Converge's deployment or replicaset controller, as the
// simulation runs them) and returns the outcome. A case whose objects the
// store refuses is an outcome too (Rejected); any other load error is
// returned.
func Run(c *Case) (*Outcome, error) {
	l, err := Load(c)
	if store.ReasonOf(err) == store.ReasonInvalid {
		return &Outcome{Rejected: err.Error()}, nil
	}
	if err != nil {
		return nil, err
	}
	return l.Sync(c)
}

// Sync runs one sync of the case's controller on a loaded case.
func (l *Loaded) Sync(c *Case) (*Outcome, error) {
	if c.CreateLimit != nil {
		if err := l.fill(*c.CreateLimit); err != nil {
			return nil, err
		}
	}
	ctx := &controller.Context{Store: l.Store, Log: &controller.SyncLog{}, KeepCalls: true}
	var name string
	switch c.Controller {
	case DeploymentController:
		name = deployment.Component
		deployment.New().Sync(ctx)
	case ReplicaSetController:
		name = replicaset.Component
		replicaset.New().Sync(ctx)
	default:
		return nil, fmt.Errorf("case %q: unknown controller %q", c.Name, c.Controller)
	}
	out := &Outcome{After: l.Dump(c.Deployment.Name), Records: ctx.Log.Records}
	for _, e := range ctx.Calls { // as the controller asked, before the recorder's correlation
		if e.Source == name {
			out.Events = append(out.Events, Event{Type: e.Type, Reason: e.Reason, Message: e.Message})
		}
	}
	return out, nil
}

// fill creates pods in fillerNamespace until only limit more pods fit
// under the store's limit, so that creates beyond limit fail as they do
// against a quota.
func (l *Loaded) fill(limit int) error {
	n := store.MaxPods - l.Store.Count(api.KindPod) - limit
	for i := 0; i < n; i++ {
		p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "filler-" + strconv.Itoa(i), Namespace: fillerNamespace}}
		p.Spec.Containers = []api.Container{{Name: "app", Image: "pause"}}
		if _, err := l.Store.Create(p); err != nil {
			return fmt.Errorf("fill the pod limit: %w", err)
		}
	}
	return nil
}
