package kubectl

import (
	"encoding/json"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/<name>.golden, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "missing golden file; run go test ./core/kubectl -update")
	assert.Equal(t, string(want), got)
}

// testDecode decodes JSON manifests (one object, a JSON list of objects, or
// documents separated by "---") for tests; the real decoder is core/manifest.
func testDecode(data []byte, source string) ([]api.Object, error) {
	var out []api.Object
	for _, doc := range strings.Split(string(data), "\n---\n") {
		doc = strings.TrimSpace(doc)
		if doc == "" {
			continue
		}
		var raw []json.RawMessage
		if strings.HasPrefix(doc, "[") {
			if err := json.Unmarshal([]byte(doc), &raw); err != nil {
				return nil, err
			}
		} else {
			raw = []json.RawMessage{json.RawMessage(doc)}
		}
		for _, r := range raw {
			var tm api.TypeMeta
			if err := json.Unmarshal(r, &tm); err != nil {
				return nil, err
			}
			obj := store.NewObject(tm.Kind)
			if obj == nil {
				return nil, &plainError{text: source + ": unknown kind " + tm.Kind}
			}
			if err := json.Unmarshal(r, obj); err != nil {
				return nil, err
			}
			out = append(out, obj)
		}
	}
	return out, nil
}

// fixture is a small cluster as the controllers would leave it: Deployment
// web (3 replicas, nginx:1.25) rolled out with ReplicaSet web-66b6c48dd5 and
// its three pods on node-1 and node-2, a Service and its Endpoints, a
// ConfigMap and the rollout's events; the clock stands 5 minutes later.
type fixture struct {
	st    *store.Store
	env   *Env
	files mapFiles
}

// mapFiles is a filesystem of the files a test writes into the map (name →
// content), read when a command opens them.
type mapFiles map[string]string

func (m mapFiles) Open(name string) (fs.File, error) {
	fsys := fstest.MapFS{}
	for k, v := range m {
		fsys[k] = &fstest.MapFile{Data: []byte(v)}
	}
	return fsys.Open(name)
}

const fixtureHash = "66b6c48dd5"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	st := simtest.NewStore()
	f := &fixture{st: st, files: mapFiles{}}
	f.env = &Env{Store: st, Decode: testDecode, Files: f.files}
	for i, n := range []string{"node-1", "node-2"} {
		node := simtest.NewNode(n, "4", "8Gi", 110)
		node.Labels["kubernetes.io/os"] = "linux"
		node.Labels["kubernetes.io/arch"] = "amd64"
		node.Status.Addresses = []api.NodeAddress{{Type: "InternalIP", Address: "10.0.0." + string(rune('1'+i))}, {Type: "Hostname", Address: n}}
		simtest.MustCreate(t, st, node)
	}
	d := simtest.MustCreate(t, st, simtest.NewDeployment("web", 3, "nginx:1.25", func(d *api.Deployment) {
		d.Labels = map[string]string{"app": "web"}
		d.Spec.Template.Spec.Containers[0].Ports = []api.ContainerPort{{ContainerPort: 80}}
	}))
	rs := f.addReplicaSet(t, d, fixtureHash, "1", 3)
	for i, name := range []string{"web-66b6c48dd5-4jw2m", "web-66b6c48dd5-8xk2p", "web-66b6c48dd5-tz7qw"} {
		f.addPod(t, rs, name, []string{"node-1", "node-2", "node-1"}[i], "10.244.1."+string(rune('5'+i)))
	}
	simtest.Advance(st, 3*time.Second)
	f.setDeploymentStatus(t, "web", func(s *api.DeploymentStatus) {
		*s = api.DeploymentStatus{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
			Conditions: []api.DeploymentCondition{
				{Type: "Available", Status: "True", Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability.",
					LastUpdateTime: st.Now(), LastTransitionTime: st.Now()},
				{Type: "Progressing", Status: "True", Reason: "NewReplicaSetAvailable",
					Message: `ReplicaSet "web-66b6c48dd5" has successfully progressed.`, LastUpdateTime: st.Now(), LastTransitionTime: st.Now()},
			}}
	})
	dep, _ := st.GetDeployment("default", "web")
	st.RecordEvent(dep, "deployment-controller", "", "Normal", "ScalingReplicaSet", "Scaled up replica set web-66b6c48dd5 to 3")
	svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}, Spec: api.ServiceSpec{
		Selector: map[string]string{"app": "web"}, ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"},
		IPFamilies: []string{"IPv4"}, IPFamilyPolicy: "SingleStack", InternalTrafficPolicy: "Cluster",
		Ports: []api.ServicePort{{Port: 80}}}}
	simtest.MustCreate(t, st, svc)
	simtest.MustCreate(t, st, &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"},
		Subsets: []api.EndpointSubset{{Addresses: []api.EndpointAddress{{IP: "10.244.1.5"}, {IP: "10.244.1.6"}, {IP: "10.244.1.7"}},
			Ports: []api.EndpointPort{{Port: 80, Protocol: "TCP"}}}}})
	simtest.MustCreate(t, st, &api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "settings", Namespace: "default"},
		Data: map[string]string{"color": "blue", "size": "10"}})
	simtest.Advance(st, 5*time.Minute-3*time.Second)
	return f
}

