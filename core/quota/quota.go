// Package quota is what the ResourceQuota admission plugin
// (plugin/pkg/admission/resourcequota) and the resource quota controller
// (pkg/controller/resourcequota) share: how much of each quota resource an
// object uses (the evaluators of pkg/quota/v1/evaluator/core and the
// generic object-count evaluator), which quotas an object falls under, the
// pod constraints, the arithmetic on resource lists (apiserver's
// pkg/quota/v1 resources.go) and the texts of the admission errors.
//
// The resources Converge counts: for pods "pods", "cpu"/"requests.cpu",
// "memory"/"requests.memory", "limits.cpu", "limits.memory" and
// "count/pods"; for Services "services", "services.nodeports" and
// "services.loadbalancers"; for every kind of the resource table its
// object count "count/<resource>[.<group>]" (and the legacy "configmaps"
// and "resourcequotas"). Quota scopes Terminating, NotTerminating,
// BestEffort, NotBestEffort and PriorityClass narrow the pods counted.
// See docs/fidelity.md for what is simplified.
package quota

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"converge/core/api"
)

// List is a resource list keyed by quota resource name.
type List = api.ResourceList

// Add is quota.Add: the sum of a and b, key by key.
func Add(a, b List) List {
	out := List{}
	for k, v := range a {
		if w, ok := b[k]; ok {
			out[k] = v.Plus(w)
		} else {
			out[k] = v
		}
	}
	for k, v := range b {
		if _, ok := out[k]; !ok {
			out[k] = v
		}
	}
	return out
}

// Mask is quota.Mask: the entries of l whose names are in names.
func Mask(l List, names []string) List {
	out := List{}
	for _, n := range names {
		if v, ok := l[n]; ok {
			out[n] = v
		}
	}
	return out
}

// Names is quota.ResourceNames, sorted.
func Names(l List) []string {
	out := make([]string, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// LessThanOrEqual is quota.LessThanOrEqual: whether every entry of a that
// b limits is at most b's, and the names that are not.
func LessThanOrEqual(a, b List) (bool, []string) {
	var exceeded []string
	for _, k := range Names(a) {
		if lim, ok := b[k]; ok && a[k].MilliValue() > lim.MilliValue() {
			exceeded = append(exceeded, k)
		}
	}
	return len(exceeded) == 0, exceeded
}

// Equals is quota.Equals: the same names with the same values.
func Equals(a, b List) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || v.MilliValue() != w.MilliValue() {
			return false
		}
	}
	return true
}

// RemoveZeros is quota.RemoveZeros: l without its zero entries.
func RemoveZeros(l List) List {
	out := List{}
	for k, v := range l {
		if v.MilliValue() != 0 {
			out[k] = v
		}
	}
	return out
}

// PrettyPrint is the admission plugin's prettyPrint:
// "requests.cpu=500m,requests.memory=1Gi", names sorted, values as
// Kubernetes prints quantities.
func PrettyPrint(l List) string {
	parts := make([]string, 0, len(l))
	for _, k := range Names(l) {
		parts = append(parts, k+"="+l[k].CanonicalString())
	}
	return strings.Join(parts, ",")
}

// ObjectCountName is generic.ObjectCountQuotaResourceNameFor: count/pods,
// count/deployments.apps.
func ObjectCountName(kind string) string {
	if r := api.ResourceFor(kind); r != nil {
		return api.ResourceObjectCountPrefix + r.GroupResource()
	}
	return ""
}

// podComputeResources are the pod evaluator's compute resources (and the
// ones a scope other than BestEffort applies to); validationSet are those
// every container must request or limit once a quota limits them.
var (
	podComputeResources = []string{api.ResourceCPU, api.ResourceLimitsCPU, api.ResourceLimitsMemory, api.ResourceMemory,
		api.ResourceRequestsCPU, api.ResourceRequestsMemory}
	validationSet = []string{api.ResourceCPU, api.ResourceMemory, api.ResourceRequestsCPU, api.ResourceRequestsMemory,
		api.ResourceLimitsCPU, api.ResourceLimitsMemory}
	serviceResources = []string{"services", "services.loadbalancers", "services.nodeports"}
)

// legacyCounts are the object counts core kinds also have without count/.
var legacyCounts = map[string]string{api.KindConfigMap: "configmaps", api.KindResourceQuota: "resourcequotas"}

// MatchingResources is an evaluator's MatchingResources: the names among
// names that objects of kind use.
func MatchingResources(kind string, names []string) []string {
	var out []string
	for _, n := range names {
		if n == ObjectCountName(kind) || n == legacyCounts[kind] ||
			kind == api.KindPod && (n == api.ResourcePods || slices.Contains(podComputeResources, n)) ||
			kind == api.KindService && slices.Contains(serviceResources, n) {
			out = append(out, n)
		}
	}
	return out
}

