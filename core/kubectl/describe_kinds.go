package kubectl

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/labels"
)

// deployment is describeDeployment.
func (d *describer) deployment(dep *api.Deployment) {
	d.write(level0, "Name:\t%s\n", dep.Name)
	d.write(level0, "Namespace:\t%s\n", dep.Namespace)
	d.write(level0, "CreationTimestamp:\t%s\n", rfc1123(dep.CreationTimestamp))
	d.labelsMultiline("", "Labels", dep.Labels)
	d.annotationsMultiline("Annotations", dep.Annotations)
	d.write(level0, "Selector:\t%s\n", selectorString(dep.Spec.Selector))
	d.write(level0, "Replicas:\t%d desired | %d updated | %d total | %d available | %d unavailable\n", api.Deref(dep.Spec.Replicas, 0),
		dep.Status.UpdatedReplicas, dep.Status.Replicas, dep.Status.AvailableReplicas, dep.Status.UnavailableReplicas)
	d.write(level0, "StrategyType:\t%s\n", dep.Spec.Strategy.Type)
	d.write(level0, "MinReadySeconds:\t%d\n", dep.Spec.MinReadySeconds)
	if ru := dep.Spec.Strategy.RollingUpdate; ru != nil {
		d.write(level0, "RollingUpdateStrategy:\t%s max unavailable, %s max surge\n", intOrStringText(ru.MaxUnavailable), intOrStringText(ru.MaxSurge))
	}
	d.podTemplate(&dep.Spec.Template)
	if len(dep.Status.Conditions) > 0 {
		d.write(level0, "Conditions:\n  Type\tStatus\tReason\n")
		d.write(level1, "----\t------\t------\n")
		for _, c := range dep.Status.Conditions {
			d.write(level1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	old, newRS := deploymentReplicaSets(d.x.st, dep)
	if len(old) > 0 || newRS != nil {
		var news []*api.ReplicaSet
		if newRS != nil {
			news = append(news, newRS)
		}
		d.write(level0, "OldReplicaSets:\t%s\n", replicaSetsCreated(old))
		d.write(level0, "NewReplicaSet:\t%s\n", replicaSetsCreated(news))
	}
	d.events(dep)
}

func intOrStringText(v *api.IntOrString) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

// replicaSetsCreated is printReplicaSetsByLabels: "web-66b6c48dd5 (3/3 replicas created)".
func replicaSetsCreated(rss []*api.ReplicaSet) string {
	parts := make([]string, len(rss))
	for i, rs := range rss {
		parts[i] = fmt.Sprintf("%s (%d/%d replicas created)", rs.Name, rs.Status.Replicas, api.Deref(rs.Spec.Replicas, 0))
	}
	if len(parts) == 0 {
		return "<none>"
	}
	return strings.Join(parts, ", ")
}

// replicaSet is describeReplicaSet.
func (d *describer) replicaSet(rs *api.ReplicaSet) {
	d.write(level0, "Name:\t%s\n", rs.Name)
	d.write(level0, "Namespace:\t%s\n", rs.Namespace)
	d.write(level0, "Selector:\t%s\n", formatLabelSelector(rs.Spec.Selector))
	d.labelsMultiline("", "Labels", rs.Labels)
	d.annotationsMultiline("Annotations", rs.Annotations)
	if by := printController(&rs.ObjectMeta); by != "" {
		d.write(level0, "Controlled By:\t%s\n", by)
	}
	d.write(level0, "Replicas:\t%d current / %d desired\n", rs.Status.Replicas, api.Deref(rs.Spec.Replicas, 0))
	running, waiting, succeeded, failed := podPhases(d.x, rs.UID, rs.Spec.Selector, rs.Namespace)
	d.write(level0, "Pods Status:\t")
	d.write(level0, "%d Running / %d Waiting / %d Succeeded / %d Failed\n", running, waiting, succeeded, failed)
	d.podTemplate(&rs.Spec.Template)
	if len(rs.Status.Conditions) > 0 {
		d.write(level0, "Conditions:\n  Type\tStatus\tReason\n")
		d.write(level1, "----\t------\t------\n")
		for _, c := range rs.Status.Conditions {
			d.write(level1, "%v \t%v\t%v\n", c.Type, c.Status, c.Reason)
		}
	}
	d.events(rs)
}

// podPhases is getPodStatusForController: the phases of the pods the
// controller owns among those its selector matches.
func podPhases(x *execCtx, uid string, ls *api.LabelSelector, ns string) (running, waiting, succeeded, failed int) {
	sel := labels.MustFromLabelSelector(ls)
	x.st.EachPod(func(p *api.Pod) bool {
		if p.Namespace != ns || !sel.Matches(p.Labels) || !api.IsControlledBy(&p.ObjectMeta, uid) {
			return true
		}
		switch p.Status.Phase {
		case api.PodRunning:
			running++
		case api.PodPending:
			waiting++
		case api.PodSucceeded:
			succeeded++
		case api.PodFailed:
			failed++
		}
		return true
	})
	return
}

// node is describeNode.
func (d *describer) node(n *api.Node) {
	d.write(level0, "Name:\t%s\n", n.Name)
	d.write(level0, "Roles:\t%s\n", orNone(strings.Join(nodeRoles(n), ",")))
	d.labelsMultiline("", "Labels", n.Labels)
	d.annotationsMultiline("Annotations", n.Annotations)
	d.write(level0, "CreationTimestamp:\t%s\n", rfc1123(n.CreationTimestamp))
	d.taintsMultiline("Taints", n.Spec.Taints)
	d.write(level0, "Unschedulable:\t%v\n", n.Spec.Unschedulable)
	d.write(level0, "Lease:\n")
	d.write(level1, "HolderIdentity:\t%s\n", n.Name)
	d.write(level1, "AcquireTime:\t%s\n", "<unset>")
	renew := "<unset>"
	if c := api.GetNodeCondition(&n.Status, api.NodeReady); c != nil && !c.LastHeartbeatTime.IsZero() {
		renew = rfc1123(c.LastHeartbeatTime)
	}
	d.write(level1, "RenewTime:\t%s\n", renew)
	if len(n.Status.Conditions) > 0 {
		d.write(level0, "Conditions:\n  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage\n")
		d.write(level1, "----\t------\t-----------------\t------------------\t------\t-------\n")
		for _, c := range n.Status.Conditions {
			d.write(level1, "%v \t%v \t%s \t%s \t%v \t%v\n", c.Type, c.Status, rfc1123(c.LastHeartbeatTime),
				rfc1123(c.LastTransitionTime), c.Reason, c.Message)
		}
	}
	d.write(level0, "Addresses:\n")
	for _, a := range n.Status.Addresses {
		d.write(level1, "%s:\t%s\n", a.Type, a.Address)
	}
	resourceList := func(l api.ResourceList) {
		for _, k := range sortedResourceNames(l) {
			d.write(level0, "  %s:\t%s\n", k, l[k].String())
		}
	}
	if len(n.Status.Capacity) > 0 {
		d.write(level0, "Capacity:\n")
		resourceList(n.Status.Capacity)
	}
	if len(n.Status.Allocatable) > 0 {
		d.write(level0, "Allocatable:\n")
		resourceList(n.Status.Allocatable)
	}
	d.write(level0, "System Info:\n")
	for _, kv := range [][2]string{{"Machine ID", ""}, {"System UUID", ""}, {"Boot ID", ""}, {"Kernel Version", ""},
		{"OS Image", ""}, {"Operating System", n.Labels["kubernetes.io/os"]}, {"Architecture", n.Labels["kubernetes.io/arch"]},
		{"Container Runtime Version", ""}, {"Kubelet Version", KubernetesVersion}} {
		d.write(level0, "  %s:\t%s\n", kv[0], kv[1])
	}
	d.nodeResources(n)
	d.events(n)
}

// nodeResources is describeNodeResource: the node's non-terminated pods and
// what they request of its allocatable resources.
func (d *describer) nodeResources(n *api.Node) {
	var pods []*api.Pod
	d.x.st.EachPod(func(p *api.Pod) bool {
		if p.Spec.NodeName == n.Name && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			pods = append(pods, p)
		}
		return true
	})
	sort.SliceStable(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		return pods[i].Name < pods[j].Name
	})
	alloc := n.Status.Allocatable
	if len(alloc) == 0 {
		alloc = n.Status.Capacity
	}
	d.write(level0, "Non-terminated Pods:\t(%d in total)\n", len(pods))
	d.write(level1, "Namespace\tName\t\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge\n")
	d.write(level1, "---------\t----\t\t------------\t----------\t---------------\t-------------\t---\n")
	total := map[string]*quantitySum{}
	for _, name := range []string{"requests.cpu", "limits.cpu", "requests.memory", "limits.memory", "requests.ephemeral-storage", "limits.ephemeral-storage"} {
		total[name] = &quantitySum{}
	}
	for _, p := range pods {
		req, lim := podRequests(p, false), podRequests(p, true)
		for _, r := range []string{api.ResourceCPU, api.ResourceMemory, "ephemeral-storage"} {
			total["requests."+r].addSum(req[r])
			total["limits."+r].addSum(lim[r])
		}
		d.write(level1, "%s\t%s\t\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s (%d%%)\t%s\n", p.Namespace, p.Name,
			req[api.ResourceCPU].String(), fraction(req[api.ResourceCPU], alloc, api.ResourceCPU),
			lim[api.ResourceCPU].String(), fraction(lim[api.ResourceCPU], alloc, api.ResourceCPU),
			req[api.ResourceMemory].String(), fraction(req[api.ResourceMemory], alloc, api.ResourceMemory),
			lim[api.ResourceMemory].String(), fraction(lim[api.ResourceMemory], alloc, api.ResourceMemory),
			since(d.now, p.CreationTimestamp))
	}
	d.write(level0, "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n")
	d.write(level1, "Resource\tRequests\tLimits\n")
	d.write(level1, "--------\t--------\t------\n")
	for _, r := range []string{api.ResourceCPU, api.ResourceMemory, "ephemeral-storage"} {
		rq, lm := total["requests."+r], total["limits."+r]
		d.write(level1, "%s\t%s (%d%%)\t%s (%d%%)\n", r, rq.String(), fraction(rq, alloc, r), lm.String(), fraction(lm, alloc, r))
	}
}

// podRequests sums the requests (or limits) of a pod's containers per
// resource, taking the larger of that and any init container's, as
// resourcehelper.PodRequests does.
func podRequests(p *api.Pod, limits bool) map[string]*quantitySum {
	out := map[string]*quantitySum{}
	get := func(c api.Container) api.ResourceList {
		if limits {
			return c.Resources.Limits
		}
		return c.Resources.Requests
	}
	for _, c := range p.Spec.Containers {
		for _, k := range sortedResourceNames(get(c)) {
			if out[k] == nil {
				out[k] = &quantitySum{}
			}
			out[k].add(get(c)[k])
		}
	}
	for _, c := range p.Spec.InitContainers {
		for _, k := range sortedResourceNames(get(c)) {
			q := get(c)[k]
			if out[k] == nil || out[k].milli < q.MilliValue() {
				s := &quantitySum{}
				s.add(q)
				out[k] = s
			}
		}
	}
	for _, k := range []string{api.ResourceCPU, api.ResourceMemory, "ephemeral-storage"} {
		if out[k] == nil {
			out[k] = &quantitySum{}
		}
	}
	return out
}

// fraction is kubectl's percentage of allocatable, truncated.
func fraction(q *quantitySum, alloc api.ResourceList, resource string) int64 {
	a, ok := alloc[resource]
	if !ok {
		return 0
	}
	if resource == api.ResourceCPU {
		if a.MilliValue() == 0 {
			return 0
		}
		return int64(float64(q.milli) / float64(a.MilliValue()) * 100)
	}
	if a.Value() == 0 {
		return 0
	}
	return int64(float64(q.value()) / float64(a.Value()) * 100)
}

// service is describeService; endpoints come from the Endpoints object of
// the same name.
func (d *describer) service(s *api.Service) {
	d.write(level0, "Name:\t%s\n", s.Name)
	d.write(level0, "Namespace:\t%s\n", s.Namespace)
	d.labelsMultiline("", "Labels", s.Labels)
	d.annotationsMultiline("Annotations", s.Annotations)
	d.write(level0, "Selector:\t%s\n", labels.FormatLabels(s.Spec.Selector))
	d.write(level0, "Type:\t%s\n", s.Spec.Type)
	if s.Spec.IPFamilyPolicy != "" {
		d.write(level0, "IP Family Policy:\t%s\n", s.Spec.IPFamilyPolicy)
	}
	d.write(level0, "IP Families:\t%s\n", orNone(strings.Join(s.Spec.IPFamilies, ",")))
	d.write(level0, "IP:\t%s\n", s.Spec.ClusterIP)
	d.write(level0, "IPs:\t%s\n", orNone(strings.Join(s.Spec.ClusterIPs, ",")))
	var ep *api.Endpoints
	if o, err := d.x.st.Get(api.KindEndpoints, s.Namespace, s.Name); err == nil {
		ep = o.(*api.Endpoints)
	}
	for _, p := range s.Spec.Ports {
		name := p.Name
		if name == "" {
			name = "<unset>"
		}
		d.write(level0, "Port:\t%s\t%d/%s\n", name, p.Port, p.Protocol)
		switch {
		case p.TargetPort == nil:
			d.write(level0, "TargetPort:\t%d/%s\n", 0, p.Protocol)
		case p.TargetPort.IsString:
			d.write(level0, "TargetPort:\t%s/%s\n", p.TargetPort.StrVal, p.Protocol)
		default:
			d.write(level0, "TargetPort:\t%d/%s\n", p.TargetPort.IntVal, p.Protocol)
		}
		if p.NodePort != 0 {
			d.write(level0, "NodePort:\t%s\t%d/%s\n", name, p.NodePort, p.Protocol)
		}
		d.write(level0, "Endpoints:\t%s\n", serviceEndpoints(ep, p.Name))
	}
	d.write(level0, "Session Affinity:\t%s\n", s.Spec.SessionAffinity)
	if s.Spec.InternalTrafficPolicy != "" {
		d.write(level0, "Internal Traffic Policy:\t%s\n", s.Spec.InternalTrafficPolicy)
	}
	d.events(s)
}

// serviceEndpoints is formatEndpointSlices for one service port: the ready
// addresses as ip:port, at most three.
func serviceEndpoints(ep *api.Endpoints, portName string) string {
	if ep == nil || len(ep.Subsets) == 0 {
		return "<none>"
	}
	const maximum = 3
	var list []string
	count := 0
	for _, ss := range ep.Subsets {
		for _, p := range ss.Ports {
			if p.Name != portName {
				continue
			}
			for _, a := range ss.Addresses {
				if len(list) < maximum {
					list = append(list, joinHostPort(a.IP, p.Port))
				}
				count++
			}
		}
	}
	ret := strings.Join(list, ",")
	if count > maximum {
		return fmt.Sprintf("%s + %d more...", ret, count-maximum)
	}
	return ret
}

// configMap is the ConfigMap describer.
func (d *describer) configMap(c *api.ConfigMap) {
	d.write(level0, "Name:\t%s\n", c.Name)
	d.write(level0, "Namespace:\t%s\n", c.Namespace)
	d.labelsMultiline("", "Labels", c.Labels)
	d.annotationsMultiline("Annotations", c.Annotations)
	d.write(level0, "\nData\n====\n")
	for _, k := range sortedKeys(c.Data) {
		d.write(level0, "%s:\n----\n", k)
		d.write(level0, "%s\n", c.Data[k])
		d.write(level0, "\n")
	}
	d.write(level0, "\nBinaryData\n====\n")
	for _, k := range sortedKeys(c.BinaryData) {
		n := len(c.BinaryData[k])
		if b, err := base64.StdEncoding.DecodeString(c.BinaryData[k]); err == nil {
			n = len(b)
		}
		d.write(level0, "%s: %s bytes\n", k, strconv.Itoa(n))
	}
	d.write(level0, "\n")
	d.events(c)
}

// endpoints is describeEndpoints.
func (d *describer) endpoints(e *api.Endpoints) {
	d.write(level0, "Name:\t%s\n", e.Name)
	d.write(level0, "Namespace:\t%s\n", e.Namespace)
	d.labelsMultiline("", "Labels", e.Labels)
	d.annotationsMultiline("Annotations", e.Annotations)
	d.write(level0, "Subsets:\n")
	for _, ss := range e.Subsets {
		ips := func(as []api.EndpointAddress) string {
			out := make([]string, len(as))
			for i, a := range as {
				out[i] = a.IP
			}
			return orNone(strings.Join(out, ","))
		}
		d.write(level1, "Addresses:\t%s\n", ips(ss.Addresses))
		d.write(level1, "NotReadyAddresses:\t%s\n", ips(ss.NotReadyAddresses))
		if len(ss.Ports) > 0 {
			d.write(level1, "Ports:\n")
			d.write(level2, "Name\tPort\tProtocol\n")
			d.write(level2, "----\t----\t--------\n")
			for _, p := range ss.Ports {
				name := p.Name
				if name == "" {
					name = "<unset>"
				}
				d.write(level2, "%s\t%d\t%s\n", name, p.Port, p.Protocol)
			}
		}
		d.write(level0, "\n")
	}
	d.events(e)
}
