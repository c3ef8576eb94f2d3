package view

import (
	"strings"

	"converge/core/sim"
)

// Intro is the scenario's name, title and description as the page heads
// it; the description is plain text.
type Intro struct {
	Name, Title, Description string
}

// IntroOf returns the scenario's intro; the title falls back to the name.
func IntroOf(s *sim.Sim) Intro {
	scn := s.Scenario()
	in := Intro{Name: scn.Name, Title: scn.Title, Description: strings.TrimSpace(scn.Description)}
	if in.Title == "" {
		in.Title = in.Name
	}
	return in
}
