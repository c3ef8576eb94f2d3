package scenario

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/manifest"
	"converge/core/store"
)

// cluster reads cluster: nodes, timings and images, with their defaults.
func (p *parser) cluster(rc *rawCluster) Cluster {
	c := DefaultCluster()
	if rc == nil {
		return c
	}
	if rc.Nodes != nil {
		c.Nodes = p.nodeSpecs(rc.Nodes)
	}
	if t := rc.Timings; t != nil {
		if t.NodeMonitorGracePeriod != nil {
			if d, ok := p.duration(t.NodeMonitorGracePeriod, "cluster.timings.nodeMonitorGracePeriod", false); ok {
				c.Timings.NodeMonitorGracePeriod = d
			}
		}
		if t.PodEvictionTimeout != nil {
			if d, ok := p.duration(t.PodEvictionTimeout, "cluster.timings.podEvictionTimeout", false); ok {
				c.Timings.PodEvictionTimeout = d
			}
		}
		if t.NodeMonitorPeriod != nil {
			if d, ok := p.duration(t.NodeMonitorPeriod, "cluster.timings.nodeMonitorPeriod", false); ok {
				c.Timings.NodeMonitorPeriod = d
			}
		}
		if t.EventTTL != nil {
			if d, ok := p.duration(t.EventTTL, "cluster.timings.eventTTL", false); ok {
				c.Timings.EventTTL = d
			}
		}
	}
	c.GitOps = p.gitops(rc.GitOps)
	if len(rc.Images) > 0 {
		c.Images = map[string]ImageSpec{}
		probe := Cluster{Images: map[string]ImageSpec{}}
		for name := range rc.Images {
			probe.Images[name] = ImageSpec{}
		}
		for _, name := range probe.ImageNames() {
			if spec, ok := p.image(name, rc.Images[name]); ok {
				c.Images[name] = spec
			}
		}
	}
	return c
}

func (p *parser) nodeSpecs(raw []rawNode) []NodeSpec {
	if len(raw) == 0 {
		p.problem(p.pos.LookupValue("cluster.nodes"), "cluster.nodes: a cluster needs at least one node")
		return nil
	}
	if len(raw) > store.MaxNodes {
		p.problem(p.pos.Lookup("cluster.nodes"), "cluster.nodes: too many nodes: %d (the limit is %d)", len(raw), store.MaxNodes)
		return nil
	}
	var out []NodeSpec
	first := map[string]manifest.Position{}
	for i, rn := range raw {
		path := fmt.Sprintf("cluster.nodes[%d]", i)
		name, ok := p.name(rn.Name, path)
		if !ok {
			continue
		}
		if at, dup := first[name]; dup {
			p.problem(nodePos(rn.Name), "%s.name: duplicate node name %q (first at line %d)", path, name, at.Line)
			continue
		}
		first[name] = nodePos(rn.Name)
		spec := NodeSpec{Name: name, CPU: DefaultNodeCPU, Memory: DefaultNodeMemory, Pods: DefaultNodePods}
		if rn.CPU != nil {
			spec.CPU = p.capacity(*rn.CPU, path+".cpu")
		}
		if rn.Memory != nil {
			spec.Memory = p.capacity(*rn.Memory, path+".memory")
		}
		if rn.Pods != nil {
			if *rn.Pods < 1 || *rn.Pods > store.MaxPods {
				p.problem(p.pos.LookupValue(path+".pods"), "%s.pods: must be between 1 and %d, not %d", path, store.MaxPods, *rn.Pods)
			}
			spec.Pods = *rn.Pods
		}
		out = append(out, spec)
	}
	return out
}

func (p *parser) capacity(q api.Quantity, path string) string {
	if !q.IsZero() && q.Sign() <= 0 { // a zero Quantity did not parse: already reported
		p.problem(p.pos.LookupValue(path), "%s: must be greater than 0, not %s", path, q.String())
	}
	return q.String()
}

// Limits of the image behaviour keys.
const (
	MaxPullFailures = 100
	MaxExitCode     = 255
)

