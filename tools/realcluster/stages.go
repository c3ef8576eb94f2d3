package realcluster

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"converge/core/api"
	"converge/core/imageref"
	"converge/core/scenario"
)

// kwok moves pods through stages (sigs.k8s.io/kwok's Stage resources); its
// own "fast" stages make a pod Running and Ready at once and delete a
// deleted pod at once. The replay's stages give each pod its scenario
// image's behaviour where a stage can express it (docs/fidelity.md, "Replays
// on a real control plane"):
//
//   - a healthy image: Running and Ready pullSeconds + startSeconds +
//     readySeconds after the pod is bound (kwok's pod-ready, delayed);
//   - neverReady: Running, never Ready;
//   - pullFail: Pending, its container waiting with ImagePullBackOff, with
//     its sandbox's conditions and IPs as a kubelet sets them (an image
//     that cannot be parsed, InvalidImageName, alike);
//   - a deleted pod goes after shutdownSeconds (at least one second, as
//     Converge's kubelet stops a container that exits on SIGTERM within the
//     second it is told), kwok's pod-delete, delayed.
//
// Crashes, hangs, probes that start failing or flap, and pulls that fail a
// number of times have no stage here: such a scenario is not replayed
// (Unreplayable says why).

// Stages returns the kwok stage configuration for scn: kwok's own node
// stages (from kwokSrc, the sigs.k8s.io/kwok module directory) and the pod
// stages above.
//
// readyAfter, when not nil, gives an image's delay from a pod's creation to
// its readiness as Converge's kubelet made it (ReadyDelays), which takes
// the pod's probes into account; an image without one gets pullSeconds +
// startSeconds + readySeconds.
func Stages(scn *scenario.Scenario, kwokSrc string, readyAfter map[string]int64) ([]byte, error) {
	var parts []string
	for _, f := range []string{"node/fast/node-initialize.yaml", "node/heartbeat-with-lease/node-heartbeat-with-lease.yaml", "pod/fast/pod-complete.yaml"} {
		b, err := os.ReadFile(filepath.Join(kwokSrc, "kustomize", "stage", f))
		if err != nil {
			return nil, fmt.Errorf("kwok's stages: %w", err)
		}
		parts = append(parts, strings.TrimRight(string(b), "\n")+"\n")
	}
	ready, err := os.ReadFile(filepath.Join(kwokSrc, "kustomize", "stage", "pod", "fast", "pod-ready.yaml"))
	if err != nil {
		return nil, fmt.Errorf("kwok's stages: %w", err)
	}
	var never, fail, invalid []string
	for _, im := range scenarioImages(scn) {
		spec := scn.Cluster.Image(im)
		_, badRef := imageref.ApplyDefaultTag(im)
		switch {
		case badRef != nil:
			// kwok takes any image; the kubelet refuses a reference it
			// cannot parse (InvalidImageName).
			invalid = append(invalid, im)
		case spec.PullFail:
			fail = append(fail, im)
		case spec.NeverReady:
			never = append(never, im)
		}
	}
	parts = append(parts, podReady(string(ready), scn, readyAfter, append(append(append([]string(nil), never...), fail...), invalid...)))
	if len(invalid) > 0 {
		parts = append(parts, invalidImageStage(invalid))
	}
	if len(never) > 0 {
		parts = append(parts, neverReadyStage(never))
	}
	if len(fail) > 0 {
		parts = append(parts, pullFailStage(fail))
	}
	parts = append(parts, podDelete(scn))
	return []byte(strings.Join(parts, "---\n")), nil
}

// podReady is kwok's pod-ready stage, delayed by each image's pull, start
// and ready seconds, and not for the images in except.
func podReady(src string, scn *scenario.Scenario, readyAfter map[string]int64, except []string) string {
	expr := delayExprBy(scn, func(name string, im scenario.ImageSpec) int32 {
		if d, ok := readyAfter[name]; ok {
			return int32(d)
		}
		return im.PullSeconds + im.StartSeconds + im.ReadySeconds
	})
	var b strings.Builder
	done := false
	for _, l := range strings.SplitAfter(src, "\n") {
		if !done && strings.HasPrefix(l, "  next:") {
			if len(except) > 0 {
				b.WriteString(notIn(except))
			}
			b.WriteString("  delay:\n    durationMilliseconds: 0\n    durationFrom:\n      expressionFrom: " + yamlQuote(expr) + "\n")
			done = true
		}
		b.WriteString(l)
	}
	return b.String()
}

