package manifest

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

// lines joins YAML lines, so that columns in the expectations are easy to count.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func problemStrings(ps Problems) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

const deployHead = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n"

func TestDecodeReportsEveryProblemWithItsPosition(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"unknown field with a hint", deployHead + "spec:\n  replicass: 3\n",
			[]string{`m.yaml:6:3: unknown field "replicass" in spec; did you mean "replicas"?`}},
		{"unknown field without a close match", deployHead + "spec:\n  colour: red\n",
			[]string{`m.yaml:6:3: unknown field "colour" in spec`}},
		{"unknown top-level field", deployHead + "specs: {}\n",
			[]string{`m.yaml:5:1: unknown field "specs"; did you mean "spec"?`}},
		{"a field in the wrong case", deployHead + "spec:\n  minreadyseconds: 3\n",
			[]string{`m.yaml:6:3: unknown field "minreadyseconds" in spec; did you mean "minReadySeconds"?`}},
		{"a string where an integer belongs", deployHead + "spec:\n  replicas: three\n",
			[]string{`m.yaml:6:13: cannot decode a string into spec.replicas (an integer)`}},
		{"a quoted number where an integer belongs", deployHead + "spec:\n  replicas: \"3\"\n",
			[]string{`m.yaml:6:13: cannot decode a string into spec.replicas (an integer); remove the quotes`}},
		{"a fraction where an integer belongs", deployHead + "spec:\n  replicas: 1.5\n",
			[]string{`m.yaml:6:13: cannot decode the number 1.5 into spec.replicas (an integer)`}},
		{"an integer out of range", deployHead + "spec:\n  replicas: 3000000000\n",
			[]string{`m.yaml:6:13: cannot decode 3000000000 into spec.replicas: out of range for a 32-bit integer`}},
		{"a list where a mapping belongs", deployHead + "spec: [1, 2]\n",
			[]string{`m.yaml:5:7: cannot decode a list into spec (a mapping)`}},
		{"a mapping where a list belongs", deployHead + "spec:\n  template:\n    spec:\n      containers: {name: web}\n",
			[]string{`m.yaml:8:19: cannot decode a mapping into spec.template.spec.containers (a list)`}},
		{"yes is not a boolean", deployHead + "spec:\n  paused: yes\n",
			[]string{`m.yaml:6:11: cannot decode a string into spec.paused (a boolean); write true or false`}},
		{"a number where a string belongs", deployHead + "spec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: 1.0\n",
			[]string{`m.yaml:10:16: spec.template.spec.containers[0].image: must be a string; quote it: "1.0"`}},
		{"a label value that is not a string", deployHead + "  labels:\n    version: 1.0\n    ok: \"1.0\"\n    on: true\n",
			[]string{`m.yaml:6:14: metadata.labels.version: must be a string; quote it: "1.0"`,
				`m.yaml:8:9: metadata.labels.on: must be a string; quote it: "true"`}},
		{"an annotation key with dots", deployHead + "  annotations:\n    example.com/build: 42\n",
			[]string{`m.yaml:6:24: metadata.annotations["example.com/build"]: must be a string; quote it: "42"`}},
		{"a mapping as a label value", deployHead + "  labels:\n    app: {name: web}\n",
			[]string{`m.yaml:6:10: cannot decode a mapping into metadata.labels.app (a string)`}},
		{"a list as a key", deployHead + "  labels:\n    ? [a]\n    : b\n",
			[]string{`m.yaml:6:7: metadata.labels: a key must be a string, not a list`}},
		{"duplicate keys", deployHead + "spec:\n  replicas: 1\n  replicas: 2\n",
			[]string{`m.yaml:7:3: duplicate key "replicas" in spec (first at line 6)`}},
		{"duplicate label keys", deployHead + "  labels: {app: a, app: b}\n",
			[]string{`m.yaml:5:20: duplicate key "app" in metadata.labels (first at line 5)`}},
		{"duplicate keys inside a pass-through field", deployHead + "spec:\n  template:\n    spec:\n      affinity: {a: 1, a: 2}\n",
			[]string{`m.yaml:8:24: duplicate key "a" (first at line 8)`}},
		{"several problems at once", deployHead + "spec:\n  replicas: x\n  paused: 1\n  bogus: 2\n",
			[]string{`m.yaml:6:13: cannot decode a string into spec.replicas (an integer)`,
				`m.yaml:7:11: cannot decode the integer 1 into spec.paused (a boolean)`,
				`m.yaml:8:3: unknown field "bogus" in spec`}},
		{"a bad percent", deployHead + "spec:\n  strategy:\n    rollingUpdate: {maxSurge: 1.5}\n",
			[]string{`m.yaml:7:31: spec.strategy.rollingUpdate.maxSurge: must be an integer or a percent string such as "25%", got 1.5`}},
		{"a bad quantity", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    resources: {requests: {cpu: 1x}}\n",
			[]string{`m.yaml:7:33: spec.containers[0].resources.requests.cpu: ` + api.ErrFormatWrong}},
		{"a bad timestamp", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nstatus: {}\nspec:\n  tolerations:\n  - key: k\n    tolerationSeconds: x\n",
			[]string{`m.yaml:8:24: cannot decode a string into spec.tolerations[0].tolerationSeconds (an integer)`}},
		{"an infinity in a pass-through field", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  affinity: {x: .inf}\n",
			[]string{`m.yaml:5:17: invalid number ".inf": JSON has no infinities or NaN`}},
		{"a custom tag", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  affinity: !foo {x: 1}\n",
			[]string{`m.yaml:5:13: unsupported YAML tag !foo`}},
		{"not a mapping", "- a\n- b\n",
			[]string{`m.yaml:1:1: a manifest must be a mapping with apiVersion and kind, not a list`}},
		{"kind not set", "apiVersion: v1\nmetadata: {name: x}\n",
			[]string{`m.yaml:1:1: kind not set`}},
		{"apiVersion and kind not set", "metadata: {name: x}\n",
			[]string{`m.yaml:1:1: apiVersion not set`, `m.yaml:1:1: kind not set`}},
		{"empty kind", "apiVersion: v1\nkind: \"\"\n",
			[]string{`m.yaml:2:1: kind not set`}},
		{"kind is not a string", "apiVersion: v1\nkind: [Pod]\n",
			[]string{`m.yaml:2:7: cannot decode a list into kind (a string)`}},
		{"unknown kind", "apiVersion: v1\nkind: Foo\n",
			[]string{`m.yaml:2:7: no kind "Foo" is registered for version "v1"; Converge knows apps/v1 Deployment and ReplicaSet, v1 Pod, ConfigMap, Service, Node and ResourceQuota, autoscaling/v2 HorizontalPodAutoscaler, and policy/v1 PodDisruptionBudget`}},
		{"a kind in the wrong case", "apiVersion: apps/v1\nkind: deployment\n",
			[]string{`m.yaml:2:7: no kind "deployment" is registered for version "apps/v1"; did you mean "Deployment"?`}},
		{"a kind in the wrong version", "apiVersion: v1\nkind: Deployment\n",
			[]string{`m.yaml:1:13: no kind "Deployment" is registered for version "v1"; Deployment is in apps/v1: use apiVersion: apps/v1`}},
		{"extensions/v1beta1", "apiVersion: extensions/v1beta1\nkind: Deployment\n",
			[]string{`m.yaml:1:13: no kind "Deployment" is registered for version "extensions/v1beta1"; extensions/v1beta1 Deployments are no longer served since Kubernetes 1.16: use apiVersion: apps/v1`}},
		{"a YAML syntax error", deployHead + "spec:\n  replicas: [1,\n",
			[]string{`m.yaml:6:1: invalid YAML: did not find expected node content`}},
		{"an unknown anchor", deployHead + "spec:\n  replicas: *three\n",
			[]string{`m.yaml:6:13: invalid YAML: unknown anchor 'three' referenced`}},
		{"an alias that contains itself", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  affinity: &a {x: *a}\n",
			[]string{`m.yaml:5:20: alias *a refers to a node that contains it`}},
		{"a bad merge", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  <<: 3\n",
			[]string{`m.yaml:5:7: a merge key (<<) takes a mapping or a list of mappings`}},
		{"a List with an unknown field", "apiVersion: v1\nkind: List\nitem: []\n",
			[]string{`m.yaml:3:1: unknown field "item" in a List; did you mean "items"?`}},
		{"a List of the wrong shape", "apiVersion: v1\nkind: List\nitems: {a: b}\n",
			[]string{`m.yaml:3:8: cannot decode a mapping into items (a list)`}},
		{"a typed List with another kind", "apiVersion: apps/v1\nkind: DeploymentList\nitems:\n- {apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: r}}\n",
			[]string{`m.yaml:4:3: a DeploymentList holds only Deployments, not ReplicaSet`}},
		{"problems in several documents", "apiVersion: v1\nkind: Foo\n---\napiVersion: v1\nkind: Pod\nmetadata: {nam: p}\n",
			[]string{`m.yaml:2:7: no kind "Foo" is registered for version "v1"; Converge knows apps/v1 Deployment and ReplicaSet, v1 Pod, ConfigMap, Service, Node and ResourceQuota, autoscaling/v2 HorizontalPodAutoscaler, and policy/v1 PodDisruptionBudget`,
				`m.yaml:6:12: unknown field "nam" in metadata; did you mean "name"?`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			docs, probs := Decode([]byte(tc.in), "m.yaml")
			assert.Equal(t, tc.want, problemStrings(probs.Errors()))
			assert.Empty(t, docs, "an object with errors is not returned")
		})
	}
}

func TestDecodeAcceptsValidInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		check func(t *testing.T, docs []Doc)
	}{
		{"a Deployment", deployHead + "  labels: {app: web}\nspec:\n  replicas: 3\n  strategy: {rollingUpdate: {maxSurge: 25%, maxUnavailable: 0}}\n",
			func(t *testing.T, docs []Doc) {
				d := docs[0].Object.(*api.Deployment)
				assert.Equal(t, "web", d.Name)
				assert.Equal(t, "apps/v1", d.APIVersion)
				assert.Equal(t, int32(3), *d.Spec.Replicas)
				assert.Equal(t, api.FromString("25%"), *d.Spec.Strategy.RollingUpdate.MaxSurge)
				assert.Equal(t, api.FromInt(0), *d.Spec.Strategy.RollingUpdate.MaxUnavailable)
				assert.Equal(t, map[string]string{"app": "web"}, d.Labels)
			}},
		{"JSON with tabs", "{\n\t\"apiVersion\": \"v1\",\n\t\"kind\": \"ConfigMap\",\n\t\"metadata\": {\"name\": \"c\"},\n\t\"data\": {\"a\": \"1\"}\n}\n",
			func(t *testing.T, docs []Doc) {
				c := docs[0].Object.(*api.ConfigMap)
				assert.Equal(t, map[string]string{"a": "1"}, c.Data)
				assert.Equal(t, 1, docs[0].Line)
			}},
		{"several documents and empty ones", "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n---\n# only a comment\n---\napiVersion: v1\nkind: Service\nmetadata: {name: b}\nspec: {ports: [{port: 80, targetPort: http}]}\n",
			func(t *testing.T, docs []Doc) {
				require.Len(t, docs, 2)
				assert.Equal(t, "a", docs[0].Object.GetObjectMeta().Name)
				s := docs[1].Object.(*api.Service)
				assert.Equal(t, api.FromString("http"), *s.Spec.Ports[0].TargetPort)
				assert.Equal(t, 9, docs[1].Line)
			}},
		{"a List", "apiVersion: v1\nkind: List\nmetadata: {resourceVersion: \"\"}\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n- {apiVersion: v1, kind: Pod, metadata: {name: b}, spec: {containers: [{name: c, image: i}]}}\n",
			func(t *testing.T, docs []Doc) {
				require.Len(t, docs, 2)
				assert.Equal(t, api.KindPod, docs[1].Object.GetTypeMeta().Kind)
				assert.Equal(t, 6, docs[1].Line)
				assert.Equal(t, 3, docs[1].Col)
			}},
		{"a typed List", "apiVersion: v1\nkind: PodList\nitems:\n- {apiVersion: v1, kind: Pod, metadata: {name: b}}\n",
			func(t *testing.T, docs []Doc) { require.Len(t, docs, 1) }},
		{"an empty List", "apiVersion: v1\nkind: List\nitems: []\n",
			func(t *testing.T, docs []Doc) { assert.Empty(t, docs) }},
		{"anchors, aliases and merge keys", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels: &l {app: web, tier: fe}\n  annotations:\n    <<: *l\n    tier: be\ndata:\n  <<: [{a: \"1\"}, {a: \"2\", b: \"3\"}]\n",
			func(t *testing.T, docs []Doc) {
				c := docs[0].Object.(*api.ConfigMap)
				assert.Equal(t, map[string]string{"app": "web", "tier": "be"}, c.Annotations)
				assert.Equal(t, map[string]string{"a": "1", "b": "3"}, c.Data)
			}},
		{"null values and a null merge", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: ~}\ndata:\n  <<: ~\n  a:\n",
			func(t *testing.T, docs []Doc) {
				c := docs[0].Object.(*api.ConfigMap)
				assert.Nil(t, c.Labels)
				assert.Equal(t, map[string]string{"a": ""}, c.Data)
			}},
		{"pass-through fields keep their JSON", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, creationTimestamp: null}\nspec:\n  securityContext: {runAsUser: 1000, fsGroup: 0x10}\n  volumes: [{name: v, emptyDir: {}}]\n  containers: [{name: c, image: i, resources: {requests: {cpu: 0.5, memory: 64Mi}}}]\n",
			func(t *testing.T, docs []Doc) {
				p := docs[0].Object.(*api.Pod)
				assert.JSONEq(t, `{"fsGroup":16,"runAsUser":1000}`, string(p.Spec.SecurityContext))
				assert.JSONEq(t, `[{"emptyDir":{},"name":"v"}]`, string(p.Spec.Volumes))
				assert.Equal(t, "0.5", p.Spec.Containers[0].Resources.Requests[api.ResourceCPU].String())
				assert.Equal(t, int64(500), p.Spec.Containers[0].Resources.Requests[api.ResourceCPU].MilliValue())
			}},
		{"timestamps", "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nspec:\n  taints: [{key: k, effect: NoSchedule, timeAdded: 2026-01-01T00:00:10Z}]\n",
			func(t *testing.T, docs []Doc) {
				n := docs[0].Object.(*api.Node)
				assert.Equal(t, int64(10), n.Spec.Taints[0].TimeAdded.Unix()-api.Epoch.Unix())
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			docs, probs := Decode([]byte(tc.in), "m.yaml")
			require.Empty(t, probs.Errors())
			tc.check(t, docs)
		})
	}
}

