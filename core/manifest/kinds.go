package manifest

import (
	"fmt"
	"reflect"
	"strings"

	"converge/core/api"
)

// kindInfo is one registered apiVersion/kind pair.
type kindInfo struct {
	apiVersion, kind string
	new              func() api.Object
}

// kinds are the objects a manifest may hold, in the order messages list
// them (Endpoints and Events are the control plane's to write). Their
// apiVersions and Go types are core/api's resource table's.
var kinds = registered(api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindConfigMap, api.KindService, api.KindNode,
	api.KindResourceQuota, api.KindHorizontalPodAutoscaler, api.KindPodDisruptionBudget)

func registered(names ...string) []kindInfo {
	out := make([]kindInfo, len(names))
	for i, k := range names {
		r := api.ResourceFor(k)
		out[i] = kindInfo{apiVersion: r.APIVersion(), kind: r.Kind, new: r.New}
	}
	return out
}

// KindList is the kind `kubectl get -o yaml` uses for several objects.
const KindList = "List"

// retiredVersions are API groups that once served Deployments and
// ReplicaSets; Kubernetes 1.16 stopped serving them.
var retiredVersions = map[string]bool{"extensions/v1beta1": true, "apps/v1beta1": true, "apps/v1beta2": true}

// lookupKind finds the registered kind, or explains why there is none.
func lookupKind(apiVersion, kind string) (kindInfo, string, bool) {
	var sameKind *kindInfo
	var names []string
	for i, k := range kinds {
		if k.apiVersion == apiVersion && k.kind == kind {
			return k, "", true
		}
		if k.kind == kind {
			sameKind = &kinds[i]
		}
		names = append(names, k.kind)
	}
	msg := fmt.Sprintf("no kind %q is registered for version %q", kind, apiVersion)
	switch {
	case sameKind != nil && retiredVersions[apiVersion]:
		return kindInfo{}, msg + fmt.Sprintf("; %s %ss are no longer served since Kubernetes 1.16: use apiVersion: %s", apiVersion, kind, sameKind.apiVersion), false
	case sameKind != nil:
		return kindInfo{}, msg + fmt.Sprintf("; %s is in %s: use apiVersion: %s", kind, sameKind.apiVersion, sameKind.apiVersion), false
	}
	if s := Suggest(kind, names); s != "" {
		return kindInfo{}, msg + fmt.Sprintf("; did you mean %q?", s), false
	}
	return kindInfo{}, msg + "; Converge knows " + knownKinds(), false
}

// knownKinds lists the registered kinds by apiVersion, in the order of
// kinds: "apps/v1 Deployment and ReplicaSet, v1 Pod, ..., and policy/v1
// PodDisruptionBudget".
func knownKinds() string {
	var versions []string
	byVersion := map[string][]string{}
	for _, k := range kinds {
		if _, ok := byVersion[k.apiVersion]; !ok {
			versions = append(versions, k.apiVersion)
		}
		byVersion[k.apiVersion] = append(byVersion[k.apiVersion], k.kind)
	}
	groups := make([]string, len(versions))
	for i, v := range versions {
		groups[i] = v + " " + andList(byVersion[v])
	}
	if len(groups) == 1 {
		return groups[0]
	}
	return strings.Join(groups[:len(groups)-1], ", ") + ", and " + groups[len(groups)-1]
}

// andList is "A", "A and B" or "A, B and C".
func andList(items []string) string {
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// listItemKind returns the kind of a typed list ("DeploymentList" →
// Deployment), or "" when kind is not a list of a registered kind.
func listItemKind(apiVersion, kind string) string {
	if kind == KindList && apiVersion == api.GroupVersionCore {
		return "*"
	}
	item, ok := strings.CutSuffix(kind, "List")
	if !ok {
		return ""
	}
	if _, _, ok := lookupKind(apiVersion, item); ok {
		return item
	}
	return ""
}

// serverSetMetadata are metadata fields that the API server sets; they are
// dropped from input with a note.
var serverSetMetadata = []string{
	"uid", "resourceVersion", "generation", "creationTimestamp", "selfLink", "managedFields",
	"deletionTimestamp", "deletionGracePeriodSeconds",
}

// serverSetAnnotations are annotations written by the Deployment controller
// and by kubectl apply.
var serverSetAnnotations = []string{api.RevisionAnnotation, api.LastAppliedAnnotation}

// ignoredFields are Kubernetes fields that Converge neither models nor
// simulates. They are valid in real manifests, so they are dropped with a
// note rather than refused as unknown.
var ignoredFields = map[reflect.Type][]string{
	reflect.TypeFor[api.PodSpec](): {
		"automountServiceAccountToken", "dnsConfig", "ephemeralContainers", "hostAliases", "hostIPC", "hostPID",
		"hostUsers", "os", "overhead", "readinessGates", "resourceClaims", "resources", "runtimeClassName",
		"schedulingGates", "setHostnameAsFQDN", "shareProcessNamespace",
	},
	reflect.TypeFor[api.Container]():     {"resizePolicy", "restartPolicy", "restartPolicyRules", "stdinOnce", "volumeDevices"},
	reflect.TypeFor[api.ContainerPort](): {"hostIP"},
	reflect.TypeFor[api.Lifecycle]():     {"stopSignal"},
	reflect.TypeFor[api.ServiceSpec](): {
		"allocateLoadBalancerNodePorts", "externalIPs", "externalName", "externalTrafficPolicy",
		"healthCheckNodePort", "loadBalancerClass", "loadBalancerIP", "loadBalancerSourceRanges",
		"publishNotReadyAddresses", "sessionAffinityConfig", "trafficDistribution",
	},
	reflect.TypeFor[api.ServicePort]():       {"appProtocol"},
	reflect.TypeFor[api.NodeSpec]():          {"configSource", "externalID", "podCIDR", "podCIDRs", "providerID"},
	reflect.TypeFor[api.ResourceQuotaSpec](): {"scopeSelector"},
}
