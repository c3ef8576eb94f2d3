// Package library keeps the user's own scenarios and the editor's draft on
// a hackpadfs filesystem: IndexedDB in the browser (wasm/ opens it and
// hands it in), a mem filesystem in tests and when the browser has no
// IndexedDB. Any hackpadfs.FS that can create directories, write, rename,
// remove and set times works; the package itself never touches the OS, the
// DOM or the wall clock (the clock is Options.Now).
//
// The layout, paths without a leading slash as hackpadfs wants them
// (docs/sharing.md):
//
//	converge/scenarios/NAME.yaml   a saved scenario, its modified time the file's
//	converge/draft.json            the editor's draft: {text, from, modified}
//
// A Store is not safe for concurrent use: the page runs its calls one at a
// time, in one goroutine (IndexedDB calls block on JavaScript promises, so
// they never run on the event loop itself).
package library

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/hack-pad/hackpadfs"

	"converge/core/scenario"
)

// Paths of the library on its filesystem.
const (
	Root         = "converge"
	ScenariosDir = Root + "/scenarios"
	DraftFile    = Root + "/draft.json"
	fileExt      = ".yaml"
)

// MaxEntries bounds how many scenarios the library keeps.
const MaxEntries = 500

// Errors of the library, for errors.Is. Their texts are shown to the user.
var (
	// ErrNotExist: no saved scenario has that name (it is fs.ErrNotExist).
	ErrNotExist = fs.ErrNotExist
	// ErrExist: a rename or duplicate would replace a saved scenario.
	ErrExist = fs.ErrExist
	// ErrInvalidName: see CheckName.
	ErrInvalidName = errors.New("invalid name")
	// ErrTooLarge: a scenario or draft beyond scenario.MaxFileSize.
	ErrTooLarge = scenario.ErrTooLarge
	// ErrFull: MaxEntries scenarios are saved already.
	ErrFull = fmt.Errorf("the library is full: it keeps at most %d scenarios; delete some first", MaxEntries)
)

// Options are a Store's choices.
type Options struct {
	// Now is the clock of the modified times; the page passes time.Now.
	Now func() time.Time
	// Fallback, when set, is where the store goes on when its filesystem
	// refuses a write (IndexedDB's quota, a storage the browser took
	// away): the store copies what it can still read there, keeps working
	// on it, and Degraded reports the error. The page passes a mem
	// filesystem.
	Fallback func() (hackpadfs.FS, error)
}

// Store is the library on one filesystem.
type Store struct {
	fs       hackpadfs.FS
	opts     Options
	degraded error
}

// Entry is one saved scenario.
type Entry struct {
	Name     string    `json:"name"`
	Modified time.Time `json:"modified"`
	Size     int64     `json:"size"`
}

// New returns the library on fsys, making its directories when they are
// missing.
func New(fsys hackpadfs.FS, opts Options) (*Store, error) {
	if opts.Now == nil {
		return nil, errors.New("library: Options.Now is required")
	}
	s := &Store{fs: fsys, opts: opts}
	if err := hackpadfs.MkdirAll(fsys, ScenariosDir, 0o755); err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	return s, nil
}

// Degraded is the error that made the store leave its first filesystem for
// Options.Fallback, or nil while it has not.
func (s *Store) Degraded() error { return s.degraded }

func file(name string) string { return ScenariosDir + "/" + name + fileExt }

// Save stores yaml as the scenario name, replacing one of that name, and
// returns its entry. The name must pass CheckName and yaml must be at most
// scenario.MaxFileSize; nothing is written otherwise.
func (s *Store) Save(name string, yaml []byte) (Entry, error) {
	if err := CheckName(name); err != nil {
		return Entry{}, err
	}
	if len(yaml) > scenario.MaxFileSize {
		return Entry{}, ErrTooLarge
	}
	exists, err := s.exists(name)
	if err != nil {
		return Entry{}, err
	}
	if !exists {
		if err := s.room(); err != nil {
			return Entry{}, err
		}
	}
	now := s.opts.Now().UTC().Truncate(time.Millisecond)
	if err := s.write(file(name), yaml, now); err != nil {
		return Entry{}, fmt.Errorf("save %q: %w", name, err)
	}
	return Entry{Name: name, Modified: now, Size: int64(len(yaml))}, nil
}

