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

func (p *parser) image(name string, ri rawImage) (ImageSpec, bool) {
	path := "cluster.images[" + name + "]"
	disp := "cluster.images[" + strconv.Quote(name) + "]"
	if strings.TrimSpace(name) == "" {
		p.problem(p.pos.Lookup(path), "cluster.images: an image name must not be empty")
		return ImageSpec{}, false
	}
	spec := DefaultImage()
	ok := true
	for _, f := range []struct {
		name string
		v    *int32
		dst  *int32
	}{
		{"pullSeconds", ri.PullSeconds, &spec.PullSeconds},
		{"startSeconds", ri.StartSeconds, &spec.StartSeconds},
		{"readySeconds", ri.ReadySeconds, &spec.ReadySeconds},
		{"crashAfterSeconds", ri.CrashAfterSeconds, &spec.CrashAfterSeconds},
	} {
		if f.v == nil {
			continue
		}
		if *f.v < 0 || *f.v > int32(MaxDuration/time.Second) {
			p.problem(p.pos.LookupValue(path+"."+f.name), "%s.%s: must be between 0 and 86400 seconds, not %d", disp, f.name, *f.v)
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
	return spec, ok
}
