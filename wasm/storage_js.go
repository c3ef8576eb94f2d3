//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/indexeddb"
	"github.com/hack-pad/hackpadfs/mem"

	"converge/core/library"
	"converge/core/view"
)

// storage is the page's library of saved scenarios and the editor's draft
// (core/library), shared by its instances. It opens hackpadfs' IndexedDB
// filesystem on first use; where that cannot be opened (no IndexedDB, as
// under Node; private browsing; a storage the browser refuses) it keeps
// them in a mem filesystem and says so once (Notice). A later write that
// IndexedDB refuses (its quota) moves it to memory the same way.
//
// IndexedDB calls block on JavaScript promises, so use must run in a
// goroutine, never in an event handler or a JS call into Go (which would
// block the event loop the promise needs): makePromise and app.async start
// one. Calls run one at a time, in the order they come.
type storage struct {
	// sem holds the right to use the store: one call at a time.
	sem   chan struct{}
	store *library.Store
	// unavailable is why IndexedDB could not be opened; nil when it was.
	unavailable error
	// open opens the persistent filesystem (indexedDBFS; tests pass
	// another).
	open func() (hackpadfs.FS, error)
	// noticed is the notice the page has shown already.
	noticed string
}

// StorageDatabase is the name of the page's IndexedDB database.
const StorageDatabase = "converge"

// storageOpenTimeout bounds how long the page waits for IndexedDB to open
// before it keeps the library in memory. It only bounds a hang (an open
// that another tab blocks): on a starved machine a healthy open took over
// 5 s of wall time and the page fell back to memory, losing the saved
// scenarios of that visit. The wait runs in a goroutine, so the page stays
// responsive meanwhile.
const storageOpenTimeout = 30 * time.Second

func newStorage(open func() (hackpadfs.FS, error)) *storage {
	return &storage{sem: make(chan struct{}, 1), open: open}
}

// use runs f on the store, opening it first if needed, and returns f's
// error. It blocks: call it from a goroutine.
func (s *storage) use(f func(st *library.Store) error) error {
	s.sem <- struct{}{}
	defer func() { <-s.sem }()
	if s.store == nil {
		if err := s.start(); err != nil {
			return err
		}
	}
	return f(s.store)
}

// start opens the persistent filesystem, or memory with unavailable set.
func (s *storage) start() error {
	opts := library.Options{Now: time.Now, Fallback: func() (hackpadfs.FS, error) { return mem.NewFS() }}
	fsys, err := s.open()
	if err == nil {
		s.store, err = library.New(fsys, opts)
	}
	if err == nil {
		return nil
	}
	s.unavailable = err
	m, merr := mem.NewFS()
	if merr != nil {
		return fmt.Errorf("the page's storage: %w", merr)
	}
	opts.Fallback = nil
	s.store, err = library.New(m, opts)
	return err
}

// Notice is the storage notice to show now: the text of
// view.StorageNotice when it is one the page has not shown yet, else "".
// It needs the store opened (call it from use's f or after).
func (s *storage) Notice() string {
	var degraded error
	if s.store != nil {
		degraded = s.store.Degraded()
	}
	n := view.StorageNotice(s.unavailable, degraded)
	if n == "" || n == s.noticed {
		return ""
	}
	s.noticed = n
	return n
}

// State is what the JS API's storage() reports.
type storageState struct {
	// Persistent is true while the library is in IndexedDB.
	Persistent bool `json:"persistent"`
	// Notice is why it is not ("" when it is).
	Notice string `json:"notice"`
}

func (s *storage) state() storageState {
	var degraded error
	if s.store != nil {
		degraded = s.store.Degraded()
	}
	n := view.StorageNotice(s.unavailable, degraded)
	return storageState{Persistent: n == "", Notice: n}
}

// indexedDBFS opens hackpadfs' IndexedDB filesystem, with an error (never
// a panic) where the browser has none or refuses it.
func indexedDBFS() (fsys hackpadfs.FS, err error) {
	defer func() {
		if r := recover(); r != nil {
			msg := panicText(r)
			if je, ok := r.(js.Error); ok {
				msg = jsErrorText(je.Value)
			}
			fsys, err = nil, fmt.Errorf("IndexedDB: %s", msg)
		}
	}()
	// Reading indexedDB itself throws where the page may not use it (a
	// sandboxed frame, some private windows). js.Value.Get does not catch
	// an exception of a getter (it would stop the Go runtime); Call does,
	// and panics with it, which the recover above turns into the error.
	if v := js.Global().Get("Reflect").Call("get", js.Global(), "indexedDB"); !v.Truthy() {
		return nil, errors.New("this browser offers no IndexedDB")
	}
	ctx, cancel := context.WithTimeout(context.Background(), storageOpenTimeout)
	defer cancel()
	fs, err := indexeddb.NewFS(ctx, StorageDatabase, indexeddb.Options{})
	if ctx.Err() != nil {
		return nil, fmt.Errorf("IndexedDB did not open within %v", storageOpenTimeout)
	}
	if err != nil {
		return nil, fmt.Errorf("IndexedDB: %w", err)
	}
	return fs, nil
}

// workSaver is a renderer that holds work of the user's own: the app's
// editor, with edits not applied.
type workSaver interface {
	// editedText is the editor's text and whether it holds edits.
	editedText() (string, bool)
}

// SaveWork keeps what the user would lose if the page stopped now (the Go
// runtime about to exit, say): Session.SaveWork decides what, with the
// text of an editor that holds edits. It returns the name the scenario was
// saved under, "" when it needed no saving. It blocks on IndexedDB: call
// it from a goroutine, never from an event handler.
func (i *Instance) SaveWork() (string, error) {
	if i.disposed || i.Sim == nil || i.storage == nil {
		return "", nil
	}
	var text string
	var edited bool
	for _, m := range i.mounts {
		if w, ok := m.renderer.(workSaver); ok {
			if text, edited = w.editedText(); edited {
				break
			}
		}
	}
	name := ""
	err := i.storage.use(func(st *library.Store) (err error) {
		name, err = i.Session.SaveWork(st, text, edited)
		return err
	})
	return name, err
}