// List returns the saved scenarios, sorted by name.
func (s *Store) List() ([]Entry, error) {
	dirents, err := hackpadfs.ReadDir(s.fs, ScenariosDir)
	if err != nil {
		return nil, fmt.Errorf("list the saved scenarios: %w", err)
	}
	out := []Entry{}
	for _, d := range dirents {
		name, ok := strings.CutSuffix(d.Name(), fileExt)
		if !ok || d.IsDir() || CheckName(name) != nil {
			continue
		}
		info, err := hackpadfs.Stat(s.fs, file(name))
		if err != nil {
			return nil, fmt.Errorf("list the saved scenarios: %w", err)
		}
		out = append(out, Entry{Name: name, Modified: info.ModTime().UTC(), Size: info.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Open returns the YAML of the saved scenario name (ErrNotExist when there
// is none).
func (s *Store) Open(name string) ([]byte, error) {
	if err := CheckName(name); err != nil {
		return nil, err
	}
	info, err := hackpadfs.Stat(s.fs, file(name))
	if err != nil {
		return nil, notFound(name, err)
	}
	if info.Size() > scenario.MaxFileSize {
		return nil, ErrTooLarge
	}
	data, err := hackpadfs.ReadFile(s.fs, file(name))
	if err != nil {
		return nil, notFound(name, err)
	}
	return data, nil
}

// Rename gives the saved scenario old the name new; it keeps its modified
// time and refuses to replace another (ErrExist).
func (s *Store) Rename(old, new string) (Entry, error) {
	for _, n := range []string{old, new} {
		if err := CheckName(n); err != nil {
			return Entry{}, err
		}
	}
	info, err := hackpadfs.Stat(s.fs, file(old))
	if err != nil {
		return Entry{}, notFound(old, err)
	}
	if old == new {
		return Entry{Name: old, Modified: info.ModTime().UTC(), Size: info.Size()}, nil
	}
	if exists, err := s.exists(new); err != nil {
		return Entry{}, err
	} else if exists {
		return Entry{}, fmt.Errorf("%w: there is a saved scenario %q already", ErrExist, new)
	}
	data, err := s.Open(old)
	if err != nil {
		return Entry{}, err
	}
	// Write, then remove: a failure half-way leaves a copy, never nothing.
	if err := s.write(file(new), data, info.ModTime()); err != nil {
		return Entry{}, fmt.Errorf("rename %q: %w", old, err)
	}
	if err := hackpadfs.Remove(s.fs, file(old)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Entry{}, fmt.Errorf("rename %q: %w", old, err)
	}
	return Entry{Name: new, Modified: info.ModTime().UTC(), Size: info.Size()}, nil
}

// Duplicate saves a copy of name as "NAME copy" (or "NAME copy 2", ...,
// the first free one) and returns it.
func (s *Store) Duplicate(name string) (Entry, error) {
	data, err := s.Open(name)
	if err != nil {
		return Entry{}, err
	}
	copyName, err := s.FreeName(name + " copy")
	if err != nil {
		return Entry{}, err
	}
	return s.Save(copyName, data)
}

// Delete removes the saved scenario name (ErrNotExist when there is none).
func (s *Store) Delete(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	if _, err := hackpadfs.Stat(s.fs, file(name)); err != nil {
		return notFound(name, err)
	}
	if err := hackpadfs.Remove(s.fs, file(name)); err != nil {
		return fmt.Errorf("delete %q: %w", name, err)
	}
	return nil
}

// FreeName is base made a valid name (SanitizeName), or, when a saved
// scenario has it, the first of "base 2", "base 3", ... that none has.
func (s *Store) FreeName(base string) (string, error) {
	base = SanitizeName(base)
	for n := 1; n <= MaxEntries+1; n++ {
		name := base
		if n > 1 {
			suffix := fmt.Sprintf(" %d", n)
			name = cutRunes(base, MaxNameLength-len(suffix)) + suffix
		}
		exists, err := s.exists(name)
		if err != nil {
			return "", err
		}
		if !exists {
			return name, nil
		}
	}
	return "", ErrFull
}

func (s *Store) exists(name string) (bool, error) {
	_, err := hackpadfs.Stat(s.fs, file(name))
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, err
}

// room fails when the library holds MaxEntries scenarios.
func (s *Store) room() error {
	dirents, err := hackpadfs.ReadDir(s.fs, ScenariosDir)
	if err != nil {
		return err
	}
	if len(dirents) >= MaxEntries {
		return ErrFull
	}
	return nil
}

func notFound(name string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: there is no saved scenario %q", ErrNotExist, name)
	}
	return err
}

// write writes data to p with the modified time mtime; when the filesystem
// refuses and there is a fallback, the store moves there first (degrade)
// and writes again.
func (s *Store) write(p string, data []byte, mtime time.Time) error {
	err := writeFile(s.fs, p, data, mtime)
	if err == nil || s.opts.Fallback == nil || s.degraded != nil {
		return err
	}
	if derr := s.degrade(err); derr != nil {
		return fmt.Errorf("%w (and the memory fallback failed: %v)", err, derr)
	}
	return writeFile(s.fs, p, data, mtime)
}

func writeFile(fsys hackpadfs.FS, p string, data []byte, mtime time.Time) error {
	if err := hackpadfs.MkdirAll(fsys, path.Dir(p), 0o755); err != nil {
		return err
	}
	if err := hackpadfs.WriteFullFile(fsys, p, data, 0o644); err != nil {
		return err
	}
	return hackpadfs.Chtimes(fsys, p, mtime, mtime)
}

// degrade moves the store to Options.Fallback after cause, copying the
// saved scenarios and the draft it can still read.
func (s *Store) degrade(cause error) error {
	to, err := s.opts.Fallback()
	if err != nil {
		return err
	}
	if err := hackpadfs.MkdirAll(to, ScenariosDir, 0o755); err != nil {
		return err
	}
	if list, err := s.List(); err == nil {
		for _, e := range list {
			if data, err := s.Open(e.Name); err == nil {
				_ = writeFile(to, file(e.Name), data, e.Modified)
			}
		}
	}
	if data, err := hackpadfs.ReadFile(s.fs, DraftFile); err == nil && len(data) <= maxDraftFile {
		_ = writeFile(to, DraftFile, data, s.opts.Now())
	}
	s.fs, s.degraded = to, cause
	return nil
}

// marshalJSON is json.Marshal without HTML escaping.
func marshalJSON(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}
