package view

import (
	"fmt"
	"strconv"
	"strings"

	"converge/core/compare"
	"converge/core/outcome"
	"converge/core/sim"
)

// Compare is the Compare view: the variants of a scenario side by side on
// one clock (core/compare), each with its rollout (tiles and budget gauges)
// and where its time went, one chart of every variant's available pods and
// replicas, and the table of their outcomes so far.
type Compare struct {
	// Deployment is the Deployment the columns and the chart show.
	Deployment string
	Variants   []CompareVariant
	Chart      Chart
	Table      OutcomeTable
}

// MaxVariants is how many variants the Compare view tells apart by colour
// and dash pattern (scenario.MaxVariants).
const MaxVariants = 6

// CompareVariant is one variant's column.
type CompareVariant struct {
	// Key is the variant's name; Index its place, from 1, which picks its
	// colour and dash pattern (cv-variant-1 … cv-variant-6).
	Key   string
	Index int
	Name  string
	// Patch is what the variant changes, one line per patch, or "the
	// scenario as written".
	Patch string
	// Rollout and Why are the Deployment's in this variant; nil without
	// one.
	Rollout *Rollout
	Why     *WhyLine
	// Times are its rollouts, the latest first.
	Times []RolloutTime
}

// CompareOf computes the Compare view of r for the Deployment named focus
// (or the lead's first, see Focus).
func CompareOf(r *compare.Run, focus string) Compare {
	lead := r.Lead()
	c := Compare{}
	if d := Focus(lead, focus); d != nil {
		c.Deployment = d.Name
	}
	for i, v := range r.Variants {
		cv := CompareVariant{Key: v.Name, Index: i + 1, Name: v.Name, Patch: patchText(v.Sim)}
		if c.Deployment != "" {
			cv.Rollout = RolloutOf(v.Sim, c.Deployment)
			for _, w := range Why(v.Sim) {
				if w.Key == c.Deployment {
					cv.Why = &w
				}
			}
			cv.Times = RolloutTimes(v.Sim, c.Deployment)
		}
		c.Variants = append(c.Variants, cv)
	}
	c.Chart = CompareChart(r, c.Deployment)
	c.Table = OutcomesOf(r)
	return c
}

// patchText is the selected variant's patches, one per line.
func patchText(s *sim.Sim) string {
	scn := s.Scenario()
	name := scn.Selected()
	for _, v := range scn.Variants {
		if v.Name != name {
			continue
		}
		var lines []string
		for _, p := range v.Patches {
			lines = append(lines, p.String())
		}
		if len(lines) > 0 {
			return strings.Join(lines, "\n")
		}
	}
	return "the scenario as written"
}

// variantKey is the key that gives a variant its colour and dash pattern: v1 … v6.
func variantKey(index int) string { return "v" + strconv.Itoa(min(max(index, 1), MaxVariants)) }

// CompareChart overlays, for the Deployment named name, every variant's
// available pods (.status.availableReplicas, thick) and replicas (the sum
// of its ReplicaSets' .spec.replicas, thin) over time, in the variant's
// colour and dash pattern: series "v1-available", "v1-replicas", ...
func CompareChart(r *compare.Run, name string) Chart {
	lead := r.Lead()
	span := max(int64(lead.Duration().Seconds()), lead.Horizon(), lead.T(), 1)
	now := lead.T()
	type line struct {
		key, label string
		vals       []int64
		have       []bool
	}
	var lines []line
	var yMax int64 = 1
	for i, v := range r.Variants {
		avail := line{key: variantKey(i+1) + "-available", label: v.Name + " available"}
		reps := line{key: variantKey(i+1) + "-replicas", label: v.Name + " replicas"}
		for _, smp := range v.Sim.History() {
			ds := sampleFor(smp, name)
			var a, p int64
			if ds != nil {
				a, p = int64(ds.Available), int64(ds.SpecReplicas)
			}
			avail.vals, avail.have = append(avail.vals, a), append(avail.have, ds != nil)
			reps.vals, reps.have = append(reps.vals, p), append(reps.have, ds != nil)
			yMax = max(yMax, a, p)
		}
		lines = append(lines, reps, avail)
	}
	yMax = niceMax(yMax)
	sc := scale{span: span, yMax: yMax}
	c := Chart{Key: "compare/" + name, Title: "deployment/" + name + ": available pods (thick) and replicas (thin), every variant",
		Span: span, YMax: yMax, YUnit: "pods"}
	for _, l := range lines {
		c.Series = append(c.Series, Series{Key: l.key, Label: l.label, Path: sc.line(l.vals, nil, l.have)})
		if now < int64(len(l.vals)) && l.have[now] {
			c.Now = append(c.Now, Value{Key: l.key, Label: l.label, Value: strconv.FormatInt(l.vals[now], 10)})
		}
	}
	sc.axes(&c, now)
	return c
}

func sampleFor(smp sim.Sample, name string) *sim.DeploymentSample {
	for i := range smp.Deployments {
		if smp.Deployments[i].Name == name {
			return &smp.Deployments[i]
		}
	}
	return nil
}