// kubectlGetOutput is `kubectl get deployment web -o yaml` from a real
// cluster (1.34), trimmed of nothing.
const kubectlGetOutput = `apiVersion: apps/v1
kind: Deployment
metadata:
  annotations:
    deployment.kubernetes.io/revision: "2"
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"name":"web","namespace":"default"}}
  creationTimestamp: "2026-01-01T00:00:00Z"
  generation: 2
  name: web
  namespace: default
  resourceVersion: "1234"
  uid: 0b6c9f3e-5e0b-4c1c-9c5e-2f0f7c1d9a11
spec:
  progressDeadlineSeconds: 600
  replicas: 3
  revisionHistoryLimit: 10
  selector:
    matchLabels:
      app: web
  strategy:
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 25%
    type: RollingUpdate
  template:
    metadata:
      creationTimestamp: null
      labels:
        app: web
    spec:
      containers:
      - image: nginx:1.27
        imagePullPolicy: IfNotPresent
        name: web
        ports:
        - containerPort: 80
          protocol: TCP
        resources: {}
        terminationMessagePath: /dev/termination-log
        terminationMessagePolicy: File
      dnsPolicy: ClusterFirst
      restartPolicy: Always
      schedulerName: default-scheduler
      securityContext: {}
      terminationGracePeriodSeconds: 30
status:
  availableReplicas: 3
  conditions:
  - lastTransitionTime: "2026-01-01T00:00:05Z"
    lastUpdateTime: "2026-01-01T00:00:05Z"
    message: Deployment has minimum availability.
    reason: MinimumReplicasAvailable
    status: "True"
    type: Available
  observedGeneration: 2
  readyReplicas: 3
  replicas: 3
  updatedReplicas: 3
`

