package kubectl

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"converge/core/api"
)

// runDescribe is `kubectl describe`: kubectl's describers, objects separated
// by a blank line; TYPE NAME that matches nothing describes every object
// whose name starts with NAME.
func runDescribe(x *execCtx) error {
	c := x.cmd
	sl, err := x.selectForReading(msgDescribeNoType)
	if err != nil {
		return err
	}
	if len(sl.errs) > 0 && isNotFound(sl.errs[0]) && len(c.Args) == 2 && !strings.Contains(c.Args[0], "/") && len(sl.targets) == 1 {
		return x.describePrefix(sl.targets[0], sl.errs[0])
	}
	for i, in := range sl.infos {
		if i > 0 {
			x.printf("\n\n")
		}
		x.out.WriteString(x.describe(in))
		if x.out.Len() > MaxOutput {
			x.out.Reset()
			return outputTooLarge("describe", len(sl.infos))
		}
	}
	if len(sl.infos) == 0 && len(sl.errs) == 0 {
		if sl.allNS {
			x.printf("%s\n", msgNoResourcesFoundNS)
		} else {
			x.printf(msgNoResourcesFound+"\n", x.ns)
		}
	}
	return newAggregate(sl.errs)
}

// describePrefix is DescribeMatchingResources.
func (x *execCtx) describePrefix(t target, notFound error) error {
	found := false
	for _, in := range x.list(t.rt, everything(), false) {
		if strings.HasPrefix(in.name(), t.name) {
			found = true
			x.printf("%s\n", x.describe(in))
		}
	}
	if !found {
		return notFound
	}
	return nil
}

func (x *execCtx) describe(in info) string {
	d := newDescriber(x)
	switch o := in.obj.(type) {
	case *api.Deployment:
		d.deployment(o)
	case *api.ReplicaSet:
		d.replicaSet(o)
	case *api.Pod:
		d.pod(o)
	case *api.Node:
		d.node(o)
	case *api.Service:
		d.service(o)
	case *api.ConfigMap:
		d.configMap(o)
	case *api.Endpoints:
		d.endpoints(o)
	case *api.Event:
		d.event(o)
	case *api.HorizontalPodAutoscaler:
		d.horizontalPodAutoscaler(o)
	case *api.ResourceQuota:
		d.resourceQuota(o)
	case *api.PodDisruptionBudget:
		d.podDisruptionBudget(o)
	}
	return d.String()
}

// describer is kubectl's PrefixWriter over a tab writer (min width 0, tab
// width 8, padding 2), as tabbedString sets it up.
type describer struct {
	x   *execCtx
	b   strings.Builder
	w   io.Writer
	tw  *tabwriter.Writer // nil when writing raw, as rollout history --revision does
	now api.Time
}

func newDescriber(x *execCtx) *describer {
	d := &describer{x: x, now: x.now()}
	d.tw = tabwriter.NewWriter(&d.b, 0, 8, 2, ' ', 0)
	d.w = d.tw
	return d
}

// newRawDescriber writes without a tab writer: tabs stay tabs.
func newRawDescriber(x *execCtx) *describer {
	d := &describer{x: x, now: x.now()}
	d.w = &d.b
	return d
}

// Levels of indentation: each is two spaces.
const (
	level0 = iota
	level1
	level2
	level3
)

func (d *describer) write(level int, format string, a ...any) {
	fmt.Fprintf(d.w, strings.Repeat("  ", level)+format, a...)
}

func (d *describer) writeLine(s string) { fmt.Fprintln(d.w, s) }

func (d *describer) flush() {
	if d.tw != nil {
		d.tw.Flush()
	}
}

func (d *describer) String() string {
	d.flush()
	return d.b.String()
}

// rfc1123 is kubectl describe's timestamp layout (time.RFC1123Z), in UTC.
func rfc1123(t api.Time) string { return t.UTC().Format(time.RFC1123Z) }

// labelsMultiline is printLabelsMultilineWithIndent.
func (d *describer) labelsMultiline(initialIndent, title string, m map[string]string) {
	d.write(level0, "%s%s:%s", initialIndent, title, "\t")
	if len(m) == 0 {
		d.writeLine("<none>")
		return
	}
	for i, k := range sortedKeys(m) {
		if i != 0 {
			d.write(level0, "%s", initialIndent)
			d.write(level0, "%s", "\t")
		}
		d.write(level0, "%s=%s\n", k, m[k])
	}
}

// maxAnnotationLen is where describe breaks a long annotation onto its own lines.
const maxAnnotationLen = 140

