package main

import (
	"regexp"
	"sort"
	"strings"
)

// mangle is a symbol name as Go's wasm linker writes it in the name
// section: every character other than a letter, digit, underscore or dot
// becomes an underscore (cmd/link/internal/wasm, nameRegexp), so
// "converge/core/kubectl.(*Env).Run" is "converge_core_kubectl.__Env_.Run".
func mangle(s string) string { return unsafeName.ReplaceAllString(s, "_") }

var unsafeName = regexp.MustCompile(`[^\w.]`)

// packageOf finds the package of a function name among the packages'
// mangled paths (longest first: "internal_runtime_maps" before
// "internal_runtime"). Type algorithms ("type:.eq.T", "type:.hash.T")
// count for the package of their type. A name of no listed package (the
// linker's own helpers) is "(linker)".
type packageOf struct {
	mangled []string          // longest first
	path    map[string]string // mangled → import path
}

func newPackageOf(paths []string) *packageOf {
	p := &packageOf{path: map[string]string{}}
	for _, path := range paths {
		m := mangle(path)
		p.path[m] = path
		p.mangled = append(p.mangled, m)
	}
	sort.Slice(p.mangled, func(i, j int) bool {
		if len(p.mangled[i]) != len(p.mangled[j]) {
			return len(p.mangled[i]) > len(p.mangled[j])
		}
		return p.mangled[i] < p.mangled[j]
	})
	return p
}

func (p *packageOf) of(name string) string {
	for _, prefix := range []string{"type_.eq.", "type_.hash."} {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			// Skip the type's decoration: "_2_" of [2]T, "__" of *T.
			name = strings.TrimLeft(rest, "_0123456789")
			break
		}
	}
	for _, m := range p.mangled {
		if strings.HasPrefix(name, m) && len(name) > len(m) && name[len(m)] == '.' {
			return p.path[m]
		}
	}
	return "(linker)"
}
