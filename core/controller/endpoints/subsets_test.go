package endpoints

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

func TestIPOrderKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
	}{
		{"10.244.1.10", "10.244.1.9"},
		{"10.244.1.2", "10.244.1.20"},
		{"10.244.1.2", "10.244.10.2"},
		{"1.2.3.4", "10.0.0.0"},
		{"9.9.9.9", "90.0.0.0"},
	}
	for _, tc := range tests {
		t.Run(tc.a+" < "+tc.b, func(t *testing.T) {
			t.Parallel()
			ka, okA := ipOrderKey(tc.a)
			kb, okB := ipOrderKey(tc.b)
			require.True(t, okA && okB)
			assert.Less(t, tc.a, tc.b, "as strings")
			assert.Less(t, ka, kb, "as keys")
		})
	}
	for _, bad := range []string{"fd00::1", "10.244.1.2x", "1234567890.123456"} {
		_, ok := ipOrderKey(bad)
		assert.False(t, ok, bad)
	}
}

// TestSortEntriesMatchesKube checks the radix sort against kube's order
// (IP bytes, then uid) on random addresses, with duplicates and IPv6.
func TestSortEntriesMatchesKube(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ip   func(r *rand.Rand) string
	}{
		{name: "kubelet addresses", ip: func(r *rand.Rand) string {
			return fmt.Sprintf("10.%d.%d.%d", 244+r.IntN(2), r.IntN(256), 2+r.IntN(253))
		}},
		{name: "duplicates fall back to the comparison sort", ip: func(r *rand.Rand) string { return fmt.Sprintf("10.244.1.%d", r.IntN(5)) }},
		{name: "IPv6 falls back", ip: func(r *rand.Rand) string { return fmt.Sprintf("fd00::%x", r.IntN(4096)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(7, 7))
			c := New()
			var pods []*api.Pod
			for i := 0; i < 500; i++ {
				p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprint(i), UID: fmt.Sprintf("uid-%04d", r.IntN(10000))}}
				p.Status.PodIP = tc.ip(r)
				pods = append(pods, p)
			}
			es := make([]entry, len(pods))
			for i := range es {
				es[i].i = int32(i)
			}
			got := c.sortEntries(es, pods, nil)
			want := slices.Clone(pods)
			slices.SortStableFunc(want, func(a, b *api.Pod) int {
				if c := strings.Compare(a.Status.PodIP, b.Status.PodIP); c != 0 {
					return c
				}
				return strings.Compare(a.UID, b.UID)
			})
			for i := range got {
				assert.Equal(t, want[i].Status.PodIP+want[i].UID, pods[got[i].i].Status.PodIP+pods[got[i].i].UID, "at %d", i)
			}
		})
	}
}

func TestFindPort(t *testing.T) {
	t.Parallel()
	p := &api.Pod{Spec: api.PodSpec{Containers: []api.Container{{Ports: []api.ContainerPort{{Name: "dns", ContainerPort: 53, Protocol: "UDP"}, {Name: "http", ContainerPort: 8080}}}}}}
	named := func(n string) *api.IntOrString { v := api.FromString(n); return &v }
	tests := []struct {
		name   string
		sp     api.ServicePort
		want   int32
		wantOK bool
	}{
		{name: "no targetPort: the port", sp: api.ServicePort{Port: 80}, want: 80, wantOK: true},
		{name: "named, default protocol TCP", sp: api.ServicePort{Port: 80, TargetPort: named("http")}, want: 8080, wantOK: true},
		{name: "named, protocol must match", sp: api.ServicePort{Port: 53, Protocol: "TCP", TargetPort: named("dns")}},
		{name: "named UDP", sp: api.ServicePort{Port: 53, Protocol: "UDP", TargetPort: named("dns")}, want: 53, wantOK: true},
		{name: "unknown name", sp: api.ServicePort{Port: 80, TargetPort: named("grpc")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, ok := findPort(p, &tc.sp)
			assert.Equal(t, tc.wantOK, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestSubsetsEqual(t *testing.T) {
	t.Parallel()
	ref := func(n string) *api.ObjectReference { return &api.ObjectReference{Kind: "Pod", Name: n} }
	base := func() []api.EndpointSubset {
		return []api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "1", NodeName: "n", TargetRef: ref("a")}}, Ports: []api.EndpointPort{{Port: 80}}}}
	}
	assert.True(t, subsetsEqual(base(), base()))
	for name, change := range map[string]func([]api.EndpointSubset){
		"ip":        func(s []api.EndpointSubset) { s[0].Addresses[0].IP = "2" },
		"node":      func(s []api.EndpointSubset) { s[0].Addresses[0].NodeName = "m" },
		"targetRef": func(s []api.EndpointSubset) { s[0].Addresses[0].TargetRef = ref("b") },
		"no ref":    func(s []api.EndpointSubset) { s[0].Addresses[0].TargetRef = nil },
		"port":      func(s []api.EndpointSubset) { s[0].Ports[0].Port = 81 },
		"not ready": func(s []api.EndpointSubset) { s[0].NotReadyAddresses = s[0].Addresses; s[0].Addresses = nil },
	} {
		b := base()
		change(b)
		assert.False(t, subsetsEqual(base(), b), name)
	}
	assert.False(t, subsetsEqual(base(), nil))
}
