package scenario

import (
	"reflect"
	"sort"
	"strings"

	"converge/core/api"
)

// kindNames maps kubectl's resource names, plurals and short names to kinds.
var kindNames = map[string]string{
	"deployment": api.KindDeployment, "deployments": api.KindDeployment, "deploy": api.KindDeployment,
	"replicaset": api.KindReplicaSet, "replicasets": api.KindReplicaSet, "rs": api.KindReplicaSet,
	"pod": api.KindPod, "pods": api.KindPod, "po": api.KindPod,
	"node": api.KindNode, "nodes": api.KindNode, "no": api.KindNode,
	"configmap": api.KindConfigMap, "configmaps": api.KindConfigMap, "cm": api.KindConfigMap,
	"service": api.KindService, "services": api.KindService, "svc": api.KindService,
	"endpoints": api.KindEndpoints, "ep": api.KindEndpoints,
}

// kindTypes are the Go types of the kinds, for checking expect paths.
var kindTypes = map[string]reflect.Type{
	api.KindDeployment: reflect.TypeFor[api.Deployment](),
	api.KindReplicaSet: reflect.TypeFor[api.ReplicaSet](),
	api.KindPod:        reflect.TypeFor[api.Pod](),
	api.KindNode:       reflect.TypeFor[api.Node](),
	api.KindConfigMap:  reflect.TypeFor[api.ConfigMap](),
	api.KindService:    reflect.TypeFor[api.Service](),
	api.KindEndpoints:  reflect.TypeFor[api.Endpoints](),
}

// LookupKind returns the kind a kubectl resource name stands for
// (deployment, deploy, deployments, deployment.apps → Deployment), matching
// case-insensitively as kubectl does.
func LookupKind(name string) (string, bool) {
	n := strings.ToLower(name)
	if base, ok := strings.CutSuffix(n, ".apps"); ok {
		k, found := kindNames[base]
		return k, found && api.APIVersionFor(k) == api.GroupVersionApps
	}
	k, ok := kindNames[n]
	return k, ok
}

// resourceName is the canonical lower-case singular name of a kind.
func resourceName(kind string) string { return strings.ToLower(kind) }

func kindNameList() []string {
	out := make([]string, 0, len(kindNames))
	for k := range kindNames {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
