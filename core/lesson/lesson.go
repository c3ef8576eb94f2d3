// Package lesson is the learning path through the scenario library: the
// library grouped and ordered into lessons (scenarios/path/lessons.yaml,
// docs/scenarios.md "The learning path"), numbered for the page's picker,
// and the reader's progress along it, which the page keeps in browser
// storage. It is pure Go: the page and the command line only show it.
package lesson

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Lesson is one group of scenarios, in the order to follow them.
type Lesson struct {
	Title     string   `yaml:"title" json:"title"`
	Summary   string   `yaml:"summary" json:"summary"`
	Scenarios []string `yaml:"scenarios" json:"scenarios"`
}

// Path is the lessons in order.
type Path struct {
	Lessons []Lesson `json:"lessons"`
}

// Step is one scenario's place on the path: lesson and position numbered
// from 1, so "2.3" is the third scenario of the second lesson.
type Step struct {
	Lesson   int    `json:"lesson"`
	Position int    `json:"position"`
	Name     string `json:"name"`
}

// Number is "LESSON.POSITION", as the picker shows it.
func (s Step) Number() string { return fmt.Sprintf("%d.%d", s.Lesson, s.Position) }

// Parse reads the path: a YAML list of lessons, each with a title, a
// summary and at least one scenario, no scenario twice.
func Parse(data []byte) (*Path, error) {
	var ls []Lesson
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&ls); err != nil {
		return nil, fmt.Errorf("lessons: %w", err)
	}
	if len(ls) == 0 {
		return nil, errors.New("lessons: no lessons")
	}
	seen := map[string]int{}
	for i, l := range ls {
		if strings.TrimSpace(l.Title) == "" {
			return nil, fmt.Errorf("lessons: lesson %d has no title", i+1)
		}
		if len(l.Scenarios) == 0 {
			return nil, fmt.Errorf("lessons: lesson %d (%s) has no scenarios", i+1, l.Title)
		}
		for _, n := range l.Scenarios {
			if j, ok := seen[n]; ok {
				return nil, fmt.Errorf("lessons: %s is in lesson %d and lesson %d; a scenario belongs to one lesson", n, j, i+1)
			}
			seen[n] = i + 1
		}
	}
	return &Path{Lessons: ls}, nil
}

// Steps returns every scenario of the path in order, numbered.
func (p *Path) Steps() []Step {
	var out []Step
	for i, l := range p.Lessons {
		for j, n := range l.Scenarios {
			out = append(out, Step{Lesson: i + 1, Position: j + 1, Name: n})
		}
	}
	return out
}

// Find returns the place of scenario name on the path.
func (p *Path) Find(name string) (Step, bool) {
	for _, s := range p.Steps() {
		if s.Name == name {
			return s, true
		}
	}
	return Step{}, false
}

// Next returns the scenario after name on the path ("" after the last, or
// for a name not on it).
func (p *Path) Next(name string) string {
	steps := p.Steps()
	for i, s := range steps {
		if s.Name == name && i+1 < len(steps) {
			return steps[i+1].Name
		}
	}
	return ""
}

// Progress is the scenarios of the path the reader has finished (played to
// the end), as the page stores it.
type Progress struct {
	Done []string `json:"done"`
}

// MaxProgressSize bounds the stored progress read back: more is not ours.
const MaxProgressSize = 64 << 10

// ParseProgress reads stored progress; anything unreadable is no progress
// (the storage is the browser's, and a reader may have edited it).
func ParseProgress(data string) Progress {
	var p Progress
	if len(data) > MaxProgressSize || json.Unmarshal([]byte(data), &p) != nil {
		return Progress{}
	}
	return p
}

// Has reports whether name is finished.
func (pr Progress) Has(name string) bool {
	for _, n := range pr.Done {
		if n == name {
			return true
		}
	}
	return false
}

// Mark returns the progress with name finished, keeping only names on the
// path, in the path's order.
func (p *Path) Mark(pr Progress, name string) Progress {
	var out Progress
	for _, s := range p.Steps() {
		if s.Name == name || pr.Has(s.Name) {
			out.Done = append(out.Done, s.Name)
		}
	}
	return out
}

// String is the progress as stored.
func (pr Progress) String() string {
	b, _ := json.Marshal(pr)
	return string(b)
}

// Count is how many of the lesson's scenarios are finished.
func (p *Path) Count(pr Progress, lesson int) (done, total int) {
	if lesson < 1 || lesson > len(p.Lessons) {
		return 0, 0
	}
	for _, n := range p.Lessons[lesson-1].Scenarios {
		if pr.Has(n) {
			done++
		}
	}
	return done, len(p.Lessons[lesson-1].Scenarios)
}

// Group is one lesson's scenarios among those a library holds, for the
// picker: Number 0 and Title "" for the scenarios on no lesson.
type Group struct {
	Number  int
	Title   string
	Summary string
	// Names are the scenarios in the lesson's order; Numbers their
	// "LESSON.POSITION".
	Names, Numbers []string
}

// Groups sorts names (a library's scenarios) into the lessons, in the
// path's order, leaving out lessons with none of them; the names on no
// lesson come last, in their own order, in a group with Number 0.
func (p *Path) Groups(names []string) []Group {
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	var out []Group
	placed := map[string]bool{}
	for i, l := range p.Lessons {
		g := Group{Number: i + 1, Title: l.Title, Summary: l.Summary}
		for j, n := range l.Scenarios {
			if has[n] {
				g.Names = append(g.Names, n)
				g.Numbers = append(g.Numbers, Step{Lesson: i + 1, Position: j + 1}.Number())
				placed[n] = true
			}
		}
		if len(g.Names) > 0 {
			out = append(out, g)
		}
	}
	var rest Group
	for _, n := range names {
		if !placed[n] {
			rest.Names = append(rest.Names, n)
			rest.Numbers = append(rest.Numbers, "")
		}
	}
	if len(rest.Names) > 0 {
		out = append(out, rest)
	}
	return out
}
