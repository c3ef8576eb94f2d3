package main

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	osfs "github.com/hack-pad/hackpadfs/os"

	"converge/core/scenario"
)

// readInput reads a file named on the command line through hackpadfs' OS
// filesystem (core reads files only as io/fs.FS); "-" reads standard input.
func readInput(e *env, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(e.stdin)
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, err
	}
	fsys := osfs.NewFS()
	p, err := fsys.FromOSPath(abs)
	if err != nil {
		return nil, err
	}
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return nil, &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
		}
		return nil, err
	}
	return b, nil
}

// loadScenario reads and parses a scenario or manifest file. Notes are
// printed to stderr; errors are printed as FILE:LINE:COL lines and returned
// as a bad-input exit.
func loadScenario(e *env, name string) (*scenario.Scenario, error) {
	data, err := readInput(e, name)
	if err != nil {
		return nil, badInput(err)
	}
	file := name
	if name == "-" {
		file = "<stdin>"
	}
	scn, probs := scenario.Parse(data, file)
	for _, p := range probs {
		if p.Note {
			fprintln(e.stderr, p.String())
		}
	}
	if probs.HasErrors() {
		for _, p := range probs {
			if !p.Note {
				fprintln(e.stderr, p.String())
			}
		}
		return nil, badInput(nil)
	}
	return scn, nil
}

func fprintln(w io.Writer, s string) {
	io.WriteString(w, strings.TrimRight(s, "\n")+"\n")
}
