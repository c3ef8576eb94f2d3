package validation_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/validation"
)

const labelError = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"

func container(tweak func(*api.Container)) func(*api.Pod) {
	return func(p *api.Pod) { tweak(&p.Spec.Containers[0]) }
}

func TestValidatePodCreate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tweak func(*api.Pod)
		want  []string
	}{
		{"valid", func(*api.Pod) {}, nil},
		{"generated name", func(p *api.Pod) { p.Name, p.GenerateName = "web-abcde", "web-" }, nil},
		{"name with dots is valid", func(p *api.Pod) { p.Name = "web.v1" }, nil},
		{"missing name", func(p *api.Pod) { p.Name = "" }, []string{"metadata.name: Required value: name or generateName is required"}},
		{"bad name", func(p *api.Pod) { p.Name = "Web" }, []string{`metadata.name: Invalid value: "Web": ` + subdomainError}},
		{"bad generateName", func(p *api.Pod) { p.GenerateName = "Web-" }, []string{`metadata.generateName: Invalid value: "Web-": ` + subdomainError}},
		{"missing namespace", func(p *api.Pod) { p.Namespace = "" }, []string{"metadata.namespace: Required value"}},
		{"bad namespace", func(p *api.Pod) { p.Namespace = "a.b" }, []string{`metadata.namespace: Invalid value: "a.b": must not contain dots`}},
		{"negative generation", func(p *api.Pod) { p.Generation = -1 }, []string{"metadata.generation: Invalid value: -1: must be greater than or equal to 0"}},
		{"no containers", func(p *api.Pod) { p.Spec.Containers = nil }, []string{"spec.containers: Required value"}},
		{"container name required", container(func(c *api.Container) { c.Name = "" }), []string{"spec.containers[0].name: Required value"}},
		{"container name not a DNS label", container(func(c *api.Container) { c.Name = "Web_1" }),
			[]string{`spec.containers[0].name: Invalid value: "Web_1": ` + labelError}},
		{"duplicate container names", func(p *api.Pod) { p.Spec.Containers = append(p.Spec.Containers, p.Spec.Containers[0]) },
			[]string{`spec.containers[1].name: Duplicate value: "web"`}},
		{"image required", container(func(c *api.Container) { c.Image = "" }), []string{"spec.containers[0].image: Required value"}},
		{"image with spaces", container(func(c *api.Container) { c.Image = " nginx" }),
			[]string{`spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace`}},
		{"pull policy", container(func(c *api.Container) { c.ImagePullPolicy = "Sometimes" }),
			[]string{`spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"`}},
		{"pull policy empty", container(func(c *api.Container) { c.ImagePullPolicy = "" }), []string{"spec.containers[0].imagePullPolicy: Required value"}},
		{"termination message policy", container(func(c *api.Container) { c.TerminationMessagePolicy = "Logs" }),
			[]string{`spec.containers[0].terminationMessagePolicy: Unsupported value: "Logs": supported values: "File", "FallbackToLogsOnError"`}},
		{"restart policy", func(p *api.Pod) { p.Spec.RestartPolicy = "Sometimes" },
			[]string{`spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`}},
		{"restart policy Never is fine for a pod", func(p *api.Pod) { p.Spec.RestartPolicy = api.RestartPolicyNever }, nil},
		{"activeDeadlineSeconds is fine for a pod", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = api.Int64(60) }, nil},
		{"activeDeadlineSeconds 0", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = api.Int64(0) },
			[]string{"spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive"}},
		{"dns policy", func(p *api.Pod) { p.Spec.DNSPolicy = "Google" },
			[]string{`spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"`}},
		{"dns policy None needs dnsConfig", func(p *api.Pod) { p.Spec.DNSPolicy = "None" },
			[]string{"spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"}},
		{"grace period required", func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = nil },
			[]string{"spec.terminationGracePeriodSeconds: Required value"}},
		{"node name", func(p *api.Pod) { p.Spec.NodeName = "Node_1" }, []string{`spec.nodeName: Invalid value: "Node_1": ` + subdomainError}},
		{"service account", func(p *api.Pod) { p.Spec.ServiceAccountName = "-sa" }, []string{`spec.serviceAccountName: Invalid value: "-sa": ` + subdomainError}},
		{"priority class", func(p *api.Pod) { p.Spec.PriorityClassName = "High" }, []string{`spec.priorityClassName: Invalid value: "High": ` + subdomainError}},
		{"preemption policy", func(p *api.Pod) { v := "Sometimes"; p.Spec.PreemptionPolicy = &v },
			[]string{`spec.preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"`}},
		{"hostname", func(p *api.Pod) { p.Spec.Hostname = "a.b" }, []string{`spec.hostname: Invalid value: "a.b": must not contain dots`}},
		{"subdomain", func(p *api.Pod) { p.Spec.Subdomain = "A" }, []string{`spec.subdomain: Invalid value: "A": ` + labelError}},
		{"node selector", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd!"} },
			[]string{`spec.nodeSelector: Invalid value: "ssd!": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{"deletion cost", func(p *api.Pod) { p.Annotations = map[string]string{api.PodDeletionCostAnnotation: "+10"} },
			[]string{`metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "+10": must be a 32bit integer`}},
		{"deletion cost too big", func(p *api.Pod) { p.Annotations = map[string]string{api.PodDeletionCostAnnotation: "2147483648"} },
			[]string{`metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "2147483648": must be a 32bit integer`}},
		{"deletion cost fine", func(p *api.Pod) { p.Annotations = map[string]string{api.PodDeletionCostAnnotation: "-100"} }, nil},
		{"deletion cost zero", func(p *api.Pod) { p.Annotations = map[string]string{api.PodDeletionCostAnnotation: "0"} }, nil},
		{"deletion cost leading zero", func(p *api.Pod) { p.Annotations = map[string]string{api.PodDeletionCostAnnotation: "007"} },
			[]string{`metadata.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "007": must be a 32bit integer`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidatePod(pod(tc.tweak), nil).Messages())
		})
	}
}

func TestValidateContainerPortsAndEnv(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tweak func(*api.Pod)
		want  []string
	}{
		{"ports", container(func(c *api.Container) {
			c.Ports = []api.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: "TCP"}, {Name: "metrics", ContainerPort: 9090, Protocol: "UDP"}}
		}), nil},
		{"port required", container(func(c *api.Container) { c.Ports = []api.ContainerPort{{Protocol: "TCP"}} }),
			[]string{"spec.containers[0].ports[0].containerPort: Required value"}},
		{"port out of range", container(func(c *api.Container) {
			c.Ports = []api.ContainerPort{{ContainerPort: 70000, HostPort: -1, Protocol: "TCP"}}
		}),
			[]string{"spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
				"spec.containers[0].ports[0].hostPort: Invalid value: -1: must be between 1 and 65535, inclusive"}},
		{"protocol", container(func(c *api.Container) { c.Ports = []api.ContainerPort{{ContainerPort: 80, Protocol: "HTTP"}} }),
			[]string{`spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"`}},
		{"protocol required", container(func(c *api.Container) { c.Ports = []api.ContainerPort{{ContainerPort: 80}} }),
			[]string{"spec.containers[0].ports[0].protocol: Required value"}},
		{"port names", container(func(c *api.Container) {
			c.Ports = []api.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: "TCP"}, {Name: "http", ContainerPort: 81, Protocol: "TCP"},
				{Name: "-Very--long-port-name", ContainerPort: 82, Protocol: "TCP"}, {Name: "8080", ContainerPort: 83, Protocol: "TCP"}}
		}), []string{
			`spec.containers[0].ports[1].name: Duplicate value: "http"`,
			`spec.containers[0].ports[2].name: Invalid value: "-Very--long-port-name": must be no more than 15 characters`,
			`spec.containers[0].ports[2].name: Invalid value: "-Very--long-port-name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
			`spec.containers[0].ports[2].name: Invalid value: "-Very--long-port-name": must not contain consecutive hyphens`,
			`spec.containers[0].ports[2].name: Invalid value: "-Very--long-port-name": must not begin or end with a hyphen`,
			`spec.containers[0].ports[3].name: Invalid value: "8080": must contain at least one letter (a-z)`,
		}},
		{"host port conflict", func(p *api.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "side", Image: "busybox", ImagePullPolicy: "Always", TerminationMessagePolicy: "File"})
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: "TCP"}}
			p.Spec.Containers[1].Ports = []api.ContainerPort{{ContainerPort: 81, HostPort: 8080, Protocol: "TCP"}, {ContainerPort: 82, HostPort: 8080, Protocol: "UDP"}}
		}, []string{`spec.containers[1].ports[0].hostPort: Duplicate value: "TCP//8080"`}},
		{"host network needs matching ports", func(p *api.Pod) {
			p.Spec.HostNetwork = true
			p.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80, HostPort: 8080, Protocol: "TCP"}, {ContainerPort: 81, Protocol: "TCP"}}
		}, []string{"spec.containers[0].ports[0].hostPort: Invalid value: 8080: must match `containerPort` when `hostNetwork` is true"}},
		{"env", container(func(c *api.Container) {
			c.Env = []api.EnvVar{{Name: "MY_VAR", Value: "1"}, {Name: "my.var-2", Value: "x"}, {Name: "1 starts with a digit"}}
		}), nil},
		{"env name", container(func(c *api.Container) { c.Env = []api.EnvVar{{Name: ""}, {Name: "A=B"}, {Name: "tab\there"}} }), []string{
			"spec.containers[0].env[0].name: Required value",
			`spec.containers[0].env[1].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
			`spec.containers[0].env[2].name: Invalid value: "tab\there": a valid environment variable name must consist only of printable ASCII characters other than '='`,
		}},
		{"env valueFrom", container(func(c *api.Container) {
			c.Env = []api.EnvVar{
				{Name: "A", ValueFrom: api.Raw(`{"configMapKeyRef":{"name":"cfg","key":"a"}}`)},
				{Name: "B", ValueFrom: api.Raw(`{}`)},
				{Name: "C", Value: "c", ValueFrom: api.Raw(`{"fieldRef":{"fieldPath":"metadata.name"}}`)},
				{Name: "D", ValueFrom: api.Raw(`{"fieldRef":{},"secretKeyRef":{}}`)},
			}
		}), []string{
			"spec.containers[0].env[1].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
			"spec.containers[0].env[2].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty",
			`spec.containers[0].env[3].valueFrom: Invalid value: "": may not have more than one field specified at a time`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidatePod(pod(tc.tweak), nil).Messages())
		})
	}
}

