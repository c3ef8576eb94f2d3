package validation_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/api"
	"converge/core/validation"
)

func service(tweaks ...func(*api.Service)) *api.Service {
	s := &api.Service{ObjectMeta: api.ObjectMeta{Name: "web"}}
	s.Spec.Selector = map[string]string{"app": "web"}
	s.Spec.Ports = []api.ServicePort{{Port: 80}}
	api.SetDefaultsService(s)
	for _, tw := range tweaks {
		tw(s)
	}
	return s
}

func TestValidateService(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tweak func(*api.Service)
		want  []string
	}{
		{"valid", func(*api.Service) {}, nil},
		{"two named ports", func(s *api.Service) {
			s.Spec.Ports = []api.ServicePort{{Name: "http", Port: 80, Protocol: "TCP", TargetPort: intstr(8080)}, {Name: "https", Port: 443, Protocol: "TCP", TargetPort: percent("https")}}
		}, nil},
		{"name must be a DNS-1035 label", func(s *api.Service) { s.Name = "1web" }, []string{`metadata.name: Invalid value: "1web": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`}},
		{"name may not contain dots", func(s *api.Service) { s.Name = "web.v1" }, []string{`metadata.name: Invalid value: "web.v1": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`}},
		{"name too long", func(s *api.Service) { s.Name = strings.Repeat("a", 64) }, []string{`metadata.name: Invalid value: "` + strings.Repeat("a", 64) + `": must be no more than 63 characters`}},
		{"ports required", func(s *api.Service) { s.Spec.Ports = nil }, []string{"spec.ports: Required value"}},
		{"headless needs no ports", func(s *api.Service) { s.Spec.Ports, s.Spec.ClusterIP = nil, "None" }, nil},
		{"names required with several ports", func(s *api.Service) {
			s.Spec.Ports = []api.ServicePort{{Port: 80, Protocol: "TCP", TargetPort: intstr(80)}, {Name: "b", Port: 81, Protocol: "TCP", TargetPort: intstr(81)}}
		}, []string{"spec.ports[0].name: Required value"}},
		{"duplicate names", func(s *api.Service) {
			s.Spec.Ports = []api.ServicePort{{Name: "a", Port: 80, Protocol: "TCP", TargetPort: intstr(80)}, {Name: "a", Port: 81, Protocol: "TCP", TargetPort: intstr(81)}}
		}, []string{`spec.ports[1].name: Duplicate value: "a"`}},
		{"port range", func(s *api.Service) { s.Spec.Ports[0].Port = 0 },
			[]string{"spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"}},
		{"target port", func(s *api.Service) { s.Spec.Ports[0].TargetPort = intstr(70000) },
			[]string{"spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive"}},
		{"protocol", func(s *api.Service) { s.Spec.Ports[0].Protocol = "HTTP" },
			[]string{`spec.ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`}},
		{"duplicate port", func(s *api.Service) {
			s.Spec.Ports = []api.ServicePort{{Name: "a", Port: 80, Protocol: "TCP", TargetPort: intstr(80)}, {Name: "b", Port: 80, Protocol: "TCP", TargetPort: intstr(81)}}
		}, []string{`spec.ports[1]: Duplicate value: {"Name":"","Protocol":"TCP","AppProtocol":null,"Port":80,"TargetPort":0,"NodePort":0}`}},
		{"same port, other protocol", func(s *api.Service) {
			s.Spec.Ports = []api.ServicePort{{Name: "a", Port: 53, Protocol: "TCP", TargetPort: intstr(53)}, {Name: "b", Port: 53, Protocol: "UDP", TargetPort: intstr(53)}}
		}, nil},
		{"type", func(s *api.Service) { s.Spec.Type = "Internal" },
			[]string{`spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"`}},
		{"node port on ClusterIP", func(s *api.Service) { s.Spec.Ports[0].NodePort = 30080 },
			[]string{"spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"}},
		{"node ports", func(s *api.Service) {
			s.Spec.Type = "NodePort"
			s.Spec.Ports = []api.ServicePort{{Name: "a", Port: 80, Protocol: "TCP", TargetPort: intstr(80), NodePort: 30080}, {Name: "b", Port: 81, Protocol: "TCP", TargetPort: intstr(81), NodePort: 30080}}
		}, []string{"spec.ports[1].nodePort: Duplicate value: 30080"}},
		{"headless NodePort", func(s *api.Service) { s.Spec.Type, s.Spec.ClusterIP = "NodePort", "None" }, nil},
		{"load balancer on the kubelet port", func(s *api.Service) { s.Spec.Type, s.Spec.Ports[0].Port = "LoadBalancer", 10250 },
			[]string{"spec.ports[0]: Invalid value: 10250: may not expose port 10250 externally since it is used by kubelet"}},
		{"external name is not modelled", func(s *api.Service) { s.Spec.Type, s.Spec.Ports = "ExternalName", nil },
			[]string{"spec.externalName: Required value"}},
		{"external name with a cluster IP", func(s *api.Service) { s.Spec.Type, s.Spec.ClusterIP = "ExternalName", "10.0.0.1" },
			[]string{"spec.clusterIPs: Forbidden: may not be set for ExternalName services", "spec.externalName: Required value"}},
		{"selector", func(s *api.Service) { s.Spec.Selector = map[string]string{"app": "-web"} },
			[]string{`spec.selector: Invalid value: "-web": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{"session affinity", func(s *api.Service) { s.Spec.SessionAffinity = "Cookie" },
			[]string{`spec.sessionAffinity: Unsupported value: "Cookie": supported values: "ClientIP", "None"`}},
		{"internal traffic policy", func(s *api.Service) { s.Spec.InternalTrafficPolicy = "Node" },
			[]string{`spec.internalTrafficPolicy: Unsupported value: "Node": supported values: "Cluster", "Local"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidateService(service(tc.tweak), nil).Messages())
		})
	}
}