func (p *parser) image(name string, ri rawImage) (ImageSpec, bool) {
	path := "cluster.images[" + name + "]"
	disp := "cluster.images[" + strconv.Quote(name) + "]"
	if strings.TrimSpace(name) == "" {
		p.problem(p.pos.Lookup(path), "cluster.images: an image name must not be empty")
		return ImageSpec{}, false
	}
	spec := DefaultImage()
	ok := true
	maxSeconds := int32(MaxDuration / time.Second)
	for _, f := range []struct {
		name  string
		v     *int32
		dst   *int32
		limit int32
		unit  string
	}{
		{"pullSeconds", ri.PullSeconds, &spec.PullSeconds, maxSeconds, " seconds"},
		{"startSeconds", ri.StartSeconds, &spec.StartSeconds, maxSeconds, " seconds"},
		{"readySeconds", ri.ReadySeconds, &spec.ReadySeconds, maxSeconds, " seconds"},
		{"crashAfterSeconds", ri.CrashAfterSeconds, &spec.CrashAfterSeconds, maxSeconds, " seconds"},
		{"pullFailures", ri.PullFailures, &spec.PullFailures, MaxPullFailures, ""},
		{"unreadyAfterSeconds", ri.UnreadyAfterSeconds, &spec.UnreadyAfterSeconds, maxSeconds, " seconds"},
		{"readinessFlapSeconds", ri.ReadinessFlapSeconds, &spec.ReadinessFlapSeconds, maxSeconds, " seconds"},
		{"livenessFailAfterSeconds", ri.LivenessFailAfterSeconds, &spec.LivenessFailAfterSeconds, maxSeconds, " seconds"},
		{"shutdownSeconds", ri.ShutdownSeconds, &spec.ShutdownSeconds, maxSeconds, " seconds"},
		{"exitCode", ri.ExitCode, &spec.ExitCode, MaxExitCode, ""},
	} {
		if f.v == nil {
			continue
		}
		if *f.v < 0 || *f.v > f.limit {
			p.problem(p.pos.LookupValue(path+"."+f.name), "%s.%s: must be between 0 and %d%s, not %d", disp, f.name, f.limit, f.unit, *f.v)
			ok = false
			continue
		}
		*f.dst = *f.v
	}
	switch ri.Pull {
	case "":
	case "fail":
		spec.PullFail = true
	default:
		p.problem(p.pos.LookupValue(path+".pull"), "%s.pull: unsupported value %q: the only value is \"fail\"", disp, ri.Pull)
		ok = false
	}
	spec.NeverReady = ri.NeverReady
	return spec, p.coherent(spec, path, disp) && ok
}

// coherent reports the image keys that contradict one another, at the
// later key.
func (p *parser) coherent(spec ImageSpec, path, disp string) bool {
	ok := true
	bad := func(key, format string, args ...any) {
		p.problem(p.pos.LookupValue(path+"."+key), "%s.%s: "+format, append([]any{disp, key}, args...)...)
		ok = false
	}
	if spec.PullFail && spec.PullFailures > 0 {
		bad("pullFailures", "contradicts pull: fail, with which every pull fails")
	}
	for _, k := range []struct {
		name string
		v    int32
	}{{"unreadyAfterSeconds", spec.UnreadyAfterSeconds}, {"readinessFlapSeconds", spec.ReadinessFlapSeconds}} {
		if spec.NeverReady && k.v > 0 {
			bad(k.name, "contradicts neverReady: true, with which the readiness probe never passes")
		}
	}
	if v := spec.UnreadyAfterSeconds; v > 0 && v <= spec.ReadySeconds && !spec.NeverReady {
		bad("unreadyAfterSeconds", "must be greater than readySeconds (%d): the app would fail its readiness probe before it is up (use neverReady: true)", spec.ReadySeconds)
	}
	if v := spec.LivenessFailAfterSeconds; v > 0 && v <= spec.ReadySeconds {
		bad("livenessFailAfterSeconds", "must be greater than readySeconds (%d): the app would hang before it is up", spec.ReadySeconds)
	}
	return ok
}
