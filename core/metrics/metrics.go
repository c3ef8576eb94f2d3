// Package metrics is a small model of metrics-server, the resource metrics
// API (metrics.k8s.io) the HorizontalPodAutoscaler reads, and of the load
// the scenario's `load:` steps put on a Deployment's pods.
//
// Load: a step `load: deployment/api cpu=300m memory=1Gi` sets the total
// CPU (and memory) the app's traffic demands. Each second it is spread
// evenly over the Deployment's ready pods (the pods its selector matches
// whose Ready condition is True and that are not being deleted), rounded
// down to the milli-unit; running pods that are not ready use nothing, as
// they get no traffic. Without a load step pods use nothing.
//
// Scrapes: every 15 s of simulated time (t = 15, 30, ...; metrics-server's
// --metric-resolution), the server publishes for each pod that ran (phase
// Running, not being deleted) through every second of the last 15 s window
// its average usage over that window, with that window and the scrape time
// as timestamp. A pod that started or restarted within the window has no
// metric until the next scrape: like metrics-server, which needs two
// samples of a container's counters, a new pod's first metric comes 15 to
// 30 s after it starts. The HPA reads the last scrape, so what it sees lags
// the load by up to 15 s plus its own sync period (docs/fidelity.md).
package metrics

import (
	"fmt"
	"sort"
	"time"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/humanize"
	"converge/core/labels"
)

// Component is the metrics server's name in the tick order and its sync records.
const Component = "metrics-server"

// Resolution is the scrape interval and the window of each metric.
const Resolution = 15 * time.Second

// Load is the total usage a Deployment's traffic demands, in milli-units
// (millicores, milli-bytes).
type Load struct {
	CPU, Memory int64
	// CPUSet and MemorySet record which of the two a step set.
	CPUSet, MemorySet bool
}

// Server is the metrics server and the load model.
type Server struct {
	// loads by "namespace/deployment", set by load steps.
	loads map[string]Load
	// acc is the usage of the current window, per pod uid.
	acc map[string]*window
	// last is the last scrape's metrics, sorted by namespace and name, and
	// the labels of those pods (for selectors).
	last   []sample
	lastAt time.Time
	// nodes is the last scrape's node metrics, by name; nodeAcc the usage
	// of the current window by node.
	nodes   []controller.NodeMetrics
	nodeAcc map[string]Load
}

type window struct {
	seconds     int
	cpu, memory int64
}

type sample struct {
	m      controller.PodMetrics
	labels map[string]string
}

var (
	_ controller.Controller = (*Server)(nil)
	_ controller.MetricsAPI = (*Server)(nil)
)

// New returns a server with no load.
func New() *Server { return &Server{loads: map[string]Load{}, acc: map[string]*window{}} }

// Name implements controller.Controller.
func (s *Server) Name() string { return Component }

// Clone implements controller.Controller.
func (s *Server) Clone() controller.Controller {
	out := &Server{loads: make(map[string]Load, len(s.loads)), acc: make(map[string]*window, len(s.acc)), last: s.last, lastAt: s.lastAt,
		nodes: s.nodes, nodeAcc: make(map[string]Load, len(s.nodeAcc))}
	for k, v := range s.nodeAcc {
		out.nodeAcc[k] = v
	}
	for k, v := range s.loads {
		out.loads[k] = v
	}
	for k, w := range s.acc {
		x := *w
		out.acc[k] = &x
	}
	return out
}

// SetLoad sets a Deployment's load; the resources not set keep their value.
func (s *Server) SetLoad(namespace, deployment string, l Load) {
	k := namespace + "/" + deployment
	cur := s.loads[k]
	if l.CPUSet {
		cur.CPU, cur.CPUSet = l.CPU, true
	}
	if l.MemorySet {
		cur.Memory, cur.MemorySet = l.Memory, true
	}
	s.loads[k] = cur
}

// LoadOf returns a Deployment's load.
func (s *Server) LoadOf(namespace, deployment string) Load { return s.loads[namespace+"/"+deployment] }

// Active reports whether the server has anything to do: a load was set or an
// HPA exists. Without either, Sync does nothing, so that scenarios without
// autoscaling cost nothing.
func (s *Server) active(ctx *controller.Context) bool {
	return len(s.loads) > 0 || ctx.Store.Count(api.KindHorizontalPodAutoscaler) > 0 || len(s.last) > 0
}

// PodMetrics implements controller.MetricsAPI: the last scrape's metrics of
// the namespace's pods that sel matches.
func (s *Server) PodMetrics(namespace string, sel labels.Selector) []controller.PodMetrics {
	var out []controller.PodMetrics
	for _, x := range s.last {
		if x.m.Namespace == namespace && sel.Matches(x.labels) {
			out = append(out, x.m)
		}
	}
	return out
}

// NodeMetrics returns the last scrape's metrics of the nodes that were
// Ready, sorted by name: the usage of the pods that ran on each, averaged
// over the window (metrics-server reads a node's own cgroup, which also
// holds the kubelet and the system daemons; the model has only pods).
func (s *Server) NodeMetrics() []controller.NodeMetrics { return s.nodes }

// Serving reports whether the metrics API serves: the scenario has the
// metrics model (a load set, or a scrape made for an HPA).
func (s *Server) Serving() bool { return len(s.loads) > 0 || !s.lastAt.IsZero() }

// LastScrape returns when the last scrape was (zero before the first).
func (s *Server) LastScrape() time.Time { return s.lastAt }

