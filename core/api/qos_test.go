package api

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestQOSClass(t *testing.T) {
	t.Parallel()
	q := MustQuantity
	both := ResourceList{ResourceCPU: q("1"), ResourceMemory: q("1Gi")}
	tests := []struct {
		name string
		init []ResourceRequirements
		ctrs []ResourceRequirements
		want string
	}{
		{name: "nothing set", ctrs: []ResourceRequirements{{}}, want: QOSBestEffort},
		{name: "zero quantities count as unset", ctrs: []ResourceRequirements{{Requests: ResourceList{ResourceCPU: q("0")}}}, want: QOSBestEffort},
		{name: "requests only", ctrs: []ResourceRequirements{{Requests: ResourceList{ResourceCPU: q("100m")}}}, want: QOSBurstable},
		{name: "limits equal requests", ctrs: []ResourceRequirements{{Limits: both, Requests: ResourceList{ResourceCPU: q("1000m"), ResourceMemory: q("1Gi")}}}, want: QOSGuaranteed},
		{name: "limits only: requests default to them", ctrs: []ResourceRequirements{{Limits: both}}, want: QOSGuaranteed},
		{name: "requests below limits", ctrs: []ResourceRequirements{{Limits: both, Requests: ResourceList{ResourceCPU: q("500m")}}}, want: QOSBurstable},
		{name: "cpu limit only", ctrs: []ResourceRequirements{{Limits: ResourceList{ResourceCPU: q("1")}}}, want: QOSBurstable},
		{name: "one container without limits", ctrs: []ResourceRequirements{{Limits: both}, {}}, want: QOSBurstable},
		{name: "an init container without limits", init: []ResourceRequirements{{}}, ctrs: []ResourceRequirements{{Limits: both}}, want: QOSBurstable},
		{name: "only an init container sets something", init: []ResourceRequirements{{Requests: ResourceList{ResourceMemory: q("64Mi")}}}, ctrs: []ResourceRequirements{{}}, want: QOSBurstable},
		{name: "other resources do not count", ctrs: []ResourceRequirements{{Limits: ResourceList{"nvidia.com/gpu": q("1")}}}, want: QOSBestEffort},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var s PodSpec
			for _, r := range tc.init {
				s.InitContainers = append(s.InitContainers, Container{Resources: r})
			}
			for _, r := range tc.ctrs {
				s.Containers = append(s.Containers, Container{Resources: r})
			}
			assert.Equal(t, tc.want, QOSClass(&s))
		})
	}
}