func TestDecodeAcceptsKubectlGetOutputWithNotes(t *testing.T) {
	t.Parallel()
	docs, probs := Decode([]byte(kubectlGetOutput), "get.yaml")
	assert.Equal(t, []string{
		`get.yaml:5:5: note: dropped server-set field metadata.annotations["deployment.kubernetes.io/revision"]`,
		`get.yaml:6:5: note: dropped server-set field metadata.annotations["kubectl.kubernetes.io/last-applied-configuration"]`,
		`get.yaml:8:3: note: dropped server-set field metadata.creationTimestamp`,
		`get.yaml:9:3: note: dropped server-set field metadata.generation`,
		`get.yaml:12:3: note: dropped server-set field metadata.resourceVersion`,
		`get.yaml:13:3: note: dropped server-set field metadata.uid`,
		`get.yaml:47:1: note: dropped server-set field status`,
	}, problemStrings(probs))
	require.Len(t, docs, 1)
	d := docs[0].Object.(*api.Deployment)
	assert.Empty(t, d.UID)
	assert.Empty(t, d.ResourceVersion)
	assert.Nil(t, d.Annotations)
	assert.Zero(t, d.Status.Replicas)
	assert.Equal(t, "nginx:1.27", d.Spec.Template.Spec.Containers[0].Image)
	assert.Equal(t, Position{Line: 33, Col: 9}, docs[0].Positions.Lookup("spec.template.spec.containers[0].image"))
}