func TestValidateServiceLoadBalancerHeadless(t *testing.T) {
	t.Parallel()
	s := service(func(s *api.Service) { s.Spec.ClusterIP = "None" })
	s.Spec.Type = "LoadBalancer"
	assert.Empty(t, validation.ValidateService(s, nil), "headless is only a ClusterIP notion")
}

func TestValidateServiceUpdate(t *testing.T) {
	t.Parallel()
	old := service(func(s *api.Service) { s.UID, s.ResourceVersion = "u", "1" })
	next := old.DeepCopy()
	next.Spec.Ports[0].Port = 8080
	assert.Empty(t, validation.ValidateService(next, old))
	next.Namespace = "other"
	assert.Equal(t, []string{`metadata.namespace: Invalid value: "other": field is immutable`}, validation.ValidateService(next, old).Messages())
}

func TestValidateConfigMap(t *testing.T) {
	t.Parallel()
	cm := func(tweak func(*api.ConfigMap)) *api.ConfigMap {
		c := &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "web-config"}, Data: map[string]string{"app.properties": "a=1"}}
		api.SetDefaultsConfigMap(c)
		if tweak != nil {
			tweak(c)
		}
		return c
	}
	keyError := "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"
	tests := []struct {
		name  string
		tweak func(*api.ConfigMap)
		want  []string
	}{
		{"valid", nil, nil},
		{"name with dots", func(c *api.ConfigMap) { c.Name = "web.config" }, nil},
		{"bad key", func(c *api.ConfigMap) { c.Data["a b"] = "x" }, []string{`data[a b]: Invalid value: "a b": ` + keyError}},
		{"dot keys", func(c *api.ConfigMap) { c.Data = map[string]string{".": "", "..": "", "..x": ""} }, []string{
			`data[.]: Invalid value: ".": must not be '.'`,
			`data[..]: Invalid value: "..": must not be '..'`,
			`data[..x]: Invalid value: "..x": must not start with '..'`,
		}},
		{"empty key", func(c *api.ConfigMap) { c.Data = map[string]string{"": "x"} }, []string{`data[]: Invalid value: "": ` + keyError}},
		{"long key", func(c *api.ConfigMap) { c.Data = map[string]string{strings.Repeat("k", 254): "x"} },
			[]string{`data[` + strings.Repeat("k", 254) + `]: Invalid value: "` + strings.Repeat("k", 254) + `": must be no more than 253 characters`}},
		{"key in both", func(c *api.ConfigMap) { c.BinaryData = map[string]string{"app.properties": "AAAA"} },
			[]string{`data[app.properties]: Invalid value: "app.properties": duplicate of key present in binaryData`}},
		{"bad binary key", func(c *api.ConfigMap) { c.BinaryData = map[string]string{"x/y": "AAAA"} },
			[]string{`binaryData[x/y]: Invalid value: "x/y": ` + keyError}},
		{"1 MiB is fine", func(c *api.ConfigMap) { c.Data = map[string]string{"a": strings.Repeat("x", 1<<20)} }, nil},
		{"too big", func(c *api.ConfigMap) { c.Data = map[string]string{"a": strings.Repeat("x", 1<<20), "b": "y"} },
			[]string{"[]: Too long: may not be more than 1048576 bytes"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidateConfigMap(cm(tc.tweak), nil).Messages())
		})
	}

	t.Run("immutable", func(t *testing.T) {
		t.Parallel()
		old := cm(func(c *api.ConfigMap) { c.Immutable = api.Bool(true); c.UID = "u" })
		next := old.DeepCopy()
		next.Labels = map[string]string{"a": "b"}
		assert.Empty(t, validation.ValidateConfigMap(next, old))
		next.Data = map[string]string{"x": "y"}
		next.BinaryData = map[string]string{"z": "AAAA"}
		next.Immutable = nil
		assert.Equal(t, []string{
			"immutable: Forbidden: field is immutable when `immutable` is set",
			"data: Forbidden: field is immutable when `immutable` is set",
			"binaryData: Forbidden: field is immutable when `immutable` is set",
		}, validation.ValidateConfigMap(next, old).Messages())
	})
	t.Run("mutable", func(t *testing.T) {
		t.Parallel()
		old := cm(nil)
		next := old.DeepCopy()
		next.Data = map[string]string{"x": "y"}
		next.Immutable = api.Bool(true)
		assert.Empty(t, validation.ValidateConfigMap(next, old))
	})
}

