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
	in := Intro{Name: scn.Name, Title: scn.Title, Description: Reflow(scn.Description)}
	if in.Title == "" {
		in.Title = in.Name
	}
	return in
}

// Reflow joins the lines of each paragraph of a YAML block text into one
// line, so that the page wraps it to its width: paragraphs stay apart (a
// blank line), and lines that start a list item ("- ", "* ", "1. ") or are
// indented keep their own line.
func Reflow(text string) string {
	var b strings.Builder
	lines := strings.Split(strings.TrimSpace(text), "\n")
	for i, l := range lines {
		trimmed := strings.TrimRight(l, " \t")
		switch {
		case i == 0:
		case trimmed == "" || strings.TrimSpace(lines[i-1]) == "":
			if trimmed == "" {
				continue
			}
			b.WriteString("\n\n")
		case keepsLine(trimmed):
			b.WriteString("\n")
		default:
			b.WriteString(" ")
		}
		b.WriteString(trimmed)
	}
	return b.String()
}

func keepsLine(l string) bool {
	if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") || strings.HasPrefix(l, "- ") || strings.HasPrefix(l, "* ") {
		return true
	}
	i := 0
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i > 0 && strings.HasPrefix(l[i:], ". ")
}
