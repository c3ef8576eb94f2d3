//go:build js && wasm

package main

import (
	"converge/core/library"
	"converge/core/session"
)

// The raw functions of My scenarios (the page's library, storage_js.go) and
// of the downloads, on each instance's object. The library's functions
// return Promises (makePromise: IndexedDB blocks, so the work runs in a
// goroutine) that resolve with JSON strings, which web/converge.js parses;
// a wrong argument is still thrown at once, as a TypeError. docs/js-api.md
// documents them:
//
//	save(name)              → Promise<{name, modified, size}>: the scenario as it runs
//	saved()                 → Promise<[{name, modified, size}]>, by name
//	openSaved(name)         → Promise<LoadResult>: loads it, as load does
//	deleteSaved(name)       → Promise<undefined>
//	renameSaved(old, new)   → Promise<{name, modified, size}>
//	duplicateSaved(name)    → Promise<{name, modified, size}>
//	storage()               → Promise<{persistent, notice}>
//	exportScenario(), exportKubectl(), exportTrace(), exportCharts()
//	                        → {name, type, text}: the downloads
//
// modified is an RFC 3339 time in UTC with milliseconds
// ("2026-03-05T14:02:11.532Z"), which new Date() reads.

func (p *page) saving(f *funcs, inst *Instance) {
	// promised defines a function that returns a Promise of work's result.
	promised := func(name string, work func(a args) (func() (any, error), error)) {
		f.set(name, valueFunc, func(a args) (any, error) {
			if inst.disposed {
				return nil, errDisposed(inst)
			}
			run, err := work(a)
			if err != nil {
				return nil, err
			}
			return makePromise(name, run), nil
		})
	}
	entry := func(do func(st *library.Store) (library.Entry, error)) func() (any, error) {
		return func() (any, error) {
			var e library.Entry
			err := p.storage.use(func(st *library.Store) (err error) {
				e, err = do(st)
				return err
			})
			if err != nil {
				return nil, err
			}
			return session.JSON(e), nil
		}
	}
	promised("save", func(a args) (func() (any, error), error) {
		name, err := a.str(0, "the name")
		if err != nil {
			return nil, err
		}
		if err := live(inst); err != nil {
			return nil, err
		}
		// The scenario as it runs now, not when the promise settles.
		yaml, err := inst.Sim.Scenario().Marshal()
		if err != nil {
			return nil, err
		}
		return entry(func(st *library.Store) (library.Entry, error) {
			e, err := st.Save(name, yaml)
			if err == nil {
				inst.SavedAs = name
			}
			return e, err
		}), nil
	})
	promised("saved", func(a args) (func() (any, error), error) {
		if err := a.atMost(0); err != nil {
			return nil, err
		}
		return func() (any, error) {
			var list []library.Entry
			err := p.storage.use(func(st *library.Store) (err error) {
				list, err = st.List()
				return err
			})
			if err != nil {
				return nil, err
			}
			return session.JSON(list), nil
		}, nil
	})
	promised("openSaved", func(a args) (func() (any, error), error) {
		name, err := a.str(0, "the name")
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			data, err := p.readSaved(name)
			if err != nil {
				return nil, err
			}
			return session.JSON(session.NewLoadResult(inst.OpenSaved(name, data))), nil
		}, nil
	})
	promised("deleteSaved", func(a args) (func() (any, error), error) {
		name, err := a.str(0, "the name")
		if err != nil {
			return nil, err
		}
		return func() (any, error) {
			return nil, p.storage.use(func(st *library.Store) error { return st.Delete(name) })
		}, nil
	})
	promised("renameSaved", func(a args) (func() (any, error), error) {
		old, err := a.str(0, "the name")
		if err != nil {
			return nil, err
		}
		new, err := a.str(1, "the new name")
		if err != nil {
			return nil, err
		}
		return entry(func(st *library.Store) (library.Entry, error) { return st.Rename(old, new) }), nil
	})
	promised("duplicateSaved", func(a args) (func() (any, error), error) {
		name, err := a.str(0, "the name")
		if err != nil {
			return nil, err
		}
		return entry(func(st *library.Store) (library.Entry, error) { return st.Duplicate(name) }), nil
	})
	promised("storage", func(a args) (func() (any, error), error) {
		return func() (any, error) {
			var st storageState
			err := p.storage.use(func(*library.Store) error {
				st = p.storage.state()
				return nil
			})
			return session.JSON(st), err
		}, nil
	})
}

// readSaved reads the saved scenario name. It blocks: call it from a
// goroutine.
func (p *page) readSaved(name string) ([]byte, error) {
	var data []byte
	err := p.storage.use(func(st *library.Store) (err error) {
		data, err = st.Open(name)
		return err
	})
	return data, err
}

// exportJSON is a download as the JS API returns it.
type exportJSON struct {
	Name string `json:"name"`
	Type string `json:"type"`
	Text string `json:"text"`
}

func (p *page) exporting(f *funcs, inst *Instance) {
	file := func(name string, make func() (session.File, error)) {
		f.set(name, valueFunc, func(a args) (any, error) {
			if err := a.atMost(0); err != nil {
				return nil, err
			}
			if err := live(inst); err != nil {
				return nil, err
			}
			out, err := make()
			if err != nil {
				return nil, err
			}
			return session.JSON(exportJSON{Name: out.Name, Type: out.Type, Text: string(out.Data)}), nil
		})
	}
	file("exportScenario", func() (session.File, error) { return session.ScenarioFile(inst.Sim.Scenario()) })
	file("exportKubectl", func() (session.File, error) { return session.KubectlFile(inst.Sim.Scenario()) })
	file("exportTrace", func() (session.File, error) { return session.TraceFile(inst.Sim.Scenario()) })
	file("exportCharts", func() (session.File, error) { return session.ChartsFile(inst.Sim, ""), nil })
}
