// Package compare runs the variants of a scenario side by side
// (docs/compare.md): one simulation per variant, moved together on one
// clock, and the table of their outcomes (core/outcome), as `converge
// compare` prints it and the page's Compare view draws it.
package compare

import (
	"fmt"

	"converge/core/outcome"
	"converge/core/scenario"
	"converge/core/sim"
)

// Run is the variants of one scenario, each in its own simulation. The
// first variant leads: Step and SeekTo move it and then the others to its
// second, so that all of them always show the same second. A scenario
// without variants is one variant, named after the scenario.
type Run struct {
	Variants []Variant
}

// Variant is one variant's simulation.
type Variant struct {
	Name string
	Sim  *sim.Sim
}

// New prepares a simulation of each of scn's variants at t=0.
func New(scn *scenario.Scenario, opts sim.Options) (*Run, error) {
	names := scn.VariantNames()
	if len(names) == 0 {
		s, err := sim.New(scn, opts)
		if err != nil {
			return nil, err
		}
		return &Run{Variants: []Variant{{Name: scn.Name, Sim: s}}}, nil
	}
	r := &Run{}
	for _, name := range names {
		v, err := scn.WithVariant(name)
		if err != nil {
			return nil, err
		}
		s, err := sim.New(v, opts)
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", name, err)
		}
		r.Variants = append(r.Variants, Variant{Name: name, Sim: s})
	}
	return r, nil
}

// Around makes the Run of lead's scenario whose first variant is lead
// itself (a simulation already running, at any second): the others start
// at t=0 and are brought to lead's second. When lead's scenario has no
// variants the Run is lead alone, named after the scenario. lead's
// scenario should select its first variant (as scenario.Parse does); the
// others are its siblings by name.
func Around(lead *sim.Sim, opts sim.Options) (*Run, error) {
	scn := lead.Scenario()
	names := scn.VariantNames()
	if len(names) == 0 {
		return &Run{Variants: []Variant{{Name: scn.Name, Sim: lead}}}, nil
	}
	r := &Run{Variants: []Variant{{Name: scn.Selected(), Sim: lead}}}
	for _, name := range names {
		if name == scn.Selected() {
			continue
		}
		v, err := scn.WithVariant(name)
		if err != nil {
			return nil, err
		}
		s, err := sim.New(v, opts)
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", name, err)
		}
		r.Variants = append(r.Variants, Variant{Name: name, Sim: s})
	}
	r.Follow()
	return r, nil
}

// Lead is the first variant's simulation, the one the others follow.
func (r *Run) Lead() *sim.Sim { return r.Variants[0].Sim }

// T is the current second.
func (r *Run) T() int64 { return r.Lead().T() }

// Step advances every variant by n seconds (n < 1 counts as 1).
func (r *Run) Step(n int) {
	r.Lead().Step(n)
	r.Follow()
}

// SeekTo moves every variant to second t.
func (r *Run) SeekTo(t int64) {
	r.Lead().SeekTo(t)
	r.Follow()
}

// Follow brings every variant to the lead's second, after the lead moved
// by itself (a step, a seek, a command).
func (r *Run) Follow() {
	t := r.T()
	for _, v := range r.Variants[1:] {
		if v.Sim.T() != t {
			v.Sim.SeekTo(t)
		}
	}
}

// Run runs a kubectl command line in every variant (sim.Run): one that
// changes the cluster becomes a step of each variant's scenario one second
// from now. It returns the lead's result.
func (r *Run) Run(line string) sim.StepResult {
	res := r.Lead().Run(line)
	for _, v := range r.Variants[1:] {
		v.Sim.Run(line)
	}
	r.Follow()
	return res
}

// Table is the outcomes of every variant, as `converge compare --output
// json` prints it.
type Table struct {
	Variants []VariantOutcome `json:"variants"`
}

// VariantOutcome is one variant's outcomes, one per Deployment by name.
type VariantOutcome struct {
	Name        string               `json:"name"`
	Deployments []outcome.Deployment `json:"deployments"`
}

// Outcomes measures every variant up to second upTo (outcome.Of): the
// outcomes so far, or at the end of the scenario.
func (r *Run) Outcomes(upTo int64) Table {
	t := Table{Variants: make([]VariantOutcome, 0, len(r.Variants))}
	for _, v := range r.Variants {
		ds := outcome.Of(v.Sim.History(), upTo)
		if ds == nil {
			ds = []outcome.Deployment{}
		}
		t.Variants = append(t.Variants, VariantOutcome{Name: v.Name, Deployments: ds})
	}
	return t
}
