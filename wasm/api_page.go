//go:build js && wasm

package main

import (
	"syscall/js"

	"converge/core/session"
	"converge/core/version"
)

// page is the Go side of one page: its handle table and the raw bridge
// object that converge.js wraps. main makes one; tests make their own.
type page struct {
	instances *instances
	// def is the default instance (globalThis.converge's own methods).
	def *Instance
	// obj is the raw bridge object; funcs its functions.
	obj   js.Value
	funcs *funcs
	// storage is the page's library of saved scenarios and draft, shared
	// by its instances (storage_js.go).
	storage *storage
}

// newPage makes the raw bridge object for a page whose library is lib and
// whose instances draw with newRenderer (main passes newApp; nil draws
// nothing, as in the bridge's own tests):
//
//	version          the simulator's version
//	default          the default instance's raw object
//	create()         a new instance's raw object, or, beyond the page's
//	                 memory budget, the JSON of {ok: false, error}
//	scenarios()      JSON [{name, title, description}]
//	fromFragment(s)  the YAML a share payload carries, or an Error
//	toFragment(yaml) the share payload of a YAML text, or an Error
//	count()          how many instances are alive
func newPage(lib *session.Library, newRenderer RendererFunc) *page {
	p := &page{instances: newInstances(lib, newRenderer), storage: newStorage(indexedDBFS)}
	p.instances.storage = p.storage
	p.funcs = &funcs{obj: js.Global().Get("Object").New()}
	p.obj = p.funcs.obj
	p.obj.Set("version", version.Version)
	p.def = p.instances.create()
	p.obj.Set("default", p.newObject(p.def))
	f := p.funcs
	f.set("create", valueFunc, func(a args) (any, error) {
		if err := a.atMost(0); err != nil {
			return nil, err
		}
		if err := p.instances.checkBudget(); err != nil {
			return session.FailedCreate(err), nil
		}
		return p.newObject(p.instances.create()), nil
	})
	f.set("scenarios", valueFunc, func(a args) (any, error) {
		return session.JSON(lib.List()), nil
	})
	f.set("fromFragment", valueFunc, func(a args) (any, error) {
		s, err := a.str(0, "the share payload")
		if err != nil {
			return nil, err
		}
		return session.FromFragment(s)
	})
	f.set("toFragment", valueFunc, func(a args) (any, error) {
		s, err := a.str(0, "the scenario YAML")
		if err != nil {
			return nil, err
		}
		return session.ToFragment(s)
	})
	f.set("count", valueFunc, func(a args) (any, error) {
		return p.instances.len(), nil
	})
	return p
}
