package kubectl

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"converge/core/api"
	"converge/core/simtest"
)

func TestGetTables(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, line, want, err string
	}{
		{"deployments", "get deployments", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           5m", ""},
		{"short name and namespace", "get deploy -n default", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           5m", ""},
		{"by name", "get deployment web", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           5m", ""},
		{"type/name", "get deployment.apps/web", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           5m", ""},
		{"replicasets", "get rs", "NAME             DESIRED   CURRENT   READY   AGE\nweb-66b6c48dd5   3         3         3       5m", ""},
		{"pods by label", "get po -l pod-template-hash=66b6c48dd5,app=web",
			"NAME                   READY   STATUS    RESTARTS   AGE\n" +
				"web-66b6c48dd5-4jw2m   1/1     Running   0          5m\n" +
				"web-66b6c48dd5-8xk2p   1/1     Running   0          5m\n" +
				"web-66b6c48dd5-tz7qw   1/1     Running   0          5m", ""},
		{"nodes", "get no", "NAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   5m    v1.35.0\nnode-2   Ready    <none>   5m    v1.35.0", ""},
		{"services", "get svc", "NAME   TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\nweb    ClusterIP   10.96.0.10   <none>        80/TCP    4m57s", ""},
		// The API server's warning, once, on every request for v1 Endpoints.
		{"endpoints", "get ep", "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\nNAME   ENDPOINTS                                   AGE\nweb    10.244.1.5:80,10.244.1.6:80,10.244.1.7:80   4m57s", ""},
		{"services and endpoints", "get svc,ep", "Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n" +
			"NAME          TYPE        CLUSTER-IP   EXTERNAL-IP   PORT(S)   AGE\nservice/web   ClusterIP   10.96.0.10   <none>        80/TCP    4m57s\n\n" +
			"NAME            ENDPOINTS                                   AGE\nendpoints/web   10.244.1.5:80,10.244.1.6:80,10.244.1.7:80   4m57s", ""},
		{"configmaps", "get cm", "NAME       DATA   AGE\nsettings   2      4m57s", ""},
		{"events", "get ev", "LAST SEEN   TYPE     REASON              OBJECT           MESSAGE\n" +
			"4m57s       Normal   ScalingReplicaSet   deployment/web   Scaled up replica set web-66b6c48dd5 to 3", ""},
		{"show labels", "get deploy --show-labels", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE   LABELS\nweb    3/3     3            3           5m    app=web", ""},
		{"label columns", "get rs -L pod-template-hash,app.kubernetes.io/name",
			"NAME             DESIRED   CURRENT   READY   AGE   POD-TEMPLATE-HASH   NAME\nweb-66b6c48dd5   3         3         3       5m    66b6c48dd5          ", ""},
		{"no headers", "get deploy --no-headers", "web   3/3   3     3     5m", ""},
		{"all namespaces", "get deploy -A", "NAMESPACE   NAME   READY   UP-TO-DATE   AVAILABLE   AGE\ndefault     web    3/3     3            3           5m", ""},
		{"two kinds", "get deploy,cm", "NAME                  READY   UP-TO-DATE   AVAILABLE   AGE\ndeployment.apps/web   3/3     3            3           5m\n\n" +
			"NAME                 DATA   AGE\nconfigmap/settings   2      4m57s", ""},
		{"names", "get deploy,svc -o name", "deployment.apps/web\nservice/web", ""},
		{"nothing found", "get deploy -l app=nope", "No resources found in default namespace.", ""},
		{"nothing found in another namespace", "get pods -n kube-system", "No resources found in kube-system namespace.", ""},
		{"nothing found cluster-wide", "get nodes -l x=y", "No resources found", ""},
		{"not found", "get deployment x", "", `Error from server (NotFound): deployments.apps "x" not found`},
		{"found and not found", "get deploy web x", "NAME   READY   UP-TO-DATE   AVAILABLE   AGE\nweb    3/3     3            3           5m",
			`Error from server (NotFound): deployments.apps "x" not found`},
		{"ignore not found", "get deployment x --ignore-not-found", "", ""},
		{"unknown type", "get foo", "", `error: the server doesn't have a resource type "foo"`},
		{"no type", "get", "", "You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\n" +
			"error: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\n" +
			"See 'kubectl get -h' for help and examples"},
		{"name and selector", "get deploy web -l app=web", "", "error: name cannot be provided when a selector is specified"},
		{"bad selector", "get pods -l 'a b'", "", "error: unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{"bad output", "get pods -o go-template={{.x}}", "", `error: unable to match a printer suitable for the output format "go-template={{.x}}", allowed formats are: custom-columns,json,jsonpath,name,wide,yaml`},
		{"type/name mixed with type", "get deploy/web pods", "", "error: " + msgNoNeedForType},
		{"empty name", "get deploy/", "", "error: arguments in resource/name form must have a single resource and name"},
	}
	f := newFixture(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := f.run(tc.line)
			assert.Equal(t, tc.want, r.Output)
			assert.Equal(t, tc.err, r.Error)
			assert.False(t, r.Mutated)
		})
	}
}

func TestGetGoldens(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct{ golden, line string }{
		{"get-pods-wide", "get pods -o wide"},
		{"get-deploy-rs-wide", "get deploy,rs -o wide"},
		{"get-nodes-wide", "get nodes -o wide"},
		{"get-svc-wide", "get svc -o wide"},
		{"get-all", "get all"},
		{"get-events-wide", "get events -o wide"},
		{"get-deploy-yaml", "get deploy web -o yaml"},
		{"get-deploy-json", "get deployment/web -o json"},
		{"get-pod-yaml", "get pod web-66b6c48dd5-4jw2m -o yaml"},
		{"get-cm-list-yaml", "get cm -o yaml"},
		{"get-svc-ep-list-json", "get svc,ep -o json"},
		{"get-empty-list-yaml", "get deploy -l app=none -o yaml"},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			t.Parallel()
			r := f.run(tc.line)
			assert.Empty(t, r.Error)
			golden(t, tc.golden, r.Output+"\n")
		})
	}
}

// podWith is a pod in a given state for the STATUS column.
func podWith(edit func(p *api.Pod)) *api.Pod {
	p := simtest.NewPod("p", simtest.WithPodNode("node-1"))
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "app", Image: "nginx:1.25"}}
	edit(p)
	return p
}

