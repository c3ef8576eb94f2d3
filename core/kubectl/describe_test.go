package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
)

func TestDescribeGoldens(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// A pod in trouble: crash-looping with a restart, resource requests and
	// an env var, so the container sections print their optional parts.
	rs, err := f.st.GetReplicaSet("default", "web-66b6c48dd5")
	require.NoError(t, err)
	crash := f.addPod(t, rs, "web-66b6c48dd5-crash", "node-2", "10.244.2.9")
	f.editPod(t, crash.Name, func(p *api.Pod) {
		cs := &p.Status.ContainerStatuses[0]
		cs.Ready = false
		cs.RestartCount = 3
		cs.State = api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
		cs.LastTerminationState.Terminated = &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error",
			StartedAt: api.NewTime(api.Epoch.Add(time.Minute)), FinishedAt: api.NewTime(api.Epoch.Add(time.Minute + 10*time.Second))}
		p.Status.Conditions[1].Status = "False"
	})
	pod, _ := f.st.GetPod("default", crash.Name)
	f.st.RecordEvent(pod, "kubelet", "node-2", "Warning", "BackOff", "Back-off restarting failed container web in pod web-66b6c48dd5-crash_default(x)")
	f.st.RecordEvent(pod, "kubelet", "node-2", "Warning", "BackOff", "Back-off restarting failed container web in pod web-66b6c48dd5-crash_default(x)")
	simtest.Advance(f.st, 30*time.Second)
	for _, tc := range []struct{ golden, line string }{
		{"describe-deployment", "describe deployment web"},
		{"describe-rs", "describe rs web-66b6c48dd5"},
		{"describe-pod", "describe pod web-66b6c48dd5-4jw2m"},
		{"describe-pod-crashloop", "describe pod web-66b6c48dd5-crash"},
		{"describe-node", "describe node node-2"},
		{"describe-service", "describe svc web"},
		{"describe-configmap", "describe cm settings"},
		{"describe-endpoints", "describe ep web"},
		{"describe-prefix", "describe deploy we"},
		{"describe-all-nodes", "describe nodes"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			t.Parallel()
			r := f.run(tc.line)
			assert.Empty(t, r.Error)
			golden(t, tc.golden, r.Output+"\n")
		})
	}
}

func TestDescribeTemplatesWithEverything(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	d := simtest.NewDeployment("api", 2, "myrepo/api:2.0", func(d *api.Deployment) {
		d.Annotations = map[string]string{"kubernetes.io/change-cause": "bump to 2.0", api.LastAppliedAnnotation: "{}\n",
			"long": "x" + string(make([]byte, 0)) + repeat("y", 150), "multi": "line one\nline two\n"}
		c := &d.Spec.Template.Spec.Containers[0]
		c.Command = []string{"/bin/api", "--port=8080"}
		c.Args = []string{"--verbose"}
		c.Ports = []api.ContainerPort{{ContainerPort: 8080, Name: "http"}, {ContainerPort: 9090, Name: "metrics"}}
		c.Env = []api.EnvVar{{Name: "MODE", Value: "fast"}, {Name: "NODE", ValueFrom: api.Raw(`{"fieldRef":{"fieldPath":"spec.nodeName"}}`)},
			{Name: "COLOR", ValueFrom: api.Raw(`{"configMapKeyRef":{"name":"settings","key":"color"}}`)},
			{Name: "TOKEN", ValueFrom: api.Raw(`{"secretKeyRef":{"name":"creds","key":"token","optional":true}}`)}}
		c.EnvFrom = api.Raw(`[{"configMapRef":{"name":"settings"}},{"prefix":"S_","secretRef":{"name":"creds"}}]`)
		c.Resources.Requests = api.ResourceList{"cpu": api.MustQuantity("250m"), "memory": api.MustQuantity("64Mi")}
		c.Resources.Limits = api.ResourceList{"cpu": api.MustQuantity("1"), "memory": api.MustQuantity("128Mi")}
		c.ReadinessProbe = &api.Probe{HTTPGet: api.Raw(`{"path":"/healthz","port":8080}`), PeriodSeconds: 5}
		c.LivenessProbe = &api.Probe{TCPSocket: api.Raw(`{"port":8080}`)}
		c.StartupProbe = &api.Probe{Exec: api.Raw(`{"command":["cat","/ready"]}`)}
		c.VolumeMounts = api.Raw(`[{"name":"data","mountPath":"/data"},{"name":"cfg","mountPath":"/etc/cfg","readOnly":true,"subPath":"app"}]`)
		d.Spec.Template.Spec.Volumes = api.Raw(`[{"name":"data","emptyDir":{}},{"name":"cfg","configMap":{"name":"settings"}},` +
			`{"name":"s","secret":{"secretName":"creds"}},{"name":"h","hostPath":{"path":"/var/log"}},` +
			`{"name":"p","persistentVolumeClaim":{"claimName":"claim"}},{"name":"odd","nfs":{}}]`)
		d.Spec.Template.Spec.NodeSelector = map[string]string{"disk": "ssd"}
		d.Spec.Template.Spec.Tolerations = []api.Toleration{{Key: "dedicated", Operator: "Equal", Value: "api", Effect: "NoSchedule"},
			{Operator: "Exists"}}
		d.Spec.Template.Spec.ServiceAccountName = "api"
		d.Spec.Template.Spec.PriorityClassName = "high"
		d.Spec.Template.Annotations = map[string]string{"prometheus.io/scrape": "true"}
		d.Spec.Strategy = api.DeploymentStrategy{Type: api.RecreateDeploymentStrategyType}
	})
	simtest.MustCreate(t, f.st, d)
	r := f.run("describe deploy api")
	require.Empty(t, r.Error)
	golden(t, "describe-deployment-full", r.Output+"\n")
}