func TestValidateContainerResources(t *testing.T) {
	t.Parallel()
	res := func(limits, requests map[string]string) func(*api.Pod) {
		return container(func(c *api.Container) {
			if limits != nil {
				c.Resources.Limits = api.ResourceList{}
				for k, v := range limits {
					c.Resources.Limits[k] = api.MustQuantity(v)
				}
			}
			if requests != nil {
				c.Resources.Requests = api.ResourceList{}
				for k, v := range requests {
					c.Resources.Requests[k] = api.MustQuantity(v)
				}
			}
		})
	}
	tests := []struct {
		name  string
		tweak func(*api.Pod)
		want  []string
	}{
		{"requests below limits", res(map[string]string{"cpu": "1", "memory": "1Gi"}, map[string]string{"cpu": "500m", "memory": "512Mi"}), nil},
		{"requests equal limits written differently", res(map[string]string{"cpu": "0.5"}, map[string]string{"cpu": "500m"}), nil},
		{"requests above limits", res(map[string]string{"cpu": "500m"}, map[string]string{"cpu": "600m"}),
			[]string{`spec.containers[0].resources.requests: Invalid value: "600m": must be less than or equal to cpu limit of 500m`}},
		{"requests above limits, canonical rendering", res(map[string]string{"memory": "0.5Gi"}, map[string]string{"memory": "1Gi"}),
			[]string{`spec.containers[0].resources.requests: Invalid value: "1Gi": must be less than or equal to memory limit of 512Mi`}},
		{"decimal cpu rendered in milli", res(map[string]string{"cpu": "0.5"}, map[string]string{"cpu": "1.5"}),
			[]string{`spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 500m`}},
		{"negative", res(map[string]string{"cpu": "-1"}, map[string]string{"memory": "-0.5Gi"}), []string{
			`spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0`,
			`spec.containers[0].resources.requests[memory]: Invalid value: "-512Mi": must be greater than or equal to 0`,
		}},
		{"pods are not a container resource", res(map[string]string{"pods": "1"}, nil),
			[]string{`spec.containers[0].resources.limits[pods]: Invalid value: "pods": must be a standard resource for containers`}},
		{"unknown resource", res(nil, map[string]string{"gpu": "1"}), []string{
			`spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified`,
			`spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource for containers`,
		}},
		{"extended resource", res(map[string]string{"example.com/gpu": "2"}, map[string]string{"example.com/gpu": "2"}), nil},
		{"extended resource must equal its limit", res(map[string]string{"example.com/gpu": "2"}, map[string]string{"example.com/gpu": "1"}),
			[]string{`spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2`}},
		{"extended resource needs a limit", res(nil, map[string]string{"example.com/gpu": "1"}),
			[]string{"spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"}},
		{"extended resource must be whole", res(map[string]string{"example.com/gpu": "500m"}, nil),
			[]string{`spec.containers[0].resources.limits[example.com/gpu]: Invalid value: "500m": must be an integer`}},
		{"native prefixed resource", res(map[string]string{"kubernetes.io/foo": "1"}, nil), nil},
		{"bad resource name", res(map[string]string{"a/b/c": "1"}, nil), []string{
			`spec.containers[0].resources.limits[a/b/c]: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
			`spec.containers[0].resources.limits[a/b/c]: Invalid value: "a/b/c": doesn't follow extended resource name standard`,
		}},
		{"huge pages", res(map[string]string{"hugepages-2Mi": "4Mi", "memory": "1Gi"}, map[string]string{"hugepages-2Mi": "4Mi"}), nil},
		{"huge pages need cpu or memory", res(map[string]string{"hugepages-2Mi": "4Mi"}, map[string]string{"hugepages-2Mi": "4Mi"}),
			[]string{"spec.containers[0].resources: Forbidden: HugePages require cpu or memory"}},
		{"huge pages in whole pages", res(map[string]string{"hugepages-2Mi": "3Mi", "cpu": "1"}, nil),
			[]string{`spec.containers[0].resources.limits[hugepages-2Mi]: Invalid value: "3Mi": 3Mi is not positive integer multiple of hugepages-2Mi`}},
		{"huge pages need a limit", res(map[string]string{"cpu": "1"}, map[string]string{"hugepages-2Mi": "2Mi"}),
			[]string{"spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidatePod(pod(tc.tweak), nil).Messages())
		})
	}
}