func TestPodStatusColumn(t *testing.T) {
	t.Parallel()
	now := api.NewTime(api.Epoch.Add(time.Hour))
	waiting := func(reason string) func(p *api.Pod) {
		return func(p *api.Pod) {
			p.Status.ContainerStatuses[0].State.Waiting = &api.ContainerStateWaiting{Reason: reason}
		}
	}
	tests := []struct {
		name                   string
		pod                    *api.Pod
		ready, status, restart string
	}{
		{"pending without container status", simtest.NewPod("p"), "0/1", "Pending", "0"},
		{"container creating", podWith(waiting("ContainerCreating")), "0/1", "ContainerCreating", "0"},
		{"image pull error", podWith(waiting("ErrImagePull")), "0/1", "ErrImagePull", "0"},
		{"image pull back-off", podWith(waiting("ImagePullBackOff")), "0/1", "ImagePullBackOff", "0"},
		{"crash loop with restarts", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodRunning
			cs := &p.Status.ContainerStatuses[0]
			cs.State.Waiting = &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}
			cs.RestartCount = 2
			cs.LastTerminationState.Terminated = &api.ContainerStateTerminated{ExitCode: 1, Reason: "Error",
				FinishedAt: api.NewTime(now.Add(-5 * time.Second))}
		}), "0/1", "CrashLoopBackOff", "2 (5s ago)"},
		{"running and ready", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodRunning
			p.Status.ContainerStatuses[0].Ready = true
			p.Status.ContainerStatuses[0].State.Running = &api.ContainerStateRunning{StartedAt: now}
		}), "1/1", "Running", "0"},
		{"running not ready", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodRunning
			p.Status.ContainerStatuses[0].State.Running = &api.ContainerStateRunning{StartedAt: now}
		}), "0/1", "Running", "0"},
		{"terminating", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodRunning
			p.DeletionTimestamp = &now
		}), "0/1", "Terminating", "0"},
		{"completed", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodSucceeded
			p.Status.ContainerStatuses[0].State.Terminated = &api.ContainerStateTerminated{Reason: "Completed"}
		}), "0/1", "Completed", "0"},
		{"error", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodFailed
			p.Status.ContainerStatuses[0].State.Terminated = &api.ContainerStateTerminated{Reason: "Error", ExitCode: 1}
		}), "0/1", "Error", "0"},
		{"exit code without reason", podWith(func(p *api.Pod) {
			p.Status.ContainerStatuses[0].State.Terminated = &api.ContainerStateTerminated{ExitCode: 2}
		}), "0/1", "ExitCode:2", "0"},
		{"signal without reason", podWith(func(p *api.Pod) {
			p.Status.ContainerStatuses[0].State.Terminated = &api.ContainerStateTerminated{Signal: 9}
		}), "0/1", "Signal:9", "0"},
		{"terminated pod deleted stays terminal", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodFailed
			p.DeletionTimestamp = &now
		}), "0/1", "Failed", "0"},
		{"lost node", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodRunning
			p.Status.Reason = "NodeLost"
			p.DeletionTimestamp = &now
		}), "0/1", "Unknown", "0"},
		{"pod reason wins over phase", podWith(func(p *api.Pod) { p.Status.Reason = "Evicted"; p.Status.Phase = api.PodFailed }),
			"0/1", "Evicted", "0"},
		{"scheduling gated", simtest.NewPod("p", func(p *api.Pod) {
			p.Status.Conditions = []api.PodCondition{{Type: api.PodScheduled, Status: "False", Reason: "SchedulingGated"}}
		}), "0/1", "SchedulingGated", "0"},
		{"completed but still running is running", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodRunning
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "side", Image: "x"})
			p.Status.ContainerStatuses[0].State.Terminated = &api.ContainerStateTerminated{Reason: "Completed"}
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{Name: "side", Ready: true,
				State: api.ContainerState{Running: &api.ContainerStateRunning{}}})
			p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: "True"}}
		}), "1/2", "Running", "0"},
		{"completed but still running, not ready", podWith(func(p *api.Pod) {
			p.Status.Phase = api.PodRunning
			p.Spec.Containers = append(p.Spec.Containers, api.Container{Name: "side", Image: "x"})
			p.Status.ContainerStatuses[0].State.Terminated = &api.ContainerStateTerminated{Reason: "Completed"}
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, api.ContainerStatus{Name: "side", Ready: true,
				State: api.ContainerState{Running: &api.ContainerStateRunning{}}})
		}), "1/2", "NotReady", "0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := podStatus(tc.pod, now)
			assert.Equal(t, tc.ready, r.ready)
			assert.Equal(t, tc.status, r.status)
			assert.Equal(t, tc.restart, r.restarts)
		})
	}
}

func TestNodeStatusColumn(t *testing.T) {
	t.Parallel()
	ready := simtest.NewNode("n", "1", "1Gi", 10)
	cordoned := ready.DeepCopy()
	cordoned.Spec.Unschedulable = true
	notReady := ready.DeepCopy()
	notReady.Status.Conditions[0].Status = api.ConditionUnknown
	unknown := ready.DeepCopy()
	unknown.Status.Conditions = nil
	roles := ready.DeepCopy()
	roles.Labels["node-role.kubernetes.io/worker"] = ""
	roles.Labels["node-role.kubernetes.io/control-plane"] = ""
	roles.Labels["kubernetes.io/role"] = "edge"
	assert.Equal(t, "Ready", nodeStatus(ready))
	assert.Equal(t, "Ready,SchedulingDisabled", nodeStatus(cordoned))
	assert.Equal(t, "NotReady", nodeStatus(notReady))
	assert.Equal(t, "Unknown", nodeStatus(unknown))
	assert.Equal(t, []string{"control-plane", "edge", "worker"}, nodeRoles(roles))
}
