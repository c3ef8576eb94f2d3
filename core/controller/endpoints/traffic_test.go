package endpoints

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/api"
)

// world is a fixed set of pods for Traffic.
type world struct {
	pods    map[string]*api.Pod
	serving map[string]bool
}

func newWorld() *world { return &world{pods: map[string]*api.Pod{}, serving: map[string]bool{}} }

func (w *world) add(ns, name string, serving bool) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns, UID: "uid-" + name}}
	w.pods[ns+"/"+name] = p
	w.serving[p.UID] = serving
	return p
}

func (w *world) lookup(ns, name string) *api.Pod { return w.pods[ns+"/"+name] }
func (w *world) isServing(p *api.Pod) bool       { return w.serving[p.UID] }

func addr(ns, name string) api.EndpointAddress {
	return api.EndpointAddress{IP: "ip-" + name, TargetRef: &api.ObjectReference{Kind: "Pod", Namespace: ns, Name: name, UID: "uid-" + name}}
}

func svc(ns, name, rps string) *api.Service {
	s := &api.Service{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns}}
	if rps != "" {
		s.Annotations = map[string]string{AnnotationRequestsPerSecond: rps}
	}
	return s
}

func eps(ns, name string, subsets ...api.EndpointSubset) *api.Endpoints {
	return &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: name, Namespace: ns}, Subsets: subsets}
}

func TestTraffic(t *testing.T) {
	t.Parallel()
	type pod struct {
		name    string
		serving bool
	}
	tests := []struct {
		name    string
		rps     string
		pods    []pod    // pods that exist
		ready   []string // ready addresses in the previous Endpoints
		other   []string // not-ready addresses (never get traffic)
		delete  []string // pods that are terminating now
		noEP    bool     // no Endpoints object at all
		want    ServiceTraffic
		perAddr []int // optional: requests per address (by a serving-counter)
	}{
		{name: "no Endpoints object: every request fails", noEP: true,
			want: ServiceTraffic{Service: "web", Requests: 100, Failed: 100, Failures: map[string]int{"no-endpoints": 100}}},
		{name: "no ready address: every request fails", pods: []pod{{"a", true}}, other: []string{"a"},
			want: ServiceTraffic{Service: "web", Requests: 100, Failed: 100, Failures: map[string]int{"no-endpoints": 100}}},
		{name: "three serving pods share 100 requests", pods: []pod{{"a", true}, {"b", true}, {"c", true}}, ready: []string{"a", "b", "c"},
			want: ServiceTraffic{Service: "web", Requests: 100, Succeeded: 100, Endpoints: 3}, perAddr: []int{34, 33, 33}},
		{name: "Ready without a probe but still warming up: not serving", pods: []pod{{"a", true}, {"b", false}}, ready: []string{"a", "b"},
			want: ServiceTraffic{Service: "web", Requests: 100, Succeeded: 50, Failed: 50, Endpoints: 2, Failures: map[string]int{"not-serving": 50}}},
		{name: "a terminating pod still in last second's Endpoints", pods: []pod{{"a", true}, {"b", false}, {"c", true}}, ready: []string{"a", "b", "c"},
			delete: []string{"b"},
			want:   ServiceTraffic{Service: "web", Requests: 100, Succeeded: 67, Failed: 33, Endpoints: 3, Failures: map[string]int{"terminating": 33}}},
		{name: "a terminating pod whose preStop hook runs still serves", pods: []pod{{"a", true}, {"b", true}, {"c", true}}, ready: []string{"a", "b", "c"},
			delete: []string{"b"},
			want:   ServiceTraffic{Service: "web", Requests: 100, Succeeded: 100, Endpoints: 3}},
		{name: "a pod that is gone", pods: []pod{{"a", true}}, ready: []string{"a", "z"},
			want: ServiceTraffic{Service: "web", Requests: 100, Succeeded: 50, Failed: 50, Endpoints: 2, Failures: map[string]int{"gone": 50}}},
		{name: "annotation: 7 requests over 10 addresses, spaced", rps: "7",
			pods:  []pod{{"a", true}, {"b", true}, {"c", true}, {"d", true}, {"e", true}, {"f", true}, {"g", true}, {"h", true}, {"i", true}, {"j", true}},
			ready: []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"},
			want:  ServiceTraffic{Service: "web", Requests: 7, Succeeded: 7, Endpoints: 10}, perAddr: []int{1, 1, 1, 0, 1, 1, 0, 1, 1, 0}},
		{name: "annotation 0: no requests, no failures", rps: "0", noEP: true, want: ServiceTraffic{Service: "web"}},
		{name: "bad annotation: the default", rps: "lots", pods: []pod{{"a", true}}, ready: []string{"a"},
			want: ServiceTraffic{Service: "web", Requests: 100, Succeeded: 100, Endpoints: 1}},
		{name: "too big an annotation: the default", rps: "2000000", pods: []pod{{"a", true}}, ready: []string{"a"},
			want: ServiceTraffic{Service: "web", Requests: 100, Succeeded: 100, Endpoints: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := newWorld()
			for _, p := range tc.pods {
				w.add("default", p.name, p.serving)
			}
			for _, name := range tc.delete {
				now := api.NewTime(api.Epoch)
				w.pods["default/"+name].DeletionTimestamp = &now
			}
			var list []*api.Endpoints
			if !tc.noEP {
				sub := api.EndpointSubset{}
				for _, n := range tc.ready {
					sub.Addresses = append(sub.Addresses, addr("", n))
				}
				for _, n := range tc.other {
					sub.NotReadyAddresses = append(sub.NotReadyAddresses, addr("", n))
				}
				list = append(list, eps("default", "web", sub))
			}
			hits := map[string]int{}
			serving := func(p *api.Pod) bool {
				hits[p.Name]++
				return w.isServing(p)
			}
			got := Traffic([]*api.Service{svc("default", "web", tc.rps)}, list, w.lookup, serving)
			assert.Equal(t, []ServiceTraffic{tc.want}, got)
			if tc.perAddr != nil {
				// With at least as many requests as addresses, serving is
				// asked once per address and the shares come from ceilDiv;
				// with fewer, once per request.
				var per []int
				n := len(tc.ready)
				r := tc.want.Requests
				for j := 0; j < n; j++ {
					per = append(per, ceilDiv((j+1)*r, n)-ceilDiv(j*r, n))
				}
				if r >= n {
					assert.Equal(t, tc.perAddr, per)
				} else {
					var sparse []int
					for j := 0; j < n; j++ {
						sparse = append(sparse, hits[tc.ready[j]])
					}
					assert.Equal(t, tc.perAddr, sparse)
				}
			}
		})
	}
}