func TestDecodeIgnoresUnsimulatedKubernetesFieldsWithANote(t *testing.T) {
	t.Parallel()
	in := "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  hostAliases: [{ip: 1.2.3.4}]\n  containers:\n  - name: c\n    stdinOnce: true\n"
	docs, probs := Decode([]byte(in), "p.yaml")
	require.Len(t, docs, 1)
	assert.Equal(t, []string{
		"p.yaml:5:3: note: ignored field spec.hostAliases: Converge does not simulate it",
		"p.yaml:8:5: note: ignored field spec.containers[0].stdinOnce: Converge does not simulate it",
	}, problemStrings(probs))
}

func TestDecodeDropsEmptyServerSetFieldsSilently(t *testing.T) {
	t.Parallel()
	// kubectl create --dry-run=client -o yaml prints these.
	in := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  creationTimestamp: null\n  name: c\n  annotations: {}\nstatus: {}\n"
	docs, probs := Decode([]byte(in), "c.yaml")
	require.Len(t, docs, 1)
	assert.Empty(t, probs)
}

func TestDecodeRefusesAliasBombs(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i < 9; i++ {
		b.WriteString("x" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [")
		for j := range 9 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + string(rune('0'+i-1)))
		}
		b.WriteString("]\n")
	}
	docs, probs := Decode([]byte(b.String()), "bomb.yaml")
	assert.Empty(t, docs)
	// *a0 stands for 47 bytes (nine "lol" and their punctuation), *a1 for
	// 425, ... *a5 for 2,790,065. The aliases of x1..x5 add 3,138,759
	// bytes, within the 4,193,767 the file leaves; the first alias of x6
	// (line 10) adds 2,790,065 more.
	assert.Equal(t, []string{"bomb.yaml:10:10: excessive aliasing: alias *a5 expands the document beyond 4 MiB, the limit of a file " +
		"(the file has 537 bytes; its aliases up to here add 5,928,824)"}, problemStrings(probs))
}

func TestDecodeObjects(t *testing.T) {
	t.Parallel()
	objs, err := DecodeObjects([]byte(kubectlGetOutput+"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"), "f.yaml")
	require.NoError(t, err, "notes are not errors")
	require.Len(t, objs, 2)
	assert.Equal(t, "c", objs[1].GetObjectMeta().Name)

	_, err = DecodeObjects([]byte("apiVersion: v1\nkind: Foo\n"), "-")
	require.Error(t, err)
	assert.Equal(t, `-:2:7: no kind "Foo" is registered for version "v1"; Converge knows apps/v1 Deployment and ReplicaSet, v1 Pod, ConfigMap, Service, Node and ResourceQuota, autoscaling/v2 HorizontalPodAutoscaler, and policy/v1 PodDisruptionBudget`, err.Error())
}

func TestDecodeNodes(t *testing.T) {
	t.Parallel()
	nodes, probs := ParseDocuments([]byte("objects:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n- apiVersion: v1\n  kind: List\n  items: []\n"), "s.yaml")
	require.Empty(t, probs)
	objects := nodes[0].Content[0].Content[1]

	ds, probs := DecodeNodes(objects.Content[0], "s.yaml")
	require.Empty(t, probs)
	require.Len(t, ds, 1)
	doc := ds[0]
	assert.Equal(t, 2, doc.Line)
	assert.Equal(t, 3, doc.Col)
	assert.Equal(t, "s.yaml", doc.File)
	assert.Equal(t, Position{Line: 4, Col: 14}, doc.Positions.Lookup("metadata.name"))
	assert.Equal(t, Position{Line: 4, Col: 3}, doc.Positions.Lookup("metadata"))

	docs, probs := DecodeNodes(objects.Content[1], "s.yaml")
	assert.Empty(t, probs)
	assert.Empty(t, docs)
}