// addReplicaSet creates the ReplicaSet the Deployment controller would for
// d's current template.
func (f *fixture) addReplicaSet(t *testing.T, d *api.Deployment, hash, revision string, replicas int32) *api.ReplicaSet {
	t.Helper()
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: d.Name + "-" + hash, Namespace: d.Namespace,
		Labels:          map[string]string{"app": d.Name, api.DefaultDeploymentUniqueLabelKey: hash},
		Annotations:     map[string]string{api.RevisionAnnotation: revision, api.DesiredReplicasAnnotation: "3", api.MaxReplicasAnnotation: "4"},
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(d)}}}
	rs.Spec.Replicas = api.Int32(replicas)
	rs.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": d.Name, api.DefaultDeploymentUniqueLabelKey: hash}}
	rs.Spec.Template = d.Spec.Template.DeepCopy()
	rs.Spec.Template.Labels = map[string]string{"app": d.Name, api.DefaultDeploymentUniqueLabelKey: hash}
	created := simtest.MustCreate(t, f.st, rs)
	next := created.DeepCopy()
	next.Status = api.ReplicaSetStatus{Replicas: replicas, FullyLabeledReplicas: replicas, ReadyReplicas: replicas,
		AvailableReplicas: replicas, ObservedGeneration: 1}
	out, err := f.st.UpdateStatus(next)
	require.NoError(t, err)
	return out.(*api.ReplicaSet)
}

// addPod creates a running, ready pod of rs on node.
func (f *fixture) addPod(t *testing.T, rs *api.ReplicaSet, name, node, ip string) *api.Pod {
	t.Helper()
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: api.CopyStringMap(rs.Spec.Template.Labels),
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(rs)}}}
	p.Spec = rs.Spec.Template.Spec.DeepCopy()
	p.Spec.NodeName = node
	created := simtest.MustCreate(t, f.st, p)
	now := f.st.Now()
	next := created.DeepCopy()
	next.Status = api.PodStatus{Phase: api.PodRunning, HostIP: map[string]string{"node-1": "10.0.0.1", "node-2": "10.0.0.2"}[node],
		PodIP: ip, StartTime: &now, QOSClass: "BestEffort",
		Conditions: []api.PodCondition{{Type: "Initialized", Status: "True", LastTransitionTime: now},
			{Type: "Ready", Status: "True", LastTransitionTime: now}, {Type: "ContainersReady", Status: "True", LastTransitionTime: now},
			{Type: "PodScheduled", Status: "True", LastTransitionTime: now}},
		ContainerStatuses: []api.ContainerStatus{{Name: p.Spec.Containers[0].Name, Ready: true, Image: p.Spec.Containers[0].Image,
			ImageID: "docker.io/library/" + p.Spec.Containers[0].Image, ContainerID: "containerd://" + name,
			State: api.ContainerState{Running: &api.ContainerStateRunning{StartedAt: now}}, Started: api.Bool(true)}}}
	out, err := f.st.UpdateStatus(next)
	require.NoError(t, err)
	return out.(*api.Pod)
}

func (f *fixture) setDeploymentStatus(t *testing.T, name string, edit func(*api.DeploymentStatus)) {
	t.Helper()
	d, err := f.st.GetDeployment("default", name)
	require.NoError(t, err)
	next := d.DeepCopy()
	edit(&next.Status)
	_, err = f.st.UpdateStatus(next)
	require.NoError(t, err)
}

func (f *fixture) editPod(t *testing.T, name string, edit func(*api.Pod)) {
	t.Helper()
	p, err := f.st.GetPod("default", name)
	require.NoError(t, err)
	next := p.DeepCopy()
	edit(next)
	_, err = f.st.UpdateStatus(next)
	require.NoError(t, err)
}

func (f *fixture) run(line string) Result { return Run(f.env, line) }