func node(tweak func(*api.Node)) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	n.Status.Capacity = api.ResourceList{"cpu": api.MustQuantity("4"), "memory": api.MustQuantity("8Gi"), "pods": api.MustQuantity("110")}
	api.SetDefaultsNode(n)
	if tweak != nil {
		tweak(n)
	}
	return n
}

func TestValidateNode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tweak func(*api.Node)
		want  []string
	}{
		{"valid", nil, nil},
		{"dotted name", func(n *api.Node) { n.Name = "ip-10-0-0-1.ec2.internal" }, nil},
		{"bad name", func(n *api.Node) { n.Name = "Node_1" }, []string{`metadata.name: Invalid value: "Node_1": ` + subdomainError}},
		{"namespace", func(n *api.Node) { n.Namespace = "default" }, []string{"metadata.namespace: Forbidden: not allowed on this type"}},
		{"taints", func(n *api.Node) {
			n.Spec.Taints = []api.Taint{{Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoExecute}, {Key: api.TaintNodeUnreachable, Effect: api.TaintEffectNoSchedule}}
		}, nil},
		{"bad taints", func(n *api.Node) {
			n.Spec.Taints = []api.Taint{{Key: "a", Value: "b c", Effect: "NoRun"}, {Key: "x"}, {Key: "y", Effect: "NoSchedule"}, {Key: "y", Effect: "NoSchedule", Value: "2"}}
		}, []string{
			`metadata.taints[0].value: Invalid value: "b c": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
			`metadata.taints[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`,
			"metadata.taints[1].effect: Required value",
			`metadata.taints[3]: Duplicate value: {"Key":"y","Value":"2","Effect":"NoSchedule","TimeAdded":null}: taints must be unique by key and effect pair`,
		}},
		{"negative capacity", func(n *api.Node) { n.Status.Capacity["cpu"] = api.MustQuantity("-1") },
			[]string{`status.capacity.cpu: Invalid value: "-1": must be greater than or equal to 0`}},
		{"fractional pods", func(n *api.Node) { n.Status.Allocatable["pods"] = api.MustQuantity("1.5") },
			[]string{`status.allocatable.pods: Invalid value: "1500m": must be an integer`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidateNode(node(tc.tweak), nil).Messages())
		})
	}
}

func TestValidateNodeUpdate(t *testing.T) {
	t.Parallel()
	old := node(func(n *api.Node) { n.UID = "u" })
	next := old.DeepCopy()
	next.Spec.Unschedulable = true
	next.Spec.Taints = []api.Taint{{Key: api.TaintNodeUnschedulable, Effect: api.TaintEffectNoSchedule}}
	next.Status.Addresses = []api.NodeAddress{{Type: "InternalIP", Address: "10.0.0.1"}, {Type: "Hostname", Address: "node-1"}}
	assert.Empty(t, validation.ValidateNode(next, old))
	next.Status.Addresses = append(next.Status.Addresses, api.NodeAddress{Type: "InternalIP", Address: "10.0.0.1"})
	next.Spec.Taints = append(next.Spec.Taints, api.Taint{Key: "x/y/z", Effect: api.TaintEffectNoSchedule})
	assert.Equal(t, []string{
		`status.addresses[2]: Duplicate value: {"Type":"InternalIP","Address":"10.0.0.1"}`,
		`metadata.taints[1].key: Invalid value: "x/y/z": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
	}, validation.ValidateNode(next, old).Messages())
}