func TestDecodeIntoScalarsAndNodes(t *testing.T) {
	t.Parallel()
	type target struct {
		Seed   uint64  `json:"seed"`
		Small  uint8   `json:"small"`
		Ratio  float64 `json:"ratio"`
		Any    any     `json:"any"`
		Name   string
		Inline `json:",inline"`
		Skip   string `json:"-"`
	}
	nodes, probs := ParseDocuments([]byte("seed: 18446744073709551615\nsmall: 7\nratio: 2\nany: {a: [1, x]}\nName: n\nembedded: e\nSkip: x\n"), "t.yaml")
	require.Empty(t, probs)
	var v target
	_, probs = DecodeInto(nodes[0], &v, "t.yaml")
	assert.Equal(t, []string{`t.yaml:7:1: unknown field "Skip"`}, problemStrings(probs))
	assert.Equal(t, uint64(18446744073709551615), v.Seed)
	assert.Equal(t, uint8(7), v.Small)
	assert.Equal(t, 2.0, v.Ratio)
	assert.Equal(t, map[string]any{"a": []any{1.0, "x"}}, v.Any)
	assert.Equal(t, "n", v.Name)
	assert.Equal(t, "e", v.Embedded)

	nodes, _ = ParseDocuments([]byte("seed: -1\nsmall: 300\nratio: x\nany: .nan\n"), "t.yaml")
	_, probs = DecodeInto(nodes[0], &v, "t.yaml")
	assert.Equal(t, []string{
		`t.yaml:1:7: cannot decode -1 into seed (a non-negative integer)`,
		`t.yaml:2:8: cannot decode 300 into small: out of range for a 8-bit unsigned integer`,
		`t.yaml:3:8: cannot decode a string into ratio (a number)`,
		`t.yaml:4:6: invalid number ".nan": JSON has no infinities or NaN`,
	}, problemStrings(probs))

	_, probs = DecodeInto(nodes[0], v, "t.yaml")
	assert.Equal(t, []string{"t.yaml:1:1: internal error: DecodeInto needs a non-nil pointer, not manifest.target"}, problemStrings(probs))
}

// Inline is embedded in a test target.
type Inline struct {
	Embedded string `json:"embedded"`
}

// TestEncodingErrorsAreAtTheirPosition: a control character or a byte that
// is not UTF-8 is reported where it is (the YAML parser's message has no
// position), with the character or byte it found.
func TestEncodingErrorsAreAtTheirPosition(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"a control character", "name: x\ntitle: a\x07b\n", "m.yaml:2:9: invalid YAML: control characters are not allowed (found U+0007)"},
		{"a NUL", "a: 1\nb: x\x00\n", "m.yaml:2:5: invalid YAML: control characters are not allowed (found U+0000)"},
		{"lines ended by CR", "a: 1\rb: 2\r\nc: x\x07\n", "m.yaml:3:5: invalid YAML: control characters are not allowed (found U+0007)"},
		{"after multi-byte characters", "title: ééé\x01\n", "m.yaml:1:11: invalid YAML: control characters are not allowed (found U+0001)"},
		{"after a byte order mark", "\xef\xbb\xbfname: x\ntitle: \x01\n", "m.yaml:2:8: invalid YAML: control characters are not allowed (found U+0001)"},
		{"a byte that is not UTF-8", "name: x\ndescription: bad \xff byte\n", "m.yaml:2:18: invalid YAML: invalid leading UTF-8 octet (found byte 0xff; a file must be UTF-8)"},
		{"Latin-1 text", "name: x\ntitle: \"\xe9t\xe9\"\n", "m.yaml:2:9: invalid YAML: invalid trailing UTF-8 octet (found byte 0xe9; a file must be UTF-8)"},
		{"a sequence cut short at the end", "a: b\xe2\x82", "m.yaml:1:5: invalid YAML: incomplete UTF-8 octet sequence (found byte 0xe2; a file must be UTF-8)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, probs := ParseDocuments([]byte(tc.in), "m.yaml")
			assert.Equal(t, []string{tc.want}, problemStrings(probs))
		})
	}
}