// OutcomeTable is the outcomes of every variant so far, a row per variant
// and Deployment; the best value of each column (when the rows differ) is
// marked.
type OutcomeTable struct {
	// Caption is "Outcomes so far, at 31s of 2m" or "Outcomes at the end
	// (2m)", with what they measure.
	Caption string
	// Headers name the columns: "variant", "deployment" (with more than one
	// Deployment), then compare.Headers in words.
	Headers []string
	Rows    []OutcomeRow
}

// OutcomeRow is one variant's outcome for one Deployment.
type OutcomeRow struct {
	// Key is "VARIANT/DEPLOYMENT"; Index the variant's place, from 1.
	Key                 string
	Index               int
	Variant, Deployment string
	Cells               []OutcomeCell
}

// OutcomeCell is one value; Best marks the best of its column.
type OutcomeCell struct {
	Text string
	Best bool
}

// OutcomesOf is the outcome table of r at its current second.
func OutcomesOf(r *compare.Run) OutcomeTable {
	lead := r.Lead()
	now, end := lead.T(), int64(lead.Duration().Seconds())
	t := r.Outcomes(now)
	ot := OutcomeTable{Caption: "Outcomes so far, at " + secondsText(now) + " of " + secondsText(end) +
		": measured from each Deployment's rollout start (the step that changed its pod template)"}
	if now >= end {
		ot.Caption = "Outcomes at the end (" + secondsText(end) + "): measured from each Deployment's rollout start (the step that changed its pod template)"
	}
	deps := t.Deployments()
	ot.Headers = []string{"variant"}
	if len(deps) > 1 {
		ot.Headers = append(ot.Headers, "deployment")
	}
	ot.Headers = append(ot.Headers, "rollout", "min available", "max replicas", "max pods", "pods created", "progress deadline")
	for _, dep := range deps {
		var group []outcome.Deployment
		for _, v := range t.Variants {
			d := outcome.Deployment{Name: dep}
			if o := v.Lookup(dep); o != nil {
				d = *o
			}
			group = append(group, d)
		}
		best := bestOf(group)
		for i, v := range t.Variants {
			c := compare.Texts(group[i])
			row := OutcomeRow{Key: v.Name + "/" + dep, Index: i + 1, Variant: v.Name, Deployment: dep}
			for j, text := range []string{c.Rollout, c.MinAvailable, c.MaxReplicas, c.MaxPods, c.PodsCreated, c.Deadline} {
				row.Cells = append(row.Cells, OutcomeCell{Text: text, Best: best[j][i]})
			}
			ot.Rows = append(ot.Rows, row)
		}
	}
	return ot
}

// bestOf marks, per column of compare.Cells, the rows with the best value
// among the finished rollouts: the shortest complete rollout, the highest
// availability, the fewest replicas, pods and pods created, no deadline
// exceeded. A column whose finished rows are all equal, or that has a
// single row, marks none; an unfinished rollout is never marked.
func bestOf(ds []outcome.Deployment) [6][]bool {
	var out [6][]bool
	if len(ds) < 2 {
		for j := range out {
			out[j] = make([]bool, len(ds))
		}
		return out
	}
	i64 := func(p *int64, worst int64) int64 {
		if p == nil {
			return worst
		}
		return *p
	}
	i32 := func(p *int32, worst int64) int64 {
		if p == nil {
			return worst
		}
		return int64(*p)
	}
	const never = 1 << 62
	scores := [6]func(d outcome.Deployment) int64{
		func(d outcome.Deployment) int64 { return i64(d.RolloutSeconds, never) },
		func(d outcome.Deployment) int64 { return -i32(d.MinAvailable, -never) },
		func(d outcome.Deployment) int64 { return i32(d.MaxReplicas, never) },
		func(d outcome.Deployment) int64 { return i32(d.MaxPods, never) },
		func(d outcome.Deployment) int64 { return i32(d.PodsCreated, never) },
		func(d outcome.Deployment) int64 {
			if d.ProgressDeadlineExceeded {
				return 1
			}
			return 0
		},
	}
	// Only finished rollouts compete: a variant still rolling out (or
	// stuck) has created fewer pods and used less surge only because it
	// has not done the work yet. The rollout column compares every row
	// (an unfinished one scores never).
	for j, score := range scores {
		out[j] = make([]bool, len(ds))
		lo, hi := int64(never), int64(-never)
		for _, d := range ds {
			if j > 0 && d.RolloutSeconds == nil {
				continue
			}
			lo, hi = min(lo, score(d)), max(hi, score(d))
		}
		if lo == hi || lo == never {
			continue
		}
		for i, d := range ds {
			out[j][i] = score(d) == lo && d.RolloutSeconds != nil
		}
	}
	return out
}

// SideNote says which variant the side column (the loop, the scenario's
// text and checks) shows while Compare shows every variant: the lead, the
// scenario as written; "" when r is nil.
func SideNote(r *compare.Run) string {
	if r == nil || len(r.Variants) == 0 {
		return ""
	}
	return fmt.Sprintf("This column shows variant 1, %q (the scenario as written); Compare shows all %d side by side.",
		r.Variants[0].Name, len(r.Variants))
}
