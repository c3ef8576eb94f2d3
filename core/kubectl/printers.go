package kubectl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/labels"
)

// column is one column of a kubectl table; wide columns show with -o wide.
type column struct {
	name string
	wide bool
}

func cols(names ...string) []column {
	out := make([]column, len(names))
	for i, n := range names {
		out[i] = column{name: n}
	}
	return out
}

func wideCols(names ...string) []column {
	out := cols(names...)
	for i := range out {
		out[i].wide = true
	}
	return out
}

// tableColumns are the columns of kubectl's table printers
// (pkg/printers/internalversion), in their order.
var tableColumns = map[string][]column{
	api.KindDeployment: append(cols("NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"), wideCols("CONTAINERS", "IMAGES", "SELECTOR")...),
	api.KindReplicaSet: append(cols("NAME", "DESIRED", "CURRENT", "READY", "AGE"), wideCols("CONTAINERS", "IMAGES", "SELECTOR")...),
	api.KindPod:        append(cols("NAME", "READY", "STATUS", "RESTARTS", "AGE"), wideCols("IP", "NODE", "NOMINATED NODE", "READINESS GATES")...),
	api.KindNode: append(cols("NAME", "STATUS", "ROLES", "AGE", "VERSION"),
		wideCols("INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE", "KERNEL-VERSION", "CONTAINER-RUNTIME")...),
	api.KindService:                 append(cols("NAME", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "AGE"), wideCols("SELECTOR")...),
	api.KindEndpoints:               cols("NAME", "ENDPOINTS", "AGE"),
	api.KindConfigMap:               cols("NAME", "DATA", "AGE"),
	api.KindHorizontalPodAutoscaler: cols("NAME", "REFERENCE", "TARGETS", "MINPODS", "MAXPODS", "REPLICAS", "AGE"),
	api.KindResourceQuota:           cols("NAME", "REQUEST", "LIMIT", "AGE"),
	"Namespace":                     cols("NAME", "STATUS", "AGE"),
	api.KindPodDisruptionBudget:     cols("NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"),
	api.KindEvent: append(append(cols("LAST SEEN", "TYPE", "REASON", "OBJECT"), wideCols("SUBOBJECT", "SOURCE")...),
		append(cols("MESSAGE"), wideCols("FIRST SEEN", "COUNT", "NAME")...)...),
}

// nameColumn is the index of the column that holds the object's name.
func nameColumn(kind string) int {
	if kind == api.KindEvent {
		return -1
	}
	return 0
}

