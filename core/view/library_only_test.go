package view

// The built-in library as a list: only the tests read it (the page lists
// the library through wasm/bridge.Library).

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"converge/core/scenario"
)

// Entry is one built-in scenario in the picker.
type Entry struct {
	// Name is the file name without .yaml (what ?scenario=NAME takes).
	Name        string
	Title       string
	Description string
}

// DefaultScenario is the scenario a page without one opens.
const DefaultScenario = "basic-loop"

// Library lists the scenarios of fsys (NAME.yaml at its root), with their
// titles and descriptions, DefaultScenario first and the rest by name. A
// file that does not parse is listed with its name as title.
func Library(fsys fs.FS) []Entry {
	names, err := fs.Glob(fsys, "*.yaml")
	if err != nil {
		return nil
	}
	var out []Entry
	for _, n := range names {
		e := Entry{Name: strings.TrimSuffix(path.Base(n), ".yaml")}
		data, err := fs.ReadFile(fsys, n)
		if err != nil {
			continue
		}
		if scn, probs := scenario.Parse(data, n); !probs.HasErrors() && scn != nil {
			e.Title, e.Description = scn.Title, strings.TrimSpace(scn.Description)
		}
		if e.Title == "" {
			e.Title = e.Name
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if (out[i].Name == DefaultScenario) != (out[j].Name == DefaultScenario) {
			return out[i].Name == DefaultScenario
		}
		return out[i].Name < out[j].Name
	})
	return out
}