func notIn(images []string) string {
	s := "    - key: '.spec.containers.[0].image'\n      operator: 'NotIn'\n      values:\n"
	for _, im := range images {
		s += "      - " + yamlQuote(im) + "\n"
	}
	return s
}

func in(images []string) string {
	s := "    - key: '.spec.containers.[0].image'\n      operator: 'In'\n      values:\n"
	for _, im := range images {
		s += "      - " + yamlQuote(im) + "\n"
	}
	return s
}

// delayExpr is a jq expression over a pod giving its delay ("3s") by its
// first container's image.
func delayExpr(scn *scenario.Scenario, secs func(scenario.ImageSpec) int32) string {
	return delayExprBy(scn, func(_ string, im scenario.ImageSpec) int32 { return secs(im) })
}

func delayExprBy(scn *scenario.Scenario, secs func(string, scenario.ImageSpec) int32) string {
	def := secs("", scenario.DefaultImage())
	expr := ""
	for _, im := range scenarioImages(scn) {
		s := secs(im, scn.Cluster.Image(im))
		if s == def {
			continue
		}
		if expr == "" {
			expr = "if "
		} else {
			expr += " elif "
		}
		expr += ".spec.containers[0].image == " + strconv.Quote(im) + " then " + strconv.Quote(strconv.Itoa(int(s))+"s")
	}
	d := strconv.Quote(strconv.Itoa(int(def)) + "s")
	if expr == "" {
		return d
	}
	return expr + " else " + d + " end"
}

func neverReadyStage(images []string) string {
	return `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-never-ready
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.phase'
      operator: 'In'
      values:
      - 'Pending'
` + in(images) + `  next:
    statusTemplate: |
      {{ $now := Now }}
      conditions:
      - lastTransitionTime: {{ $now | Quote }}
        status: "True"
        type: Initialized
      - lastTransitionTime: {{ $now | Quote }}
        status: "False"
        reason: ContainersNotReady
        type: Ready
      - lastTransitionTime: {{ $now | Quote }}
        status: "False"
        reason: ContainersNotReady
        type: ContainersReady
      containerStatuses:
      {{ range .spec.containers }}
      - image: {{ .image | Quote }}
        name: {{ .name | Quote }}
        ready: false
        started: true
        restartCount: 0
        state:
          running:
            startedAt: {{ $now | Quote }}
      {{ end }}
      phase: Running
      startTime: {{ $now | Quote }}
`
}

// invalidImageStage: a pod whose image reference does not parse waits in
// InvalidImageName with the kubelet's message (Failed to apply default
// image tag ...).
func invalidImageStage(images []string) string {
	st := strings.Replace(pullFailStage(images), "name: pod-pull-fail", "name: pod-invalid-image", 1)
	st = strings.Replace(st, "reason: ImagePullBackOff", "reason: InvalidImageName", 1)
	st = strings.Replace(st, "durationMilliseconds: 2000", "durationMilliseconds: 0", 1)
	var msg strings.Builder
	msg.WriteString("message: {{ $m := \"\" }}")
	for _, im := range images {
		_, err := imageref.ApplyDefaultTag(im)
		fmt.Fprintf(&msg, "{{ if eq .image %s }}{{ $m = %s }}{{ end }}", strconv.Quote(im), strconv.Quote(fmt.Sprintf("Failed to apply default image tag %q: %v", im, err)))
	}
	msg.WriteString("{{ $m | Quote }}")
	return strings.Replace(st, `message: {{ printf "Back-off pulling image %q" .image | Quote }}`, msg.String(), 1)
}

