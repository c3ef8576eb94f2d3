package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	osfs "github.com/hack-pad/hackpadfs/os"

	"converge/core/kubectl"
	"converge/core/manifest"
	"converge/core/scenario"
)

// stdinName is how problems name standard input ("-" on the command line).
const stdinName = "<stdin>"

// displayName is how problems name the input called name on the command
// line.
func displayName(name string) string {
	if name == "-" {
		return stdinName
	}
	return name
}

// readInput reads a file named on the command line through hackpadfs' OS
// filesystem (core reads files only as io/fs.FS); "-" reads standard input.
// Either is read with scenario.ReadAll: at most scenario.MaxFileSize bytes,
// so that a larger input is refused without being held in memory.
func readInput(e *env, name string) ([]byte, error) {
	if name == "-" {
		data, err := scenario.ReadAll(e.stdin)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", stdinName, err)
		}
		return data, nil
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
	f, err := fsys.Open(p)
	if err != nil {
		return nil, renamed(err, name)
	}
	defer f.Close()
	data, err := scenario.ReadAll(f)
	if errors.Is(err, scenario.ErrTooLarge) {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err != nil {
		return nil, renamed(err, name)
	}
	return data, nil
}

// osFiles is the OS filesystem as an io/fs.FS (hackpadfs' paths have no
// leading "/"), and the working directory as a path in it.
func osFiles() (fs.FS, string, error) {
	fsys := osfs.NewFS()
	wd, err := filepath.Abs(".")
	if err != nil {
		return nil, "", err
	}
	dir, err := fsys.FromOSPath(wd)
	if err != nil {
		return nil, "", err
	}
	return fsys, dir, nil
}

// renamed names the file in a path error as the user did, not by its path
// in the filesystem.
func renamed(err error, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return err
}

// kubectlFiles gives env the files and standard input of `converge
// kubectl`: `-f FILE` reads the OS filesystem from the working directory,
// `-f -` reads standard input; each at most scenario.MaxFileSize bytes.
func kubectlFiles(e *env, env *kubectl.Env) error {
	fsys, dir, err := osFiles()
	if err != nil {
		return err
	}
	env.Files, env.Dir = boundedFS{fsys}, dir
	env.Stdin = &boundedReader{r: e.stdin}
	return nil
}

// boundedFS opens files that read as boundedReader does.
type boundedFS struct{ fsys fs.FS }

func (b boundedFS) Open(name string) (fs.File, error) {
	f, err := b.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return &boundedFile{File: f, r: &boundedReader{r: f}}, nil
}

type boundedFile struct {
	fs.File
	r *boundedReader
}

func (f *boundedFile) Read(p []byte) (int, error) { return f.r.Read(p) }

// boundedReader reads r with scenario.ReadAll on its first Read, so that
// nothing is read from r until a command asks (a terminal's standard input
// is never waited for) and never more than the limit.
type boundedReader struct {
	r    io.Reader
	data *bytes.Reader
	err  error
}

func (b *boundedReader) Read(p []byte) (int, error) {
	if b.data == nil && b.err == nil {
		var data []byte
		data, b.err = scenario.ReadAll(b.r)
		b.data = bytes.NewReader(data)
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.data.Read(p)
}

// loadScenario reads and parses a scenario or manifest file. Notes are
// printed to stderr; errors are printed as FILE:LINE:COL lines and returned
// as a bad-input exit.
func loadScenario(e *env, name string) (*scenario.Scenario, error) {
	data, err := readInput(e, name)
	if err != nil {
		return nil, badInput(err)
	}
	scn, probs := scenario.Parse(data, displayName(name))
	printProblems(e.stderr, probs.Notes())
	if probs.HasErrors() {
		printProblems(e.stderr, probs.Errors())
		return nil, badInput(nil)
	}
	return scn, nil
}

// printProblems prints the first manifest.MaxShown problems, one per line
// (FILE:LINE:COL: message), and a line that counts the rest.
func printProblems(w io.Writer, probs scenario.Problems) {
	shown, more := probs.Head()
	for _, p := range shown {
		fprintln(w, p.String())
	}
	if more > 0 {
		fprintln(w, manifest.MoreText(more))
	}
}

func fprintln(w io.Writer, s string) {
	io.WriteString(w, strings.TrimRight(s, "\n")+"\n")
}
