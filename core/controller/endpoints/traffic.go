package endpoints

import (
	"strconv"

	"converge/core/api"
)

// AnnotationRequestsPerSecond on a Service sets how many requests it gets
// each second (default DefaultRequestsPerSecond).
const (
	AnnotationRequestsPerSecond = "converge.dev/requests-per-second"
	DefaultRequestsPerSecond    = 100
	maxRequestsPerSecond        = 1_000_000
)

// Failure reasons of ServiceTraffic.Failures.
const (
	FailNoEndpoints = "no-endpoints" // the Service had no ready address
	FailNotServing  = "not-serving"  // the pod exists but its app does not answer (starting, warming up, crashed, node down)
	FailTerminating = "terminating"  // the pod is being deleted and SIGTERM stopped its app
	FailGone        = "gone"         // the pod no longer exists
)

// ServiceTraffic is what one Service's clients saw in one second.
type ServiceTraffic struct {
	// Service is the Service's name ("namespace/name" outside the default namespace).
	Service string `json:"service"`
	// Requests is how many requests were sent.
	Requests int `json:"requests"`
	// Succeeded and Failed split Requests.
	Succeeded int `json:"succeeded"`
	Failed    int `json:"failed"`
	// Endpoints is the number of ready addresses the requests were spread over.
	Endpoints int `json:"endpoints"`
	// Failures counts the failed requests by reason: "no-endpoints",
	// "not-serving", "terminating", "gone". Omitted when none failed.
	Failures map[string]int `json:"failures,omitempty"`
}

// Traffic sends each Service's requests of one second and reports how they
// fared. endpoints are the Endpoints objects of the previous second (what
// kube-proxy has programmed, one sync behind the controller); pods looks a
// pod up now (nil when it no longer exists) and serving says whether its app
// answers now.
//
// A Service gets its requests-per-second (DefaultRequestsPerSecond, or its
// AnnotationRequestsPerSecond) spread evenly over its ready addresses in
// their Endpoints order: request i goes to address i*n/R, so with R requests
// and n addresses every address gets R/n of them, rounded down or up, and
// with fewer requests than addresses they are spaced n/R apart. A request
// fails when there is no address, or its pod is gone or not serving ("terminating"
// when it is being deleted: a pod whose preStop hook still runs serves).
//
// Example: 100 requests over 3 addresses give 34, 33 and 33; if the second
// pod is terminating and its app got SIGTERM, 67 succeed and 33 fail as
// "terminating".
func Traffic(services []*api.Service, endpoints []*api.Endpoints, pods func(namespace, name string) *api.Pod, serving func(*api.Pod) bool) []ServiceTraffic {
	byKey := make(map[string]*api.Endpoints, len(endpoints))
	for _, e := range endpoints {
		byKey[e.Namespace+"/"+e.Name] = e
	}
	out := make([]ServiceTraffic, 0, len(services))
	for _, svc := range services {
		name := svc.Name
		if svc.Namespace != "" && svc.Namespace != api.NamespaceDefault {
			name = svc.Namespace + "/" + svc.Name
		}
		st := ServiceTraffic{Service: name, Requests: RequestsPerSecond(svc)}
		addrs := readyAddresses(byKey[svc.Namespace+"/"+svc.Name])
		st.Endpoints = len(addrs)
		if st.Requests > 0 {
			if len(addrs) == 0 {
				st.fail(FailNoEndpoints, st.Requests)
			} else {
				st.spread(svc.Namespace, addrs, pods, serving)
			}
		}
		out = append(out, st)
	}
	return out
}

// RequestsPerSecond is the Service's request rate: its annotation when that
// is a whole number from 0 to 1,000,000, else DefaultRequestsPerSecond.
func RequestsPerSecond(svc *api.Service) int {
	if v, ok := svc.Annotations[AnnotationRequestsPerSecond]; ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 && n <= maxRequestsPerSecond {
			return n
		}
	}
	return DefaultRequestsPerSecond
}

// readyAddresses lists the ready addresses of all subsets, each pod once.
func readyAddresses(ep *api.Endpoints) []*api.EndpointAddress {
	if ep == nil {
		return nil
	}
	var out []*api.EndpointAddress
	seen := map[string]bool{}
	multi := len(ep.Subsets) > 1
	for i := range ep.Subsets {
		for j := range ep.Subsets[i].Addresses {
			a := &ep.Subsets[i].Addresses[j]
			if multi {
				if seen[a.IP] {
					continue
				}
				seen[a.IP] = true
			}
			out = append(out, a)
		}
	}
	return out
}

func (st *ServiceTraffic) fail(reason string, n int) {
	if n == 0 {
		return
	}
	if st.Failures == nil {
		st.Failures = map[string]int{}
	}
	st.Failures[reason] += n
	st.Failed += n
}

// spread sends the requests to the addresses: address j gets
// ceil((j+1)R/n) - ceil(jR/n) of them.
func (st *ServiceTraffic) spread(namespace string, addrs []*api.EndpointAddress, pods func(string, string) *api.Pod, serving func(*api.Pod) bool) {
	r, n := st.Requests, len(addrs)
	send := func(a *api.EndpointAddress, k int) {
		ns, name, uid := namespace, "", ""
		if a.TargetRef != nil {
			name, uid = a.TargetRef.Name, a.TargetRef.UID
			if a.TargetRef.Namespace != "" {
				ns = a.TargetRef.Namespace
			}
		}
		var p *api.Pod
		if name != "" {
			p = pods(ns, name)
		}
		switch {
		case p == nil || (uid != "" && p.UID != uid):
			st.fail(FailGone, k)
		case serving(p):
			st.Succeeded += k
		case p.DeletionTimestamp != nil:
			st.fail(FailTerminating, k)
		default:
			st.fail(FailNotServing, k)
		}
	}
	if r < n {
		for i := 0; i < r; i++ {
			send(addrs[i*n/r], 1)
		}
		return
	}
	for j := 0; j < n; j++ {
		send(addrs[j], ceilDiv((j+1)*r, n)-ceilDiv(j*r, n))
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
