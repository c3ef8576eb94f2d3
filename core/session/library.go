package session

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"converge/core/manifest"
)

// PreferredDefaults are the built-in scenarios the page opens when its
// address names none, the first that exists winning; failing all of them,
// the library's first scenario by name. The first is the learning path's
// first lesson (scenarios/path/lessons.yaml; library_test.go checks).
var PreferredDefaults = []string{"desired-state", "rolling-update", "basic-loop"}

// Info describes one built-in scenario for the picker.
type Info struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
}

// Library is the built-in scenario library: NAME.yaml files at the root of
// an fs.FS (the scenarios package's embed.FS). It reads the files once, on
// first use.
type Library struct {
	fsys  fs.FS
	infos []Info
	read  bool
}

// NewLibrary returns the library of fsys.
func NewLibrary(fsys fs.FS) *Library { return &Library{fsys: fsys} }

// List returns the scenarios sorted by name, with the title and description
// their files declare (a file that does not parse is listed under its name).
func (l *Library) List() []Info {
	if !l.read {
		l.read = true
		names, _ := fs.Glob(l.fsys, "*.yaml")
		sort.Strings(names)
		for _, file := range names {
			name := strings.TrimSuffix(path.Base(file), ".yaml")
			info := Info{Name: name, Title: name}
			if data, err := fs.ReadFile(l.fsys, file); err == nil {
				info.Title, info.Description = header(data, name)
			}
			l.infos = append(l.infos, info)
		}
	}
	return append([]Info(nil), l.infos...)
}

// header reads a scenario's title and description (name when it has no
// title) from its YAML alone: the page lists the library before anything
// is loaded, and parsing and validating every scenario then cost the first
// render most of a second in wasm. Loading one still checks it whole.
func header(data []byte, name string) (title, description string) {
	docs, probs := manifest.ParseDocuments(data, name)
	if probs.HasErrors() || len(docs) != 1 || docs[0].Content[0].Kind != yaml.MappingNode {
		return name, ""
	}
	root := docs[0].Content[0]
	title = name
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			continue
		}
		switch k.Value {
		case "title":
			if v.Value != "" {
				title = v.Value
			}
		case "description":
			description = v.Value
		}
	}
	return title, description
}

// Has reports whether the library holds a scenario called name.
func (l *Library) Has(name string) bool {
	for _, in := range l.List() {
		if in.Name == name {
			return true
		}
	}
	return false
}

// Source returns the YAML of the built-in scenario name.
func (l *Library) Source(name string) ([]byte, error) {
	if !l.Has(name) {
		return nil, &UnknownScenarioError{Name: name, Known: l.names()}
	}
	data, err := fs.ReadFile(l.fsys, name+".yaml")
	if err != nil {
		return nil, fmt.Errorf("built-in scenario %q: %w", name, err)
	}
	return data, nil
}

// Default is the name of the scenario the page opens when told nothing
// (see PreferredDefaults); "" for an empty library.
func (l *Library) Default() string {
	for _, name := range PreferredDefaults {
		if l.Has(name) {
			return name
		}
	}
	if list := l.List(); len(list) > 0 {
		return list[0].Name
	}
	return ""
}

func (l *Library) names() []string {
	list := l.List()
	out := make([]string, len(list))
	for i, in := range list {
		out[i] = in.Name
	}
	return out
}

// UnknownScenarioError is the error for a built-in name the library does
// not hold. Its text lists the names it does hold.
type UnknownScenarioError struct {
	Name  string
	Known []string
}

func (e *UnknownScenarioError) Error() string {
	if len(e.Known) == 0 {
		return fmt.Sprintf("there is no built-in scenario %q (the library is empty)", e.Name)
	}
	return fmt.Sprintf("there is no built-in scenario %q; the built-in ones are %s", e.Name, strings.Join(e.Known, ", "))
}