func pullFailStage(images []string) string {
	return `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-pull-fail
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.phase'
      operator: 'In'
      values:
      - 'Pending'
    - key: '.status.containerStatuses'
      operator: 'DoesNotExist'
` + in(images) + `  delay:
    durationMilliseconds: 2000
  next:
    statusTemplate: |
      {{ $now := Now }}
      conditions:
      - lastTransitionTime: {{ $now | Quote }}
        status: "True"
        type: PodReadyToStartContainers
      - lastTransitionTime: {{ $now | Quote }}
        status: "True"
        type: Initialized
      - lastTransitionTime: {{ $now | Quote }}
        status: "False"
        reason: ContainersNotReady
        type: Ready
      - lastTransitionTime: {{ $now | Quote }}
        status: "False"
        reason: ContainersNotReady
        type: ContainersReady
      containerStatuses:
      {{ range .spec.containers }}
      - image: {{ .image | Quote }}
        name: {{ .name | Quote }}
        ready: false
        restartCount: 0
        state:
          waiting:
            reason: ImagePullBackOff
            message: {{ printf "Back-off pulling image %q" .image | Quote }}
      {{ end }}
      {{ $hostIPs := NodeIPsWith .spec.nodeName }}
      {{ with $hostIPs }}
      hostIP: {{ index . 0 | Quote }}
      hostIPs:
      {{ range . }}
      - ip: {{ . | Quote }}
      {{ end }}
      {{ end }}
      {{ $podIPs := PodIPsWith .spec.nodeName ( or .spec.hostNetwork false ) ( or .metadata.uid "" ) ( or .metadata.name "" ) ( or .metadata.namespace "" ) }}
      {{ with $podIPs }}
      podIP: {{ index . 0 | Quote }}
      podIPs:
      {{ range . }}
      - ip: {{ . | Quote }}
      {{ end }}
      {{ end }}
      phase: Pending
      startTime: {{ $now | Quote }}
`
}

// podDelete is kwok's pod-delete stage, after each image's shutdown time
// (at least a second).
func podDelete(scn *scenario.Scenario) string {
	expr := delayExpr(scn, func(im scenario.ImageSpec) int32 { return max(1, min(im.ShutdownSeconds, 30)) })
	return `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-delete
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'Exists'
  delay:
    durationMilliseconds: 1000
    durationFrom:
      expressionFrom: ` + yamlQuote(expr) + `
  next:
    delete: true
`
}

func yamlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// Unreplayable says why the cluster cannot replay scn, or "" when it can:
// what a scenario does that kwok's stages or a control plane without
// kubelets and metrics cannot do.
func Unreplayable(scn *scenario.Scenario) string {
	var why []string
	add := func(s string) {
		for _, w := range why {
			if w == s {
				return
			}
		}
		why = append(why, s)
	}
	for _, im := range scenarioImages(scn) {
		s := scn.Cluster.Image(im)
		switch {
		case s.CrashAfterSeconds > 0:
			add("image " + im + " crashes (no kwok stage restarts a container)")
		case s.LivenessFailAfterSeconds > 0:
			add("image " + im + " hangs (no liveness probe runs on kwok)")
		case s.UnreadyAfterSeconds > 0 || s.ReadinessFlapSeconds > 0:
			add("image " + im + "'s readiness changes while it runs (no readiness probe runs on kwok)")
		case s.PullFailures > 0:
			add("image " + im + " fails its first pulls (no kwok stage counts pulls)")
		}
	}
	for _, spec := range podSpecs(scn) {
		for _, c := range spec.Containers {
			switch {
			case c.StartupProbe != nil:
				add("a startup probe (kwok's pods are started at once: no probe holds them back)")
			case c.LivenessProbe != nil && livenessFailsAtStart(c.LivenessProbe, scn.Cluster.Image(c.Image)):
				add("a liveness probe that fails while image " + c.Image + " starts (no probe runs on kwok to restart it)")
			}
		}
	}
	for _, st := range scn.Steps {
		switch {
		case st.Expect != nil && stoppedContainer(st.Expect):
			add("expects on a stopped container (its exit code, reason, or the pod Succeeded or Failed): kwok deletes a deleted pod after its shutdown seconds and stops no container")
		case st.Fault != nil:
			add("fault " + st.Fault.String() + " (no kubelet or container to stop on kwok)")
		case st.Load != nil:
			add("load steps (kwok serves no metrics for the HPA)")
		case len(st.Commit) > 0:
			add("GitOps commits (Converge's reconciler)")
		}
	}
	for _, d := range scn.Objects {
		if d.Object != nil && d.Object.GetTypeMeta().Kind == api.KindHorizontalPodAutoscaler {
			add("a HorizontalPodAutoscaler (kwok serves no metrics)")
		}
	}
	if scn.Cluster.GitOps != nil {
		add("a GitOps reconciler (Converge's own)")
	}
	return strings.Join(why, "; ")
}