func TestValidateProbes(t *testing.T) {
	t.Parallel()
	probe := func(raw string, tweak func(*api.Probe)) *api.Probe {
		p := &api.Probe{HTTPGet: api.Raw(raw), TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
		if tweak != nil {
			tweak(p)
		}
		return p
	}
	tests := []struct {
		name  string
		tweak func(*api.Container)
		want  []string
	}{
		{"valid probes", func(c *api.Container) {
			c.ReadinessProbe = probe(`{"path":"/healthz","port":8080}`, nil)
			c.LivenessProbe = probe(`{"path":"/healthz","port":"http"}`, nil)
			c.StartupProbe = &api.Probe{TCPSocket: api.Raw(`{"port":80}`), SuccessThreshold: 1}
		}, nil},
		{"no handler", func(c *api.Container) { c.ReadinessProbe = probe("", nil) },
			[]string{"spec.containers[0].readinessProbe: Required value: must specify a handler type"}},
		{"two handlers", func(c *api.Container) {
			c.ReadinessProbe = probe(`{"port":80}`, func(p *api.Probe) { p.Exec = api.Raw(`{"command":["true"]}`) })
		}, []string{"spec.containers[0].readinessProbe.httpGet: Forbidden: may not specify more than 1 handler type"}},
		{"exec needs a command", func(c *api.Container) { c.LivenessProbe = &api.Probe{Exec: api.Raw(`{}`), SuccessThreshold: 1} },
			[]string{"spec.containers[0].livenessProbe.exec.command: Required value"}},
		{"port", func(c *api.Container) { c.ReadinessProbe = probe(`{"port":0}`, nil) },
			[]string{"spec.containers[0].readinessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive"}},
		{"named port", func(c *api.Container) { c.ReadinessProbe = probe(`{"port":"HTTP"}`, nil) },
			[]string{`spec.containers[0].readinessProbe.httpGet.port: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
				`spec.containers[0].readinessProbe.httpGet.port: Invalid value: "HTTP": must contain at least one letter (a-z)`}},
		{"scheme", func(c *api.Container) { c.ReadinessProbe = probe(`{"port":80,"scheme":"FTP"}`, nil) },
			[]string{`spec.containers[0].readinessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"`}},
		{"grpc port", func(c *api.Container) { c.ReadinessProbe = &api.Probe{GRPC: api.Raw(`{"port":-1}`)} },
			[]string{"spec.containers[0].readinessProbe.grpc.port: Invalid value: -1: must be between 1 and 65535, inclusive"}},
		{"negative numbers", func(c *api.Container) {
			c.ReadinessProbe = probe(`{"port":80}`, func(p *api.Probe) {
				p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold = -1, -2, -3, -4, -5
			})
		}, []string{
			"spec.containers[0].readinessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0",
			"spec.containers[0].readinessProbe.timeoutSeconds: Invalid value: -2: must be greater than or equal to 0",
			"spec.containers[0].readinessProbe.periodSeconds: Invalid value: -3: must be greater than or equal to 0",
			"spec.containers[0].readinessProbe.successThreshold: Invalid value: -4: must be greater than or equal to 0",
			"spec.containers[0].readinessProbe.failureThreshold: Invalid value: -5: must be greater than or equal to 0",
		}},
		{"liveness success threshold", func(c *api.Container) {
			c.LivenessProbe = probe(`{"port":80}`, func(p *api.Probe) { p.SuccessThreshold = 2 })
		},
			[]string{"spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1"}},
		{"startup success threshold", func(c *api.Container) {
			c.StartupProbe = probe(`{"port":80}`, func(p *api.Probe) { p.SuccessThreshold = 3 })
		},
			[]string{"spec.containers[0].startupProbe.successThreshold: Invalid value: 3: must be 1"}},
		{"readiness grace period", func(c *api.Container) {
			c.ReadinessProbe = probe(`{"port":80}`, func(p *api.Probe) { p.TerminationGracePeriodSeconds = api.Int64(0) })
		}, []string{"spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0",
			"spec.containers[0].readinessProbe.terminationGracePeriodSeconds: Invalid value: 0: must not be set for readinessProbes"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidatePod(pod(container(tc.tweak)), nil).Messages())
		})
	}
}

// TestValidateLifecycle follows validateLifecycle, validateHandler and
// validateSleepAction of Kubernetes' pkg/apis/core/validation/validation.go
// (the TestValidateContainers rows with a Lifecycle in validation_test.go),
// with PodLifecycleSleepActionAllowZero on (the default since 1.33).
func TestValidateLifecycle(t *testing.T) {
	t.Parallel()
	preStop := func(h api.LifecycleHandler) func(*api.Container) {
		return func(c *api.Container) { c.Lifecycle = &api.Lifecycle{PreStop: &h} }
	}
	tests := []struct {
		name  string
		grace int64
		tweak func(*api.Container)
		want  []string
	}{
		{"exec preStop", 30, preStop(api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"sh", "-c", "sleep 5"}}}), nil},
		{"httpGet postStart and preStop", 30, func(c *api.Container) {
			c.Lifecycle = &api.Lifecycle{PostStart: &api.LifecycleHandler{HTTPGet: api.Raw(`{"path":"/warm","port":8080}`)},
				PreStop: &api.LifecycleHandler{TCPSocket: api.Raw(`{"port":8080}`)}}
		}, nil},
		{"sleep within grace", 30, preStop(api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 30}}), nil},
		{"sleep of zero seconds", 30, preStop(api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 0}}), nil},
		{"sleep longer than grace", 10, preStop(api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: 15}}),
			[]string{"spec.containers[0].lifecycle.preStop.sleep: Invalid value: 15: must be non-negative and less than terminationGracePeriodSeconds (10)"}},
		{"negative sleep", 30, preStop(api.LifecycleHandler{Sleep: &api.SleepAction{Seconds: -1}}),
			[]string{"spec.containers[0].lifecycle.preStop.sleep: Invalid value: -1: must be non-negative and less than terminationGracePeriodSeconds (30)"}},
		{"no handler", 30, preStop(api.LifecycleHandler{}),
			[]string{"spec.containers[0].lifecycle.preStop: Required value: must specify a handler type"}},
		{"two handlers", 30, preStop(api.LifecycleHandler{Exec: &api.ExecAction{Command: []string{"true"}}, Sleep: &api.SleepAction{Seconds: 1}}),
			[]string{"spec.containers[0].lifecycle.preStop.sleep: Forbidden: may not specify more than 1 handler type"}},
		{"exec without a command", 30, preStop(api.LifecycleHandler{Exec: &api.ExecAction{}}),
			[]string{"spec.containers[0].lifecycle.preStop.exec.command: Required value"}},
		{"httpGet port", 30, func(c *api.Container) {
			c.Lifecycle = &api.Lifecycle{PostStart: &api.LifecycleHandler{HTTPGet: api.Raw(`{"path":"/","port":0}`)}}
		}, []string{"spec.containers[0].lifecycle.postStart.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := pod(container(tc.tweak))
			p.Spec.TerminationGracePeriodSeconds = api.Int64(tc.grace)
			assert.Equal(t, tc.want, validation.ValidatePod(p, nil).Messages())
		})
	}
}

