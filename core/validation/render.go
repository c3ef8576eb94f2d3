package validation

import "converge/core/api"

// Kubernetes validates its internal types, which have no JSON tags, so a bad
// value that is one of those structs renders with Go field names in 1.34+
// (`{"Type":"Foo","RollingUpdate":null}`). These shapes reproduce that
// rendering for the few values that are passed whole; metav1 types such as
// LabelSelector keep their JSON names.

type internalRollingUpdate struct {
	MaxUnavailable api.IntOrString
	MaxSurge       api.IntOrString
}

type internalDeploymentStrategy struct {
	Type          string
	RollingUpdate *internalRollingUpdate
}

func internalStrategy(s *api.DeploymentStrategy) internalDeploymentStrategy {
	out := internalDeploymentStrategy{Type: s.Type}
	if s.RollingUpdate != nil {
		out.RollingUpdate = &internalRollingUpdate{MaxUnavailable: derefIntOrString(s.RollingUpdate.MaxUnavailable),
			MaxSurge: derefIntOrString(s.RollingUpdate.MaxSurge)}
	}
	return out
}

type internalToleration struct {
	Key               string
	Operator          string
	Value             string
	Effect            string
	TolerationSeconds *int64
}

func internalTolerationOf(t api.Toleration) internalToleration {
	return internalToleration{Key: t.Key, Operator: t.Operator, Value: t.Value, Effect: t.Effect, TolerationSeconds: t.TolerationSeconds}
}

type internalTaint struct {
	Key       string
	Value     string
	Effect    string
	TimeAdded *api.Time
}

type internalServicePort struct {
	Name        string
	Protocol    string
	AppProtocol *string
	Port        int32
	TargetPort  api.IntOrString
	NodePort    int32
}

type internalNodeAddress struct {
	Type    string
	Address string
}