// livenessFailsAtStart says whether a liveness probe fails failureThreshold
// times before the image answers (readySeconds after it starts), so that
// Converge's kubelet restarts the container (startup-probe's "eager").
func livenessFailsAtStart(p *api.Probe, im scenario.ImageSpec) bool {
	period, threshold := p.PeriodSeconds, p.FailureThreshold
	if period == 0 {
		period = 10
	}
	if threshold == 0 {
		threshold = 3
	}
	return im.ReadySeconds > p.InitialDelaySeconds+period*(threshold-1)
}

// stoppedContainer says whether an expect reads what only a kubelet that
// stops containers writes: a container's terminated state or last state, or
// a pod's phase Succeeded or Failed.
func stoppedContainer(e *scenario.Expect) bool {
	if e.Kind != api.KindPod {
		return false
	}
	path := e.Path.String()
	if strings.Contains(path, ".terminated") || strings.Contains(path, ".lastState") {
		return true
	}
	v, _ := e.Value.(string)
	return path == ".status.phase" && (v == api.PodSucceeded || v == api.PodFailed)
}

// podSpecs are the pod specs of scn's objects and apply steps (the
// templates of Deployments and ReplicaSets, and pods).
func podSpecs(scn *scenario.Scenario) []*api.PodSpec {
	var objs []api.Object
	for _, d := range scn.Objects {
		objs = append(objs, d.Object)
	}
	for _, st := range scn.Steps {
		for _, d := range st.Apply {
			objs = append(objs, d.Object)
		}
	}
	var out []*api.PodSpec
	for _, o := range objs {
		switch x := o.(type) {
		case *api.Deployment:
			out = append(out, &x.Spec.Template.Spec)
		case *api.ReplicaSet:
			out = append(out, &x.Spec.Template.Spec)
		case *api.Pod:
			out = append(out, &x.Spec)
		}
	}
	return out
}

// scenarioImages are the images of scn's objects, apply steps and
// `set image` steps and the images its cluster lists, sorted.
func scenarioImages(scn *scenario.Scenario) []string {
	seen := map[string]bool{}
	for _, im := range scn.Cluster.ImageNames() {
		seen[im] = true
	}
	for _, st := range scn.Steps {
		if f := strings.Fields(st.Kubectl); len(f) > 2 && f[0] == "set" && f[1] == "image" {
			for _, a := range f[2:] {
				if _, im, ok := strings.Cut(a, "="); ok && im != "" {
					seen[im] = true
				}
			}
		}
	}
	for _, spec := range podSpecs(scn) {
		for _, c := range spec.Containers {
			seen[c.Image] = true
		}
	}
	out := make([]string, 0, len(seen))
	for im := range seen {
		out = append(out, im)
	}
	sort.Strings(out)
	return out
}

// Nodes are scn's nodes as the replay script names them: the i-th is
// converge-worker, converge-worker2, ... (export's kind workers).
func Nodes(scn *scenario.Scenario) []Node {
	out := make([]Node, len(scn.Cluster.Nodes))
	for i, n := range scn.Cluster.Nodes {
		name := "converge-worker"
		if i > 0 {
			name += strconv.Itoa(i + 1)
		}
		out[i] = Node{Name: name, CPU: n.CPU, Memory: n.Memory, Pods: n.Pods}
	}
	return out
}

// DefaultStages are the stages of a scenario with the default images.
func DefaultStages(kwokSrc string) ([]byte, error) {
	return Stages(&scenario.Scenario{Cluster: scenario.DefaultCluster()}, kwokSrc, nil)
}

// ReadyDelays measures, in Converge's trace, how long each image's pods
// take from their creation to Ready: the median over the pods that get
// ready, by their first container's image.
func ReadyDelays(trace io.Reader) (map[string]int64, error) {
	frames, err := decodeFrames(trace)
	if err != nil {
		return nil, err
	}
	created := map[string]int64{}
	image := map[string]string{}
	done := map[string]bool{}
	delays := map[string][]int64{}
	for _, f := range frames {
		for _, p := range f.pods {
			name := str(p, "metadata", "name")
			if _, ok := created[name]; !ok {
				created[name] = f.t
				spec, _ := p["spec"].(map[string]any)
				cs, _ := spec["containers"].([]any)
				if len(cs) > 0 {
					image[name] = str(cs[0], "image")
				}
			}
			if done[name] || condition(p, "Ready", "status") != "True" {
				continue
			}
			done[name] = true
			delays[image[name]] = append(delays[image[name]], f.t-created[name])
		}
	}
	out := map[string]int64{}
	for im, ds := range delays {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		out[im] = ds[len(ds)/2]
	}
	return out, nil
}