func repeat(s string, n int) string {
	out := ""
	for i := 0; i < n; i++ {
		out += s
	}
	return out
}

func TestDescribeErrors(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct{ name, line, out, err string }{
		{"not found", "describe deployment nope", "", `Error from server (NotFound): deployments.apps "nope" not found`},
		{"no type", "describe", "", msgDescribeNoType},
		{"nothing", "describe pods -l app=none", "No resources found in default namespace.", ""},
		{"nothing anywhere", "describe pods -l app=none -A", "No resources found", ""},
		{"unknown type", "describe foo x", "", `error: the server doesn't have a resource type "foo"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
		})
	}
}

func TestDescribeEventWithTheGenericDescriber(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ev := f.st.Events()[0]
	r := f.run("describe event " + ev.Name)
	require.Empty(t, r.Error)
	golden(t, "describe-event", r.Output+"\n")
	assert.Equal(t, "API Version", smartLabel("apiVersion"))
	assert.Equal(t, "Involved Object", smartLabel("involvedObject"))
	assert.Equal(t, "UID", smartLabel("uid"))
	assert.Equal(t, "Resource Version", smartLabel("resourceVersion"))
	assert.Equal(t, []string{"PDF", "Loader"}, camelSplit("PDFLoader"))
	assert.Equal(t, "a.b", smartLabel("a.b"))
}

func TestQuantitySums(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   []string
		want string
	}{
		{nil, "0"},
		{[]string{"100m", "150m"}, "250m"},
		{[]string{"500m", "500m"}, "1"},
		{[]string{"1500m"}, "1500m"},
		{[]string{"0.5"}, "500m"},
		{[]string{"2", "1"}, "3"},
		{[]string{"1500"}, "1500"},
		{[]string{"1k", "1000"}, "2k"},
		{[]string{"128Mi", "256Mi"}, "384Mi"},
		{[]string{"512Mi", "512Mi"}, "1Gi"},
		{[]string{"1000Mi"}, "1000Mi"},
		{[]string{"100M"}, "100M"},
		{[]string{"1Ki", "1"}, "1025"},
	}
	for _, tc := range tests {
		s := &quantitySum{}
		for _, q := range tc.in {
			s.add(api.MustQuantity(q))
		}
		assert.Equal(t, tc.want, s.String(), "%v", tc.in)
	}
}

func TestPodQOS(t *testing.T) {
	t.Parallel()
	best := simtest.NewPod("a")
	burst := simtest.NewPod("b", simtest.WithPodRequests("100m", ""))
	guaranteed := simtest.NewPod("c", func(p *api.Pod) {
		l := api.ResourceList{"cpu": api.MustQuantity("1"), "memory": api.MustQuantity("1Gi")}
		p.Spec.Containers[0].Resources = api.ResourceRequirements{Limits: l, Requests: l.DeepCopy()}
	})
	assert.Equal(t, "BestEffort", podQOS(best))
	assert.Equal(t, "Burstable", podQOS(burst))
	assert.Equal(t, "Guaranteed", podQOS(guaranteed))
}