func TestTrafficSeveralServices(t *testing.T) {
	t.Parallel()
	w := newWorld()
	w.add("default", "a", true)
	w.add("shop", "b", true)
	w.add("shop", "c", true)
	twoSubsets := eps("shop", "cart",
		api.EndpointSubset{Addresses: []api.EndpointAddress{addr("shop", "b"), addr("shop", "c")}, Ports: []api.EndpointPort{{Port: 80}}},
		api.EndpointSubset{Addresses: []api.EndpointAddress{addr("shop", "b")}, Ports: []api.EndpointPort{{Port: 9100}}})
	replaced := w.add("default", "r", true)
	replaced.UID = "uid-new" // same name, another pod
	got := Traffic(
		[]*api.Service{svc("default", "web", "10"), svc("shop", "cart", "4"), svc("default", "old", "3")},
		[]*api.Endpoints{eps("default", "web", api.EndpointSubset{Addresses: []api.EndpointAddress{addr("", "a")}}), twoSubsets,
			eps("default", "old", api.EndpointSubset{Addresses: []api.EndpointAddress{addr("default", "r")}})},
		w.lookup, w.isServing)
	assert.Equal(t, []ServiceTraffic{
		{Service: "web", Requests: 10, Succeeded: 10, Endpoints: 1},
		{Service: "shop/cart", Requests: 4, Succeeded: 4, Endpoints: 2},
		{Service: "old", Requests: 3, Failed: 3, Endpoints: 1, Failures: map[string]int{"gone": 3}},
	}, got)
	b, err := json.Marshal(got[2])
	assert.NoError(t, err)
	assert.JSONEq(t, `{"service":"old","requests":3,"succeeded":0,"failed":3,"endpoints":1,"failures":{"gone":3}}`, string(b))
	b, err = json.Marshal(got[0])
	assert.NoError(t, err)
	assert.NotContains(t, string(b), "failures")
}

func TestTrafficSpreadIsExact(t *testing.T) {
	t.Parallel()
	for _, r := range []int{1, 2, 99, 100, 101, 1000} {
		for _, n := range []int{1, 3, 7, 100, 5000} {
			t.Run(fmt.Sprintf("%d over %d", r, n), func(t *testing.T) {
				t.Parallel()
				w := newWorld()
				sub := api.EndpointSubset{}
				for i := 0; i < n; i++ {
					name := fmt.Sprintf("p%d", i)
					w.add("default", name, true)
					sub.Addresses = append(sub.Addresses, addr("", name))
				}
				got := Traffic([]*api.Service{svc("default", "web", fmt.Sprint(r))}, []*api.Endpoints{eps("default", "web", sub)}, w.lookup, w.isServing)
				assert.Equal(t, r, got[0].Succeeded)
				total := 0
				lo, hi := r, 0
				for j := 0; j < n; j++ {
					k := ceilDiv((j+1)*r, n) - ceilDiv(j*r, n)
					total += k
					lo, hi = min(lo, k), max(hi, k)
				}
				assert.Equal(t, r, total)
				assert.LessOrEqual(t, hi-lo, 1, "even spread")
			})
		}
	}
}