func TestValidateInitContainersAndVolumes(t *testing.T) {
	t.Parallel()
	init := api.Container{Name: "init", Image: "busybox", ImagePullPolicy: "Always", TerminationMessagePolicy: "File"}
	tests := []struct {
		name  string
		tweak func(*api.Pod)
		want  []string
	}{
		{"init container", func(p *api.Pod) { p.Spec.InitContainers = []api.Container{init} }, nil},
		{"init container name clash", func(p *api.Pod) {
			c := init
			c.Name = "web"
			p.Spec.InitContainers = []api.Container{c}
		}, []string{`spec.initContainers[0].name: Duplicate value: "web"`}},
		{"init container probes and hooks", func(p *api.Pod) {
			c := init
			c.ReadinessProbe = &api.Probe{}
			c.LivenessProbe = &api.Probe{}
			c.StartupProbe = &api.Probe{}
			c.Lifecycle = &api.Lifecycle{PreStop: &api.LifecycleHandler{}}
			p.Spec.InitContainers = []api.Container{c}
		}, []string{
			"spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always",
			"spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
			"spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
			"spec.initContainers[0].startupProbe: Forbidden: may not be set for init containers without restartPolicy=Always",
		}},
		{"init image whitespace", func(p *api.Pod) {
			c := init
			c.Image = "busybox "
			p.Spec.InitContainers = []api.Container{c}
		}, []string{`spec.initContainers[0].image: Invalid value: "busybox ": must not have leading or trailing whitespace`}},
		{"volumes and mounts", func(p *api.Pod) {
			p.Spec.Volumes = api.Raw(`[{"name":"data","emptyDir":{}},{"name":"cfg","configMap":{"name":"web"}}]`)
			p.Spec.Containers[0].VolumeMounts = api.Raw(`[{"name":"data","mountPath":"/data"},{"name":"cfg","mountPath":"/etc/web"}]`)
		}, nil},
		{"mount of a missing volume", func(p *api.Pod) {
			p.Spec.Volumes = api.Raw(`[{"name":"data","emptyDir":{}}]`)
			p.Spec.Containers[0].VolumeMounts = api.Raw(`[{"name":"dta","mountPath":"/data"},{"name":"data","mountPath":"/data"},{"mountPath":""}]`)
		}, []string{
			`spec.containers[0].volumeMounts[0].name: Not found: "dta"`,
			`spec.containers[0].volumeMounts[1].mountPath: Invalid value: "/data": must be unique`,
			"spec.containers[0].volumeMounts[2].name: Required value",
			`spec.containers[0].volumeMounts[2].name: Not found: ""`,
			"spec.containers[0].volumeMounts[2].mountPath: Required value",
		}},
		{"bad volumes", func(p *api.Pod) {
			p.Spec.Volumes = api.Raw(`[{"name":"data"},{"name":"Data","emptyDir":{}},{"emptyDir":{}},{"name":"x","emptyDir":{}},{"name":"x","emptyDir":{}}]`)
		}, []string{
			"spec.volumes[0]: Required value: must specify a volume type",
			`spec.volumes[1].name: Invalid value: "Data": ` + labelError,
			"spec.volumes[2].name: Required value",
			`spec.volumes[4].name: Duplicate value: "x"`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, validation.ValidatePod(pod(tc.tweak), nil).Messages())
		})
	}
}