// Usage is an evaluator's Usage: what obj uses of each resource its kind
// is counted in. A pod in a terminal phase, or past twice its grace period
// since it was deleted (stuck terminating on a lost node), uses only its
// object count (PodUsageFunc, QuotaV1Pod).
func Usage(obj api.Object, now time.Time) List {
	kind := api.KindOf(obj)
	out := List{ObjectCountName(kind): api.NewQuantity(1)}
	if n, ok := legacyCounts[kind]; ok {
		out[n] = api.NewQuantity(1)
	}
	switch o := obj.(type) {
	case *api.Pod:
		if countsForQuota(o, now) {
			out = Add(out, podUsage(&o.Spec))
		}
	case *api.Service:
		out["services"] = api.NewQuantity(1)
		switch o.Spec.Type {
		case "LoadBalancer":
			out["services.loadbalancers"] = api.NewQuantity(1)
			out["services.nodeports"] = api.NewQuantity(int64(len(o.Spec.Ports)))
		case "NodePort":
			out["services.nodeports"] = api.NewQuantity(int64(len(o.Spec.Ports)))
		}
	}
	return out
}

// countsForQuota is QuotaV1Pod: not terminal, and not past its deletion
// time plus its grace period.
func countsForQuota(p *api.Pod, now time.Time) bool {
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		return false
	}
	if p.DeletionTimestamp != nil && p.DeletionGracePeriodSeconds != nil {
		end := p.DeletionTimestamp.Add(time.Duration(*p.DeletionGracePeriodSeconds) * time.Second)
		if now.After(end) {
			return false
		}
	}
	return true
}

// podUsage is podComputeUsageHelper over the pod's requests and limits
// (resourcehelper.PodRequests and PodLimits: the containers' sum, or the
// largest init container's when that is more): pods 1, and each of cpu,
// requests.cpu, limits.cpu, memory, requests.memory, limits.memory that a
// container sets. A container's missing request is its limit, as defaulting
// makes it.
func podUsage(s *api.PodSpec) List {
	out := List{api.ResourcePods: api.NewQuantity(1)}
	for _, r := range []string{api.ResourceCPU, api.ResourceMemory} {
		if req, ok := podTotal(s, r, true); ok {
			out[r] = req
			out["requests."+r] = req
		}
		if lim, ok := podTotal(s, r, false); ok {
			out["limits."+r] = lim
		}
	}
	return out
}

// podTotal sums resource r's requests (or limits) over the containers and
// takes the largest init container's when that is more; false when no
// container sets it.
//
// The sum is written in the notation of the first container's non-zero
// amount, as resource.Quantity's Add keeps its receiver's format in memory:
// 128Mi + 1G + 1e9 is 2084197Ki, not 2134217728.
func podTotal(s *api.PodSpec, r string, requests bool) (api.Quantity, bool) {
	var first, rest api.Quantity
	found := false
	for i := range s.Containers {
		if q, ok := containerAmount(&s.Containers[i], r, requests); ok {
			if first.MilliValue() == 0 {
				first = q
			} else {
				rest = rest.Plus(q)
			}
			found = true
		}
	}
	sum := first.Plus(rest)
	for i := range s.InitContainers {
		if q, ok := containerAmount(&s.InitContainers[i], r, requests); ok {
			if !found || q.MilliValue() > sum.MilliValue() {
				sum = q
			}
			found = true
		}
	}
	return sum, found
}

func containerAmount(c *api.Container, r string, requests bool) (api.Quantity, bool) {
	if requests {
		if q, ok := c.Resources.Requests[r]; ok {
			return q, true
		}
	}
	q, ok := c.Resources.Limits[r]
	return q, ok
}

// Matches is generic.Matches: whether the quota limits something objects
// of obj's kind use (by its status.hard: a quota the controller has not
// synced yet limits nothing) and every scope of the quota selects obj.
func Matches(q *api.ResourceQuota, obj api.Object) bool {
	kind := api.KindOf(obj)
	if len(MatchingResources(kind, Names(q.Status.Hard))) == 0 {
		return false
	}
	for _, sc := range q.Spec.Scopes {
		if !matchesScope(sc, obj) {
			return false
		}
	}
	return true
}

// matchesScope is podMatchesScopeFunc; only pods fall under a scope.
func matchesScope(scope string, obj api.Object) bool {
	p, ok := obj.(*api.Pod)
	if !ok {
		return false
	}
	switch scope {
	case api.QuotaScopeTerminating:
		return p.Spec.ActiveDeadlineSeconds != nil && *p.Spec.ActiveDeadlineSeconds >= 0
	case api.QuotaScopeNotTerminating:
		return p.Spec.ActiveDeadlineSeconds == nil || *p.Spec.ActiveDeadlineSeconds < 0
	case api.QuotaScopeBestEffort:
		return api.QOSClass(&p.Spec) == api.QOSBestEffort
	case api.QuotaScopeNotBestEffort:
		return api.QOSClass(&p.Spec) != api.QOSBestEffort
	case api.QuotaScopePriorityClass:
		return p.Spec.PriorityClassName != ""
	}
	return false
}

