package kubectl

import (
	"fmt"
	"sort"
	"strings"

	"converge/core/controller"
)

// kubectl top's texts (kubectl 1.35, pkg/cmd/top).
const (
	msgMetricsAPINotAvailable = "Metrics API not available"
	msgMetricsNotYet          = "metrics not available yet"
	msgTopSortBy              = "--sort-by accepts only cpu or memory"
	msgTopNameAndSelector     = "only one of NAME or selector can be provided"
	msgTopNodeNotSimulated    = "\"kubectl top node\" is a kubectl command that Converge does not simulate: the metrics model measures pods, not nodes"
)

// runTopPod is `kubectl top pod [NAME] [-l SEL] [--sort-by=cpu|memory]`:
// the metrics server's last sample of each pod, as TopCmdPrinter prints
// it: cpu in millicores ("250m"), memory in mebibytes ("64Mi"), pods by
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

// runTopNode answers that node metrics are not simulated.
func runTopNode(_ *execCtx) error { return &plainError{msg: msgTopNodeNotSimulated} }