// tableRow returns the cells of one object, one per column of its kind.
func tableRow(obj api.Object, now api.Time) []string {
	switch o := obj.(type) {
	case *api.Deployment:
		names, images := containerCells(o.Spec.Template.Spec.Containers)
		return []string{o.Name, fmt.Sprintf("%d/%d", o.Status.ReadyReplicas, api.Deref(o.Spec.Replicas, 0)),
			itoa32(o.Status.UpdatedReplicas), itoa32(o.Status.AvailableReplicas), since(now, o.CreationTimestamp),
			names, images, selectorString(o.Spec.Selector)}
	case *api.ReplicaSet:
		names, images := containerCells(o.Spec.Template.Spec.Containers)
		return []string{o.Name, itoa32(api.Deref(o.Spec.Replicas, 0)), itoa32(o.Status.Replicas), itoa32(o.Status.ReadyReplicas),
			since(now, o.CreationTimestamp), names, images, formatLabelSelector(o.Spec.Selector)}
	case *api.Pod:
		r := podStatus(o, now)
		return []string{o.Name, r.ready, r.status, r.restarts, since(now, o.CreationTimestamp),
			orNone(o.Status.PodIP), orNone(o.Spec.NodeName), "<none>", "<none>"}
	case *api.Node:
		return []string{o.Name, nodeStatus(o), orNone(strings.Join(nodeRoles(o), ",")), since(now, o.CreationTimestamp),
			KubernetesVersion, nodeAddress(o, "InternalIP"), nodeAddress(o, "ExternalIP"), "<unknown>", "<unknown>", "<unknown>"}
	case *api.Service:
		return []string{o.Name, o.Spec.Type, serviceClusterIP(o), serviceExternalIP(o), orNone(servicePorts(o.Spec.Ports)),
			since(now, o.CreationTimestamp), labels.FormatLabels(o.Spec.Selector)}
	case *api.Endpoints:
		return []string{o.Name, formatEndpoints(o), since(now, o.CreationTimestamp)}
	case *namespace:
		return []string{o.Name, o.Status.Phase, since(now, o.CreationTimestamp)}
	case *api.ConfigMap:
		return []string{o.Name, strconv.Itoa(len(o.Data) + len(o.BinaryData)), since(now, o.CreationTimestamp)}
	case *api.HorizontalPodAutoscaler:
		return hpaRow(o, now)
	case *api.ResourceQuota:
		request, limit := quotaCells(o)
		return []string{o.Name, request, limit, since(now, o.CreationTimestamp)}
	case *api.PodDisruptionBudget:
		return []string{o.Name, intOrStringOrNA(o.Spec.MinAvailable), intOrStringOrNA(o.Spec.MaxUnavailable),
			itoa32(o.Status.DisruptionsAllowed), since(now, o.CreationTimestamp)}
	case *api.Event:
		first := since(now, o.FirstTimestamp)
		last := since(now, o.LastTimestamp)
		if o.LastTimestamp.IsZero() {
			last = first
		}
		count := o.Count
		if count == 0 {
			count = 1
		}
		target := strings.ToLower(o.InvolvedObject.Kind)
		if o.InvolvedObject.Name != "" {
			target += "/" + o.InvolvedObject.Name
		}
		return []string{last, o.Type, o.Reason, target, "", eventSource(o.Source), strings.TrimSpace(o.Message), first,
			itoa32(count), o.Name}
	}
	return nil
}

func itoa32(n int32) string { return strconv.Itoa(int(n)) }

// quotaCells is printResourceQuota's REQUEST and LIMIT columns: "name:
// used/hard" for each resource of status.hard, sorted, limits.* in LIMIT.
func quotaCells(q *api.ResourceQuota) (string, string) {
	var request, limit []string
	for _, r := range quotaNames(q.Status.Hard) {
		cell := fmt.Sprintf("%s: %s/%s", r, quotaString(q.Status.Used[r]), q.Status.Hard[r].CanonicalString())
		if pieces := strings.Split(r, "."); len(pieces) > 1 && pieces[0] == "limits" {
			limit = append(limit, cell)
		} else {
			request = append(request, cell)
		}
	}
	return strings.Join(request, ", "), strings.Join(limit, ", ")
}

// quotaString is a quota quantity as Kubernetes prints it ("0" when unset).
func quotaString(q api.Quantity) string {
	if q.IsZero() {
		return "0"
	}
	return q.CanonicalString()
}