// Sync accounts this second's usage of every running pod and, at a scrape
// second, publishes the metrics of the pods that ran through the window.
func (s *Server) Sync(ctx *controller.Context) {
	if !s.active(ctx) {
		return
	}
	now := ctx.Now()
	shares := s.shares(ctx)
	next := make(map[string]*window, len(s.acc))
	ctx.Store.EachPod(func(p *api.Pod) bool {
		if p.Status.Phase != api.PodRunning || p.DeletionTimestamp != nil {
			return true
		}
		w := s.acc[p.UID]
		if w == nil {
			w = &window{}
		}
		w.seconds++
		if sh, ok := shares[p.UID]; ok {
			w.cpu += sh.CPU
			w.memory += sh.Memory
			if s.nodeAcc == nil {
				s.nodeAcc = map[string]Load{}
			}
			n := s.nodeAcc[p.Spec.NodeName]
			n.CPU += sh.CPU
			n.Memory += sh.Memory
			s.nodeAcc[p.Spec.NodeName] = n
		}
		next[p.UID] = w
		return true
	})
	s.acc = next
	t := int64(now.Sub(api.Epoch) / time.Second)
	res := int64(Resolution / time.Second)
	if t == 0 || t%res != 0 {
		s.record(ctx, shares, t%res)
		return
	}
	var last []sample
	ctx.Store.EachPod(func(p *api.Pod) bool {
		w := s.acc[p.UID]
		if w == nil {
			return true
		}
		if int64(w.seconds) >= res {
			last = append(last, sample{m: controller.PodMetrics{Namespace: p.Namespace, Name: p.Name, Timestamp: now, Window: Resolution,
				CPU: w.cpu / int64(w.seconds), Memory: w.memory / int64(w.seconds)}, labels: p.Labels})
		}
		s.acc[p.UID] = &window{} // a new window starts
		return true
	})
	sort.SliceStable(last, func(i, j int) bool {
		if last[i].m.Namespace != last[j].m.Namespace {
			return last[i].m.Namespace < last[j].m.Namespace
		}
		return last[i].m.Name < last[j].m.Name
	})
	s.last, s.lastAt = last, now
	s.nodes = s.nodes[:0:0]
	for _, n := range ctx.Store.Nodes() {
		if api.IsNodeReady(n) {
			u := s.nodeAcc[n.Name]
			s.nodes = append(s.nodes, controller.NodeMetrics{Name: n.Name, CPU: u.CPU / res, Memory: u.Memory / res})
		}
	}
	s.nodeAcc = nil
	s.record(ctx, shares, 0)
}

// shares is this second's usage of every pod with a share of a load: the
// load divided by the Deployment's ready pods.
func (s *Server) shares(ctx *controller.Context) map[string]Load {
	out := map[string]Load{}
	for _, k := range sortedKeys(s.loads) {
		ready := s.readyPods(ctx, k)
		if len(ready) == 0 {
			continue
		}
		l := s.loads[k]
		n := int64(len(ready))
		for _, p := range ready {
			cur := out[p.UID]
			cur.CPU += l.CPU / n
			cur.Memory += l.Memory / n
			out[p.UID] = cur
		}
	}
	return out
}

// readyPods are the ready pods of the Deployment "namespace/name".
func (s *Server) readyPods(ctx *controller.Context, key string) []*api.Pod {
	ns, name := splitKey(key)
	d, err := ctx.Store.GetDeployment(ns, name)
	if err != nil {
		return nil
	}
	sel, err := labels.FromLabelSelector(d.Spec.Selector)
	if err != nil {
		return nil
	}
	var out []*api.Pod
	ctx.Store.EachPod(func(p *api.Pod) bool {
		if p.Namespace == ns && p.DeletionTimestamp == nil && p.Status.Phase == api.PodRunning && api.IsPodReady(p) && sel.Matches(p.Labels) {
			out = append(out, p)
		}
		return true
	})
	return out
}

// record writes one sync record per loaded Deployment: its load, how it is
// spread, and the scrape.
func (s *Server) record(ctx *controller.Context, shares map[string]Load, phase int64) {
	res := int64(Resolution / time.Second)
	for _, k := range sortedKeys(s.loads) {
		ns, name := splitKey(k)
		l := s.loads[k]
		ready := s.readyPods(ctx, k)
		r := controller.SyncRecord{Controller: Component, Object: "deployment/" + name}
		load := loadText(l)
		switch {
		case len(ready) == 0:
			r.Observed = load + " with no ready pod to take it"
		default:
			r.Observed = fmt.Sprintf("%s over %d ready pods: %s each", load, len(ready), loadText(Load{CPU: l.CPU / int64(len(ready)),
				Memory: l.Memory / int64(len(ready)), CPUSet: l.CPUSet, MemorySet: l.MemorySet}))
		}
		if phase == 0 {
			n := 0
			for _, x := range s.last {
				if x.m.Namespace == ns {
					n++
				}
			}
			verb := "have"
			if n == 1 {
				verb = "has"
			}
			r.Action = fmt.Sprintf("scrape: %s %s a metric of the last %ds", humanize.Count(n, "pod"), verb, res)
		} else {
			r.InSync = true
			r.Observed += fmt.Sprintf("; next scrape in %ds", res-phase)
		}
		ctx.Record(r)
	}
}

func loadText(l Load) string {
	var parts []string
	if l.CPUSet {
		parts = append(parts, "cpu "+api.NewMilliQuantity(l.CPU, false).String())
	}
	if l.MemorySet {
		parts = append(parts, "memory "+api.NewMilliQuantity(l.Memory, true).String())
	}
	if len(parts) == 0 {
		return "no load"
	}
	out := parts[0]
	for _, p := range parts[1:] {
		out += ", " + p
	}
	return out
}

func splitKey(k string) (string, string) {
	for i := 0; i < len(k); i++ {
		if k[i] == '/' {
			return k[:i], k[i+1:]
		}
	}
	return "", k
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
