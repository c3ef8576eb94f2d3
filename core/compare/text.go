package compare

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"converge/core/humanize"
	"converge/core/outcome"
)

// Cells are one row of the outcomes table in words, as `converge compare`
// prints it and the page's table shows it.
type Cells struct {
	Rollout, MinAvailable, MaxReplicas, MaxPods, PodsCreated, Deadline string
}

// Headers are the table's column names, in the order of Cells.
var Headers = []string{"ROLLOUT", "MIN AVAILABLE", "MAX REPLICAS", "MAX PODS", "PODS CREATED", "DEADLINE"}

// Texts renders one outcome: "9s" (or "not complete", "no rollout"), "8 (80%)",
// "13", "13", "10", "exceeded" (or "-").
func Texts(d outcome.Deployment) Cells {
	if d.RolloutStart == nil {
		return Cells{Rollout: "no rollout", MinAvailable: "-", MaxReplicas: "-", MaxPods: "-", PodsCreated: "-", Deadline: "-"}
	}
	c := Cells{Rollout: "not complete", Deadline: "-"}
	if d.RolloutSeconds != nil {
		c.Rollout = humanize.Seconds(*d.RolloutSeconds)
	}
	c.MinAvailable = num(d.MinAvailable)
	if d.MinAvailablePercent != nil {
		c.MinAvailable += " (" + strconv.Itoa(int(*d.MinAvailablePercent)) + "%)"
	}
	c.MaxReplicas, c.MaxPods, c.PodsCreated = num(d.MaxReplicas), num(d.MaxPods), num(d.PodsCreated)
	if d.ProgressDeadlineExceeded {
		c.Deadline = "exceeded"
	}
	return c
}

func num(v *int32) string {
	if v == nil {
		return "-"
	}
	return strconv.Itoa(int(*v))
}

// Deployments lists the Deployments any variant has, in the order of the
// first variant's (by name), then the others'.
func (t Table) Deployments() []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range t.Variants {
		for _, d := range v.Deployments {
			if !seen[d.Name] {
				seen[d.Name] = true
				out = append(out, d.Name)
			}
		}
	}
	return out
}

// Lookup returns the outcome of the Deployment name in variant v, or nil.
func (v VariantOutcome) Lookup(name string) *outcome.Deployment {
	for i := range v.Deployments {
		if v.Deployments[i].Name == name {
			return &v.Deployments[i]
		}
	}
	return nil
}

// WriteText writes one table per Deployment, a row per variant:
//
//	deployment/web
//	VARIANT    ROLLOUT  MIN AVAILABLE  MAX REPLICAS  MAX PODS  PODS CREATED  DEADLINE
//	25-25      9s       8 (80%)        13            13        10            -
//	recreate   6s       0 (0%)         10            10        10            -
func (t Table) WriteText(w io.Writer) error {
	names := t.Deployments()
	if len(names) == 0 {
		_, err := fmt.Fprintln(w, "No Deployment to compare.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for i, name := range names {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintln(tw, "deployment/"+name)
		fmt.Fprintln(tw, "VARIANT\t"+strings.Join(Headers, "\t"))
		for _, v := range t.Variants {
			c := Cells{Rollout: "-", MinAvailable: "-", MaxReplicas: "-", MaxPods: "-", PodsCreated: "-", Deadline: "-"}
			if d := v.Lookup(name); d != nil {
				c = Texts(*d)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v.Name, c.Rollout, c.MinAvailable, c.MaxReplicas, c.MaxPods, c.PodsCreated, c.Deadline)
		}
	}
	return tw.Flush()
}
