package kubelet

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"

	"converge/core/imageref"
)

// Component is the kubelets' name, the one their events and sync records
// carry (sim.TickOrder lists every component's).
const Component = "kubelet"

// Event reasons, as pkg/kubelet/events names them.
const (
	ReasonPulling           = "Pulling"
	ReasonPulled            = "Pulled"
	ReasonFailed            = "Failed"
	ReasonBackOff           = "BackOff"
	ReasonCreated           = "Created"
	ReasonStarted           = "Started"
	ReasonKilling           = "Killing"
	ReasonUnhealthy         = "Unhealthy"
	ReasonInspectFailed     = "InspectFailed"
	ReasonFailedPreStopHook = "FailedPreStopHook"
	ReasonNeverPull         = "ErrImageNeverPull"
	ReasonNodeReady         = "NodeReady"
	ReasonSandboxFailed     = "FailedCreatePodSandBox"
	ReasonKubeletReady      = "KubeletReady"
	messageKubeletReady     = "kubelet is posting ready status"
	reasonContainersNotRdy  = "ContainersNotReady"
	reasonPodCompleted      = "PodCompleted"
)

// Container waiting and terminated reasons.
const (
	WaitingContainerCreating = "ContainerCreating"
	WaitingErrImagePull      = "ErrImagePull"
	WaitingImagePullBackOff  = "ImagePullBackOff"
	WaitingErrImageNeverPull = "ErrImageNeverPull"
	WaitingCrashLoopBackOff  = "CrashLoopBackOff"
	WaitingInvalidImageName  = "InvalidImageName"
	TerminatedError          = "Error"
	TerminatedCompleted      = "Completed"
)

// The texts below are the kubelet's own (pkg/kubelet/images/image_manager.go,
// pkg/kubelet/kuberuntime/kuberuntime_container.go and kuberuntime_manager.go,
// Kubernetes 1.35 and later: "Container created"/"Container started" without
// the container name since kubernetes/kubernetes#134043, and the
// KubeletEnsureSecretPulledImages wording of "already present", beta and on by
// default since 1.35).

func msgPulling(image string) string { return fmt.Sprintf("Pulling image %q", image) }

func msgPulled(image string, took, waited time.Duration, size int64) string {
	return fmt.Sprintf("Successfully pulled image %q in %v (%v including waiting). Image size: %d bytes.", image, took, waited, size)
}

func msgPresent(image string) string {
	return fmt.Sprintf("Container image %q already present on machine and can be accessed by the pod", image)
}

func msgNeverPull(image string) string {
	return fmt.Sprintf("Container image %q is not present with pull policy of Never", image)
}

func msgPullFailed(image, err string) string {
	return fmt.Sprintf("Failed to pull image %q: %s", image, err)
}

func msgPullBackOff(image string) string { return fmt.Sprintf("Back-off pulling image %q", image) }

// pullError is what containerd answers for an image that cannot be pulled.
func pullError(image string) string {
	ref := normalizeImage(image)
	return fmt.Sprintf("failed to pull and unpack image %q: failed to resolve reference %q: %s: not found", ref, ref, ref)
}

// pullTimeoutError is what containerd answers when the registry does not
// (one of an image's pullFailures): the manifest request times out.
func pullTimeoutError(image string) string {
	r, err := imageref.ParseNormalizedNamed(image)
	if err != nil {
		return ""
	}
	r = r.TagNameOnly()
	ref, host, object := r.String(), r.Domain, r.Tag
	if host == "docker.io" {
		host = "registry-1.docker.io"
	}
	if r.Digest != "" {
		object = r.Digest
	}
	return fmt.Sprintf("failed to pull and unpack image %q: failed to resolve reference %q: failed to do request: Head %q: dial tcp: lookup %s: i/o timeout",
		ref, ref, "https://"+host+"/v2/"+r.Path+"/manifests/"+object, hostOnly(host))
}

// hostOnly drops the port of a registry host.
func hostOnly(host string) string {
	if strings.HasPrefix(host, "[") {
		if i := strings.IndexByte(host, ']'); i > 0 {
			return host[:i+1]
		}
	}
	if i := strings.LastIndexByte(host, ':'); i > 0 {
		return host[:i]
	}
	return host
}

// invalidImageMessage is the image manager's message for an image reference
// it cannot parse (EnsureImageExists: the InspectFailed event and the
// InvalidImageName waiting message), or "" for a valid one.
func invalidImageMessage(image string) string {
	if _, err := imageref.ApplyDefaultTag(image); err != nil {
		return fmt.Sprintf("Failed to apply default image tag %q: %v", image, err)
	}
	return ""
}

// msgPreStopHookFailed is the FailedPreStopHook event's message: the kubelet
// leaves the hook's error out of it, lest secrets leak.
const msgPreStopHookFailed = "PreStopHook failed"

const (
	msgCreated = "Container created"
	msgStarted = "Container started"
)

func msgKilling(container string) string { return "Stopping container " + container }

// formatPod is kubelet's format.Pod: name_namespace(uid).
func formatPod(name, namespace, uid string) string { return name + "_" + namespace + "(" + uid + ")" }

func msgCrashBackOffEvent(container, pod string) string {
	return fmt.Sprintf("Back-off restarting failed container %s in pod %s", container, pod)
}

func msgCrashBackOffWaiting(backoff time.Duration, container, pod string) string {
	return fmt.Sprintf("back-off %v restarting failed container=%s pod=%s", backoff, container, pod)
}

func msgNodeReady(node string) string {
	return fmt.Sprintf("Node %s status is now: %s", node, ReasonNodeReady)
}

func msgNoIPs(node string, index int) string {
	n := nodeSubnet(index)
	return fmt.Sprintf("Failed to create pod sandbox: plugin type=\"host-local\" failed (add): failed to allocate for range 0: no IP addresses available in range set: %s.1-%s.254 (node %s)", n, n, node)
}

func msgUnready(names []string) string {
	return "containers with unready status: [" + strings.Join(names, " ") + "]"
}

// normalizeImage returns the fully qualified reference containerd reports:
// nginx:1.25 is docker.io/library/nginx:1.25, an untagged image gets :latest.
func normalizeImage(image string) string { return imageref.Normalize(image) }

// imageID is the deterministic digest reference of an image:
// docker.io/library/nginx@sha256:...
func imageID(image string) string {
	r, err := imageref.ParseNormalizedNamed(image)
	if err != nil {
		return image + "@sha256:" + hex64("image/"+image) // never shown: the container does not start
	}
	if r.Digest != "" {
		return r.Name() + "@" + r.Digest
	}
	return r.Name() + "@sha256:" + hex64("image/"+r.TagNameOnly().String())
}

// imageSize is a deterministic size between 5 MB and 200 MB.
func imageSize(image string) int64 {
	h := fnv.New64a()
	h.Write([]byte(image))
	return 5_000_000 + int64(h.Sum64()%195_000_000)
}

// hex64 returns 64 hex digits derived from s (a fake digest or container id).
func hex64(s string) string {
	sum := sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func containerID(podUID, container string, attempt int32) string {
	return "containerd://" + hex64(podUID+"/"+container+"/"+strconv.Itoa(int(attempt)))
}