// Constraints is the pod evaluator's Constraints: when a quota limits cpu
// or memory (requests or limits), every container must set them; the error
// lists the missing ones, "must specify limits.cpu for: web; requests.cpu
// for: web,sidecar".
func Constraints(required []string, obj api.Object) error {
	p, ok := obj.(*api.Pod)
	if !ok {
		return nil
	}
	var need []string
	for _, r := range required {
		if slices.Contains(validationSet, r) {
			need = append(need, r)
		}
	}
	if len(need) == 0 {
		return nil
	}
	missing := map[string][]string{}
	for _, list := range [][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range list {
			c := &list[i]
			have := podUsage(&api.PodSpec{Containers: []api.Container{*c}})
			for _, r := range need {
				if _, ok := have[r]; !ok {
					missing[r] = append(missing[r], c.Name)
				}
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	names := make([]string, 0, len(missing))
	for r := range missing {
		names = append(names, r)
	}
	sort.Strings(names)
	msgs := make([]string, len(names))
	for i, r := range names {
		cs := missing[r]
		sort.Strings(cs)
		msgs[i] = fmt.Sprintf("%s for: %s", r, strings.Join(slices.Compact(cs), ","))
	}
	return fmt.Errorf("must specify %s", strings.Join(msgs, "; "))
}

// Calculate is quota.CalculateUsage for one quota: the usage of the
// objects of its namespace that it selects, for each resource of hard that
// an evaluator counts (zero when nothing uses it). objects lists a kind's
// objects.
func Calculate(q *api.ResourceQuota, hard List, objects func(kind string) []api.Object, now time.Time) List {
	names := Names(hard)
	used := List{}
	for _, r := range api.Resources() {
		matching := MatchingResources(r.Kind, names)
		if len(matching) == 0 {
			continue
		}
		for _, n := range matching {
			used[n] = api.Quantity{}.Plus(api.NewQuantity(0))
		}
		for _, o := range objects(r.Kind) {
			m := o.GetObjectMeta()
			if m.Namespace != q.Namespace || !inScopes(q.Spec.Scopes, o) {
				continue
			}
			used = Add(used, Mask(Usage(o, now), matching))
		}
	}
	return used
}

func inScopes(scopes []string, o api.Object) bool {
	for _, sc := range scopes {
		if !matchesScope(sc, o) {
			return false
		}
	}
	return true
}

// Admit is the ResourceQuota admission plugin's checkRequest for the
// create of obj: the quotas (of obj's namespace) with their new
// status.used when obj fits all of them, or the plugin's error text:
//
//	exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=1500m, limited: requests.cpu=2
//	failed quota: compute: must specify limits.cpu for: web
//
// The quotas returned are copies; only those whose usage changed are in
// changed.
func Admit(quotas []*api.ResourceQuota, obj api.Object, now time.Time) (changed []*api.ResourceQuota, err error) {
	kind := api.KindOf(obj)
	var interesting []*api.ResourceQuota
	for _, q := range quotas {
		if q.Namespace != obj.GetObjectMeta().Namespace || !Matches(q, obj) {
			continue
		}
		required := MatchingResources(kind, Names(q.Status.Hard))
		if err := Constraints(required, obj); err != nil {
			return nil, fmt.Errorf("failed quota: %s: %v", q.Name, err)
		}
		if !hasUsageStats(q, required) {
			names := slices.Clone(required)
			sort.Strings(names)
			return nil, fmt.Errorf("status unknown for quota: %s, resources: %s", q.Name, strings.Join(names, ","))
		}
		interesting = append(interesting, q)
	}
	if len(interesting) == 0 {
		return nil, nil
	}
	// The plugin drops the zero entries (quota.RemoveZeros): a request of
	// 0 is not charged, so a quota already over its limit there does not
	// refuse it.
	delta := RemoveZeros(Usage(obj, now))
	if len(delta) == 0 {
		return nil, nil
	}
	for _, q := range interesting {
		hardNames := Names(q.Status.Hard)
		requested := Mask(delta, hardNames)
		newUsage := Add(q.Status.Used, requested)
		masked := Mask(newUsage, Names(requested))
		if ok, exceeded := LessThanOrEqual(masked, q.Status.Hard); !ok {
			return nil, fmt.Errorf("exceeded quota: %s, requested: %s, used: %s, limited: %s", q.Name,
				PrettyPrint(Mask(requested, exceeded)), PrettyPrint(Mask(q.Status.Used, exceeded)), PrettyPrint(Mask(q.Status.Hard, exceeded)))
		}
		if Equals(newUsage, q.Status.Used) {
			continue
		}
		next := q.DeepCopy()
		next.Status.Used = newUsage
		changed = append(changed, next)
	}
	return changed, nil
}

// hasUsageStats is the plugin's hasUsageStats: the status has a used value
// for every hard resource the object counts in.
func hasUsageStats(q *api.ResourceQuota, interesting []string) bool {
	for _, r := range interesting {
		if _, ok := q.Status.Hard[r]; !ok {
			continue
		}
		if _, ok := q.Status.Used[r]; !ok {
			return false
		}
	}
	return true
}
