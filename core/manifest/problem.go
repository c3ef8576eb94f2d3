package manifest

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Problem is one thing wrong (or, with Note set, worth saying) about an input
// file, at a 1-based line and column. Line 0 means the problem concerns the
// file as a whole (for example, it cannot be read).
type Problem struct {
	File      string
	Line, Col int
	Message   string
	// Note marks information that does not make the input invalid, such as a
	// dropped server-set field.
	Note bool
}

// String renders `FILE:LINE:COL: message`, or `FILE:LINE:COL: note: message`
// for a note. An empty File or a zero Line leaves that part out.
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		b.WriteString(":")
	}
	if p.Line > 0 {
		fmt.Fprintf(&b, "%d:%d:", p.Line, max(p.Col, 1))
	}
	if b.Len() > 0 {
		b.WriteString(" ")
	}
	if p.Note {
		b.WriteString("note: ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems is every problem found in an input. As an error it renders one
// problem per line, the first MaxShown of them.
type Problems []Problem

var _ error = Problems(nil)

// MaxShown is how many problems are shown wherever they are printed or
// returned (the command line, the page's editor, the JS API): the first
// 100, in order, and then a count of the rest (MoreText), since one bad
// anchor aliased 60,000 times is 60,001 problems at one place.
const MaxShown = 100

// Head returns the first MaxShown problems and how many more there are.
func (ps Problems) Head() (Problems, int) {
	if len(ps) <= MaxShown {
		return ps, 0
	}
	return ps[:MaxShown], len(ps) - MaxShown
}

// MoreText is the line that stands for n problems not shown: "... and
// 59,901 more problems" ("" for none).
func MoreText(n int) string {
	switch {
	case n <= 0:
		return ""
	case n == 1:
		return "... and 1 more problem"
	}
	return "... and " + Thousands(int64(n)) + " more problems"
}

// Error implements error: one problem per line, the first MaxShown and a
// line that counts the rest.
func (ps Problems) Error() string {
	shown, more := ps.Head()
	lines := make([]string, len(shown), len(shown)+1)
	for i, p := range shown {
		lines[i] = p.String()
	}
	if more > 0 {
		lines = append(lines, MoreText(more))
	}
	return strings.Join(lines, "\n")
}

// HasErrors reports whether any problem is not a note.
func (ps Problems) HasErrors() bool {
	for _, p := range ps {
		if !p.Note {
			return true
		}
	}
	return false
}

// Errors returns the problems that are not notes.
func (ps Problems) Errors() Problems {
	return ps.filter(false)
}

// Notes returns the notes.
func (ps Problems) Notes() Problems {
	return ps.filter(true)
}

func (ps Problems) filter(note bool) Problems {
	var out Problems
	for _, p := range ps {
		if p.Note == note {
			out = append(out, p)
		}
	}
	return out
}

// Err returns the errors as an error, or nil when there are only notes.
func (ps Problems) Err() error {
	if errs := ps.Errors(); len(errs) > 0 {
		return errs
	}
	return nil
}

// Sort orders the problems by line and column, keeping the order of
// problems at the same place.
func (ps Problems) Sort() {
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Line != ps[j].Line {
			return ps[i].Line < ps[j].Line
		}
		return ps[i].Col < ps[j].Col
	})
}

// Thousands writes n in decimal with commas between groups of three digits,
// as the messages write counts and sizes: 4,194,304.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