func TestValidateTolerations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tol  api.Toleration
		want []string
	}{
		{"admission's toleration", api.Toleration{Key: api.TaintNodeNotReady, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64(300)}, nil},
		{"tolerate everything", api.Toleration{Operator: "Exists"}, nil},
		{"equal", api.Toleration{Key: "dedicated", Value: "gpu", Effect: "NoSchedule"}, nil},
		{"empty key needs Exists", api.Toleration{Operator: "Equal"},
			[]string{"spec.tolerations[0].operator: Invalid value: \"Equal\": operator must be Exists when `key` is empty, which means \"match all values and all keys\""}},
		{"seconds need NoExecute", api.Toleration{Key: "a", Operator: "Exists", Effect: "NoSchedule", TolerationSeconds: api.Int64(5)},
			[]string{`spec.tolerations[0].effect: Invalid value: "NoSchedule": effect must be 'NoExecute' when ` + "`tolerationSeconds`" + ` is set`}},
		{"exists with a value", api.Toleration{Key: "a", Operator: "Exists", Value: "b"},
			[]string{`spec.tolerations[0].operator: Invalid value: {"Key":"a","Operator":"Exists","Value":"b","Effect":"","TolerationSeconds":null}: value must be empty when ` + "`operator`" + ` is 'Exists'`}},
		{"bad operator", api.Toleration{Key: "a", Operator: "In"},
			[]string{`spec.tolerations[0].operator: Unsupported value: "In": supported values: "Equal", "Exists"`}},
		{"bad effect", api.Toleration{Key: "a", Operator: "Exists", Effect: "NoRun"},
			[]string{`spec.tolerations[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"`}},
		{"bad value", api.Toleration{Key: "a", Value: "b c"},
			[]string{`spec.tolerations[0].operator: Invalid value: "b c": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := pod(func(p *api.Pod) { p.Spec.Tolerations = []api.Toleration{tc.tol} })
			assert.Equal(t, tc.want, validation.ValidatePod(p, nil).Messages())
		})
	}
}

func TestValidatePodUpdate(t *testing.T) {
	t.Parallel()
	base := storedPod(pod(func(p *api.Pod) {
		p.Spec.NodeName = "node-1"
		p.Spec.Tolerations = []api.Toleration{{Key: api.TaintNodeNotReady, Operator: "Exists", Effect: "NoExecute", TolerationSeconds: api.Int64(300)}}
		p.Status.QOSClass = "BestEffort"
	}))
	forbidden := "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n"
	tests := []struct {
		name  string
		tweak func(*api.Pod)
		want  []string
	}{
		{"labels", func(p *api.Pod) { p.Labels = map[string]string{"app": "other"} }, nil},
		{"owner references", func(p *api.Pod) { p.OwnerReferences = nil }, nil},
		{"image", func(p *api.Pod) { p.Spec.Containers[0].Image = "nginx:1.28" }, nil},
		{"added toleration", func(p *api.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, api.Toleration{Key: "gpu", Operator: "Exists"})
		}, nil},
		{"toleration seconds changed", func(p *api.Pod) { p.Spec.Tolerations[0].TolerationSeconds = api.Int64(10) }, nil},
		{"toleration removed", func(p *api.Pod) { p.Spec.Tolerations = nil },
			[]string{"spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds"}},
		{"activeDeadlineSeconds set", func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = api.Int64(30) }, nil},
		{"container added", func(p *api.Pod) { p.Spec.Containers = append(p.Spec.Containers, p.Spec.Containers[0]) },
			[]string{`spec.containers[1].name: Duplicate value: "web"`, "spec.containers: Forbidden: pod updates may not add or remove containers"}},
		{"image removed", func(p *api.Pod) { p.Spec.Containers[0].Image = "" },
			[]string{"spec.containers[0].image: Required value"}}, // reported twice, printed once
		{"node name changed", func(p *api.Pod) { p.Spec.NodeName = "node-2" }, []string{forbidden +
			"  core.PodSpec{\n- \tNodeName: \"node-1\",\n+ \tNodeName: \"node-2\",\n  }\n"}},
		{"node selector added", func(p *api.Pod) { p.Spec.NodeSelector = map[string]string{"disk": "ssd"} }, []string{forbidden +
			"  core.PodSpec{\n- \tNodeSelector: nil,\n+ \tNodeSelector: {\"disk\":\"ssd\"},\n  }\n"}},
		{"resources changed also changes QoS", func(p *api.Pod) {
			p.Spec.Containers[0].Resources.Requests = api.ResourceList{"cpu": api.MustQuantity("100m")}
		}, []string{`metadata: Invalid value: "BestEffort": Pod QoS is immutable`, forbidden +
			"  core.PodSpec{\n- \tContainers: [{\"name\":\"web\",\"image\":\"nginx:1.27\",\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\",\"imagePullPolicy\":\"IfNotPresent\"}],\n+ \tContainers: [{\"name\":\"web\",\"image\":\"nginx:1.27\",\"resources\":{\"requests\":{\"cpu\":\"100m\"}},\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\",\"imagePullPolicy\":\"IfNotPresent\"}],\n  }\n"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := base.DeepCopy()
			tc.tweak(p)
			assert.Equal(t, tc.want, validation.ValidatePod(p, base).Messages())
		})
	}
}

func TestValidatePodUpdateActiveDeadline(t *testing.T) {
	t.Parallel()
	withDeadline := func(v *int64) *api.Pod {
		return storedPod(pod(func(p *api.Pod) { p.Spec.ActiveDeadlineSeconds = v }))
	}
	tests := []struct {
		name     string
		old, new *int64
		want     []string
	}{
		{"lowered", api.Int64(60), api.Int64(30), nil},
		{"same", api.Int64(60), api.Int64(60), nil},
		{"raised", api.Int64(30), api.Int64(60), []string{"spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value"}},
		{"unset", api.Int64(30), nil, []string{`spec.activeDeadlineSeconds: Invalid value: "null": must not update from a positive integer to nil value`}},
		{"negative", nil, api.Int64(-1), []string{
			"spec.activeDeadlineSeconds: Invalid value: -1: must be between 1 and 2147483647, inclusive",
			"spec.activeDeadlineSeconds: Invalid value: -1: must be between 0 and 2147483647, inclusive",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			old := withDeadline(tc.old)
			p := old.DeepCopy()
			p.Spec.ActiveDeadlineSeconds = tc.new
			assert.Equal(t, tc.want, validation.ValidatePod(p, old).Messages())
		})
	}
}

func TestValidatePodUpdateGracePeriod(t *testing.T) {
	t.Parallel()
	old := storedPod(pod(func(p *api.Pod) { p.Spec.TerminationGracePeriodSeconds = api.Int64(-1) }))
	p := old.DeepCopy()
	p.Spec.TerminationGracePeriodSeconds = api.Int64(1)
	assert.Empty(t, validation.ValidatePod(p, old))
	p.Spec.TerminationGracePeriodSeconds = api.Int64(2)
	errs := validation.ValidatePod(p, old)
	require.Len(t, errs, 1)
	assert.True(t, strings.HasPrefix(errs[0].Error(), "spec: Forbidden: pod updates may not change fields other than"))
	assert.Contains(t, errs[0].Error(), "- \tTerminationGracePeriodSeconds: -1,\n+ \tTerminationGracePeriodSeconds: 2,")
}
