package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"converge/core/api"
	"converge/core/controller"
)

// kubectl top's texts (kubectl 1.35, pkg/cmd/top).
const (
	msgMetricsAPINotAvailable = "Metrics API not available"
	msgMetricsNotYet          = "metrics not available yet"
	msgTopSortBy              = "--sort-by accepts only cpu or memory"
	msgTopNameAndSelector     = "only one of NAME or selector can be provided"
	msgTopNodeNameAndSelector = "only one of NAME or --selector can be provided"
)

// runTopPod is `kubectl top pod [NAME] [-l SEL] [--sort-by=cpu|memory]`:
// the metrics server's last sample of each pod, as TopCmdPrinter prints
// it: cpu in millicores ("250m"), memory in wholeBytes ("64Mi"), pods by
// name (or by the usage --sort-by names, highest first).
func runTopPod(x *execCtx) error {
	c := x.cmd
	sortBy := c.str("sort-by")
	if sortBy != "" && sortBy != "cpu" && sortBy != "memory" {
		return &plainError{msg: msgTopSortBy}
	}
	if len(c.Args) > 0 && c.str("selector") != "" {
		return &plainError{msg: msgTopNameAndSelector}
	}
	sel, err := x.selector()
	if err != nil {
		return err
	}
	if x.env.Metrics == nil {
		return &plainError{msg: msgMetricsAPINotAvailable}
	}
	ms := x.env.Metrics.PodMetrics(x.ns, sel)
	if len(c.Args) > 0 {
		var one []controller.PodMetrics
		for _, m := range ms {
			if m.Name == c.Args[0] {
				one = append(one, m)
			}
		}
		if len(one) == 0 {
			if _, err := x.st.GetPod(x.ns, c.Args[0]); err != nil {
				return &plainError{text: fmt.Sprintf("Error from server (NotFound): podmetrics.metrics.k8s.io %q not found", x.ns+"/"+c.Args[0])}
			}
			return &plainError{msg: msgMetricsNotYet}
		}
		ms = one
	}
	if len(ms) == 0 {
		for _, p := range x.st.Pods() {
			if p.Namespace == x.ns && sel.Matches(p.Labels) {
				return &plainError{msg: msgMetricsNotYet}
			}
		}
		x.printf("No resources found in %s namespace.\n", x.ns)
		return nil
	}
	sort.SliceStable(ms, func(i, j int) bool {
		switch sortBy {
		case "cpu":
			return ms[i].CPU > ms[j].CPU
		case "memory":
			return ms[i].Memory > ms[j].Memory
		}
		return ms[i].Name < ms[j].Name
	})
	var b strings.Builder
	w := newTabWriter(&b)
	if !c.boolean("no-headers") {
		fmt.Fprintln(w, "NAME\tCPU(cores)\tMEMORY(bytes)\t")
	}
	for _, m := range ms {
		fmt.Fprintf(w, "%s\t%dm\t%dMi\t\n", m.Name, m.CPU, m.Memory/1000/(1024*1024))
	}
	_ = w.Flush()
	x.out.WriteString(b.String())
	return nil
}

// nodeMetricsAPI is the metrics API's node metrics (core/metrics).
type nodeMetricsAPI interface {
	NodeMetrics() []controller.NodeMetrics
}

// runTopNode is `kubectl top node [NAME] [-l SEL] [--sort-by=cpu|memory]
// [--show-capacity]` as RunTopNode and TopCmdPrinter.PrintNodeMetrics do
// it: each node's usage and its share of the node's allocatable (or
// capacity), then a row of <unknown> for each node without metrics.
func runTopNode(x *execCtx) error {
	c := x.cmd
	sortBy := c.str("sort-by")
	if sortBy != "" && sortBy != "cpu" && sortBy != "memory" {
		return &plainError{msg: msgTopSortBy}
	}
	if len(c.Args) > 0 && c.str("selector") != "" {
		return &plainError{msg: msgTopNodeNameAndSelector}
	}
	sel, err := x.selector()
	if err != nil {
		return err
	}
	nm, ok := x.env.Metrics.(nodeMetricsAPI)
	if x.env.Metrics == nil || !ok {
		return &plainError{msg: msgMetricsAPINotAvailable}
	}
	nodes := map[string]*api.Node{}
	for _, n := range x.st.Nodes() {
		if len(c.Args) > 0 && n.Name != c.Args[0] || len(c.Args) == 0 && !sel.Matches(n.Labels) {
			continue
		}
		nodes[n.Name] = n
	}
	var ms []controller.NodeMetrics
	for _, m := range nm.NodeMetrics() {
		if nodes[m.Name] != nil {
			ms = append(ms, m)
		}
	}
	if len(c.Args) > 0 && len(ms) == 0 {
		return &plainError{text: fmt.Sprintf("Error from server (NotFound): nodemetrics.metrics.k8s.io %q not found", c.Args[0])}
	}
	if len(ms) == 0 {
		return &plainError{msg: msgMetricsNotYet}
	}
	sort.SliceStable(ms, func(i, j int) bool {
		switch sortBy {
		case "cpu":
			return ms[i].CPU > ms[j].CPU
		case "memory":
			return wholeBytes(ms[i].Memory) > wholeBytes(ms[j].Memory)
		}
		return ms[i].Name < ms[j].Name
	})
	var b strings.Builder
	w := newTabWriter(&b)
	if !c.boolean("no-headers") {
		fmt.Fprintln(w, "NAME\tCPU(cores)\tCPU(%)\tMEMORY(bytes)\tMEMORY(%)\t")
	}
	for _, m := range ms {
		n := nodes[m.Name]
		avail := n.Status.Allocatable
		if c.boolean("show-capacity") {
			avail = n.Status.Capacity
		}
		fmt.Fprintf(w, "%s\t%dm\t%s%dMi\t%s\n", m.Name, m.CPU, percent(m.CPU, avail, "cpu"),
			wholeBytes(m.Memory)/(1024*1024), percent(m.Memory, avail, "memory"))
		delete(nodes, m.Name)
	}
	rest := make([]string, 0, len(nodes))
	for name := range nodes {
		rest = append(rest, name)
	}
	sort.Strings(rest)
	for _, name := range rest {
		fmt.Fprintf(w, "%s\t<unknown>\t<unknown>\t<unknown>\t<unknown>\t\n", name)
	}
	_ = w.Flush()
	x.out.WriteString(b.String())
	return nil
}

// wholeBytes is a usage in milli-bytes as Quantity.Value gives it: whole
// bytes, rounded up.
func wholeBytes(milli int64) int64 { return (milli + 999) / 1000 }

// percent is the printer's "NN%\t" cell: usage over the node's amount,
// truncated; nothing when the node does not list the resource.
func percent(milli int64, avail api.ResourceList, name string) string {
	q, ok := avail[name]
	if !ok {
		return ""
	}
	f := 0.0
	if !q.IsZero() {
		f = float64(milli) / float64(q.MilliValue()) * 100
	}
	return fmt.Sprintf("%d%%\t", int64(f))
}