// annotationsMultiline is printAnnotationsMultiline: the last-applied
// configuration is never shown.
func (d *describer) annotationsMultiline(title string, m map[string]string) {
	d.write(level0, "%s:\t", title)
	var keys []string
	for _, k := range sortedKeys(m) {
		if k != api.LastAppliedAnnotation {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		d.writeLine("<none>")
		return
	}
	indent := "\t"
	for i, k := range keys {
		if i != 0 {
			d.write(level0, indent)
		}
		v := strings.TrimSuffix(m[k], "\n")
		if len(v)+len(k)+2 > maxAnnotationLen || strings.Contains(v, "\n") {
			d.write(level0, "%s:\n", k)
			for _, s := range strings.Split(v, "\n") {
				d.write(level0, "%s  %s\n", indent, shorten(s, maxAnnotationLen-2))
			}
			continue
		}
		d.write(level0, "%s: %s\n", k, v)
	}
}

func shorten(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// events is DescribeEvents for the events about obj (by uid; for nodes
// also the events the kubelet files under the node's name).
func (d *describer) events(obj api.Object) {
	if !d.x.cmd.boolean("show-events") {
		return
	}
	m := obj.GetObjectMeta()
	kind := api.KindOf(obj)
	var evs []*api.Event
	for _, e := range d.x.st.Events() {
		ref := e.InvolvedObject
		if ref.Name != m.Name || ref.Namespace != m.Namespace && kind != api.KindNode {
			continue
		}
		if ref.UID == m.UID || kind == api.KindNode && ref.UID == m.Name && ref.Kind == api.KindNode {
			evs = append(evs, e)
		}
	}
	if len(evs) == 0 {
		d.write(level0, "Events:\t<none>\n")
		return
	}
	d.flush()
	sort.SliceStable(evs, func(i, j int) bool { return evs[i].LastTimestamp.Before(evs[j].LastTimestamp.Time) })
	d.write(level0, "Events:\n  Type\tReason\tAge\tFrom\tMessage\n")
	d.write(level1, "----\t------\t----\t----\t-------\n")
	for _, e := range evs {
		first := since(d.now, e.FirstTimestamp)
		interval := first
		if e.Count > 1 {
			interval = fmt.Sprintf("%s (x%d over %s)", since(d.now, e.LastTimestamp), e.Count, first)
		}
		d.write(level1, "%v\t%v\t%s\t%v\t%v\n", e.Type, e.Reason, interval, e.Source.Component, strings.TrimSpace(e.Message))
	}
}

// printController is "ReplicaSet/web-66b6c48dd5" for a controlled object.
func printController(m *api.ObjectMeta) string {
	if r := api.GetControllerOf(m); r != nil {
		return r.Kind + "/" + r.Name
	}
	return ""
}

// tolerationsMultiline is printTolerationsMultilineWithIndent.
func (d *describer) tolerationsMultiline(initialIndent, title string, ts []api.Toleration) {
	d.write(level0, "%s%s:%s", initialIndent, title, "\t")
	if len(ts) == 0 {
		d.writeLine("<none>")
		return
	}
	sorted := append([]api.Toleration(nil), ts...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Key < sorted[j].Key })
	for i, t := range sorted {
		if i != 0 {
			d.write(level0, "%s", initialIndent)
			d.write(level0, "%s", "\t")
		}
		d.write(level0, "%s", t.Key)
		if t.Value != "" {
			d.write(level0, "=%s", t.Value)
		}
		if t.Effect != "" {
			d.write(level0, ":%s", t.Effect)
		}
		if t.Operator == "Exists" && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				d.write(level0, " op=Exists")
			} else {
				d.write(level0, "op=Exists")
			}
		}
		if t.TolerationSeconds != nil {
			d.write(level0, " for %ds", *t.TolerationSeconds)
		}
		d.write(level0, "\n")
	}
}

// taintsMultiline is printTaintsMultilineWithIndent, sorted by effect and key.
func (d *describer) taintsMultiline(title string, ts []api.Taint) {
	d.write(level0, "%s:%s", title, "\t")
	if len(ts) == 0 {
		d.writeLine("<none>")
		return
	}
	sorted := append([]api.Taint(nil), ts...)
	sort.SliceStable(sorted, func(i, j int) bool {
		return sorted[i].Effect+","+sorted[i].Key < sorted[j].Effect+","+sorted[j].Key
	})
	for i, t := range sorted {
		if i != 0 {
			d.write(level0, "%s", "\t")
		}
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		d.write(level0, "%s\n", s+":"+t.Effect)
	}
}