// intOrStringOrNA is the PDB printer's cell: the value, or "N/A".
func intOrStringOrNA(v *api.IntOrString) string {
	if v == nil {
		return "N/A"
	}
	return v.String()
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

// containerCells is layoutContainerCells: names and images, comma-joined.
func containerCells(cs []api.Container) (string, string) {
	names := make([]string, len(cs))
	images := make([]string, len(cs))
	for i, c := range cs {
		names[i], images[i] = c.Name, c.Image
	}
	return strings.Join(names, ","), strings.Join(images, ",")
}

// selectorString is labels.Selector.String() of LabelSelectorAsSelector:
// "app=web", "" for an empty or nil selector, "<invalid>" for a broken one.
func selectorString(ls *api.LabelSelector) string {
	if ls == nil {
		return ""
	}
	sel, err := labels.FromLabelSelector(ls)
	if err != nil {
		return "<invalid>"
	}
	return sel.String()
}

// formatLabelSelector is metav1.FormatLabelSelector: "<none>" when empty.
func formatLabelSelector(ls *api.LabelSelector) string {
	if ls != nil {
		if _, err := labels.FromLabelSelector(ls); err != nil {
			return "<error>"
		}
	}
	if s := selectorString(ls); s != "" {
		return s
	}
	return "<none>"
}

// nodeStatus is Ready, NotReady or Unknown, with ",SchedulingDisabled" for
// a cordoned node.
func nodeStatus(n *api.Node) string {
	status := "Unknown"
	if c := api.GetNodeCondition(&n.Status, api.NodeReady); c != nil {
		if c.Status == api.ConditionTrue {
			status = "Ready"
		} else {
			status = "NotReady"
		}
	}
	if n.Spec.Unschedulable {
		status += ",SchedulingDisabled"
	}
	return status
}

// nodeRoles reads node-role.kubernetes.io/<role> and kubernetes.io/role labels.
func nodeRoles(n *api.Node) []string {
	seen := map[string]bool{}
	var roles []string
	for k, v := range n.Labels {
		role := ""
		switch {
		case strings.HasPrefix(k, "node-role.kubernetes.io/"):
			role = strings.TrimPrefix(k, "node-role.kubernetes.io/")
		case k == "kubernetes.io/role":
			role = v
		}
		if role != "" && !seen[role] {
			seen[role] = true
			roles = append(roles, role)
		}
	}
	sort.Strings(roles)
	return roles
}

func nodeAddress(n *api.Node, typ string) string {
	for _, a := range n.Status.Addresses {
		if a.Type == typ {
			return a.Address
		}
	}
	return "<none>"
}

func serviceClusterIP(s *api.Service) string {
	if len(s.Spec.ClusterIPs) > 0 {
		return s.Spec.ClusterIPs[0]
	}
	return orNone(s.Spec.ClusterIP)
}

// serviceExternalIP is getServiceExternalIP for the fields Converge models.
func serviceExternalIP(s *api.Service) string {
	if s.Spec.Type != "LoadBalancer" {
		return "<none>"
	}
	var st struct {
		Ingress []struct {
			IP       string `json:"ip"`
			Hostname string `json:"hostname"`
		} `json:"ingress"`
	}
	if len(s.Status.LoadBalancer) > 0 && json.Unmarshal(s.Status.LoadBalancer, &st) == nil {
		var ips []string
		for _, in := range st.Ingress {
			if in.IP != "" {
				ips = append(ips, in.IP)
			} else if in.Hostname != "" {
				ips = append(ips, in.Hostname)
			}
		}
		if len(ips) > 0 {
			return strings.Join(ips, ",")
		}
	}
	return "<pending>"
}

// servicePorts is makePortString: 80/TCP, or 80:30080/TCP with a node port.
func servicePorts(ports []api.ServicePort) string {
	parts := make([]string, len(ports))
	for i, p := range ports {
		parts[i] = fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		if p.NodePort > 0 {
			parts[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		}
	}
	return strings.Join(parts, ",")
}

// formatEndpoints lists ready addresses as ip:port, at most 3, then
// " + N more...".
func formatEndpoints(e *api.Endpoints) string {
	if len(e.Subsets) == 0 {
		return "<none>"
	}
	const maximum = 3
	var list []string
	count := 0
	more := false
	add := func(s string) {
		count++
		if len(list) == maximum {
			more = true
			return
		}
		list = append(list, s)
	}
	for _, ss := range e.Subsets {
		if len(ss.Ports) == 0 {
			for _, a := range ss.Addresses {
				add(a.IP)
			}
			continue
		}
		for _, p := range ss.Ports {
			for _, a := range ss.Addresses {
				add(joinHostPort(a.IP, p.Port))
			}
		}
	}
	ret := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", ret, count-maximum)
	}
	return ret
}

func eventSource(s api.EventSource) string {
	if s.Host == "" {
		return s.Component
	}
	return s.Component + ", " + s.Host
}

// joinHostPort is net.JoinHostPort: IPv6 addresses go in brackets.
func joinHostPort(host string, port int32) string {
	if strings.Contains(host, ":") {
		return "[" + host + "]:" + strconv.Itoa(int(port))
	}
	return host + ":" + strconv.Itoa(int(port))
}

// quotaNames are a resource list's names, sorted (SortableResourceNames).
func quotaNames(l api.ResourceList) []string {
	out := make([]string, 0, len(l))
	for k := range l {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
