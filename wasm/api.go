//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"math"
	"syscall/js"

	"converge/core/session"
)

// The raw functions of one instance's JS object. web/converge.js wraps them
// into the documented API (class Simulation): snapshots and other
// structured results cross as JSON strings that it parses, and a returned
// Error object is thrown. Each function decodes its arguments, makes one
// call into the instance (or core/sim, core/scenario) and encodes the
// result; none holds Kubernetes logic.

// newObject makes inst's JS object; dispose releases its functions.
func (p *page) newObject(inst *Instance) js.Value {
	f := &funcs{obj: js.Global().Get("Object").New(), before: inst.finishOpen}
	f.obj.Set("id", inst.ID)
	p.loading(f, inst)
	p.stepping(f, inst)
	p.reading(f, inst)
	p.mounting(f, inst)
	p.saving(f, inst)
	p.exporting(f, inst)
	inst.obj = f.obj
	inst.funcs = f.list
	return f.obj
}

// errDisposed is the error of a call on a disposed instance.
func errDisposed(inst *Instance) error {
	return fmt.Errorf("simulation %d is disposed", inst.ID)
}

// live fails when inst is disposed or has no simulation yet.
func live(inst *Instance) error {
	if inst.disposed {
		return errDisposed(inst)
	}
	if inst.Sim == nil {
		return session.ErrNoScenario
	}
	return nil
}

func (p *page) loading(f *funcs, inst *Instance) {
	f.set("load", outcomeFunc, func(a args) (any, error) {
		src, err := a.str(0, "the scenario YAML")
		if err != nil {
			return nil, err
		}
		return session.JSON(session.NewLoadResult(inst.Load([]byte(src)))), nil
	})
	f.set("loadBuiltin", outcomeFunc, func(a args) (any, error) {
		name, err := a.str(0, "the scenario name")
		if err != nil {
			return nil, err
		}
		r, err := inst.LoadBuiltinResult(name)
		if err != nil {
			return nil, err
		}
		return session.JSON(r), nil
	})
	f.set("validate", outcomeFunc, func(a args) (any, error) {
		src, err := a.str(0, "the scenario YAML")
		if err != nil {
			return nil, err
		}
		return session.JSON(session.Validate([]byte(src), "scenario.yaml")), nil
	})
	f.set("open", outcomeFunc, func(a args) (any, error) {
		addr, err := openAddress(a)
		if err != nil {
			return nil, err
		}
		return session.JSON(inst.Open(addr).Result()), nil
	})
	f.set("openURL", outcomeFunc, func(a args) (any, error) {
		href, err := a.str(0, "the URL")
		if err != nil {
			return nil, err
		}
		return session.JSON(inst.Open(session.ParseAddress(href)).Result()), nil
	})
	// openAsync and openURLAsync are open and openURL with the open's own
	// work in slices (open_slices.go): a Promise of the OpenResult's JSON.
	f.set("openAsync", valueFunc, func(a args) (any, error) {
		addr, err := openAddress(a)
		if err != nil {
			return nil, err
		}
		return openPromise(inst, addr), nil
	})
	f.set("openURLAsync", valueFunc, func(a args) (any, error) {
		href, err := a.str(0, "the URL")
		if err != nil {
			return nil, err
		}
		return openPromise(inst, session.ParseAddress(href)), nil
	})
}

// openPromise starts inst's open of addr in slices and returns a Promise
// of its result's JSON.
func openPromise(inst *Instance, addr session.Address) js.Value {
	var resolve js.Value
	executor := js.FuncOf(func(_ js.Value, a []js.Value) any {
		resolve = a[0]
		return nil
	})
	promise := js.Global().Get("Promise").New(executor)
	executor.Release()
	inst.OpenInSlices(addr, func(result string) { resolve.Invoke(result) })
	return promise
}

// openAddress reads open's argument, the attributes of <converge-sim>:
// {scenario, share, t, embed, compare}.
func openAddress(a args) (session.Address, error) {
	attrs, err := a.object(0, "the attributes", true)
	if err != nil {
		return session.Address{}, err
	}
	addr := session.Address{}
	if attrs.Type() == js.TypeObject {
		// A share or scenario that is not a string is a mistake to say,
		// not a request for the default ({share: 42} opened it silently).
		for _, name := range []string{"scenario", "share"} {
			if v := attrs.Get(name); !v.IsUndefined() && !v.IsNull() && v.Type() != js.TypeString {
				return session.Address{}, a.errorf("%s must be a string, not %s", name, typeName(v))
			}
		}
		addr.Scenario = stringProp(attrs, "scenario")
		addr.Share = stringProp(attrs, "share")
		addr.HasShare = attrs.Get("share").Type() == js.TypeString
		addr.T = stringProp(attrs, "t")
		addr.Embed = attrs.Get("embed").Truthy()
		addr.Compare = attrs.Get("compare").Truthy()
	}
	return addr, nil
}

// stringProp is obj[name] when it is a string, "" otherwise (a number
// attribute such as t: 30 is read as its decimal form).
func stringProp(obj js.Value, name string) string {
	v := obj.Get(name)
	switch v.Type() {
	case js.TypeString:
		return v.String()
	case js.TypeNumber:
		return fmt.Sprint(v.Float())
	}
	return ""
}

// argErr makes a session's refusal of an argument (a *session.ArgError)
// an argument error of a's call, thrown as a TypeError.
func argErr(a args, err error) error {
	var ae *session.ArgError
	if errors.As(err, &ae) {
		return a.errorf("%s", ae.Msg)
	}
	return err
}

func (p *page) stepping(f *funcs, inst *Instance) {
	// snapshot is step's, seek's and delta's result: with a number as
	// argument i (the snapshot converge.js holds), what changed since it
	// (Session.TraceDelta); without, the trace line.
	snapshot := func(a args, i int) (any, error) {
		if held := a.get(i); held.Type() == js.TypeNumber {
			return inst.TraceDelta(int64(held.Float()))
		}
		return inst.TraceLine()
	}
	// steps checks step's and advance's argument and steps; a step that
	// would keep the page busy beyond about a second is refused.
	steps := func(a args) error {
		if err := live(inst); err != nil {
			return err
		}
		n, err := a.integer(0, "seconds", 1)
		if err != nil {
			return err
		}
		if err := inst.CheckStep(a.fn, n); err != nil {
			return argErr(a, err)
		}
		inst.Step(int(n))
		return nil
	}
	f.set("step", valueFunc, func(a args) (any, error) {
		if err := steps(a); err != nil {
			return nil, err
		}
		return snapshot(a, 1)
	})
	f.set("advance", valueFunc, func(a args) (any, error) {
		if err := steps(a); err != nil {
			return nil, err
		}
		return inst.Sim.T(), nil
	})
	// target checks the second that seek, moveTo and seekAsync take.
	target := func(a args) (int64, error) {
		if err := live(inst); err != nil {
			return 0, err
		}
		t, err := a.integer(0, "t", -1)
		if err != nil {
			return 0, err
		}
		return t, argErr(a, session.CheckTarget(t, typeName(a.get(0))))
	}
	// seeks checks seek's and moveTo's argument and seeks; a seek that
	// would keep the page busy beyond about a second is refused.
	seeks := func(a args) error {
		t, err := target(a)
		if err != nil {
			return err
		}
		if err := inst.CheckSeek(a.fn, t); err != nil {
			return err
		}
		inst.SeekTo(t)
		return nil
	}
	f.set("seekAsync", valueFunc, func(a args) (any, error) {
		t, err := target(a)
		if err != nil {
			return nil, err
		}
		opts, err := a.object(1, "the options", true)
		if err != nil {
			return nil, err
		}
		onProgress, signal := js.Undefined(), js.Undefined()
		if opts.Type() == js.TypeObject {
			onProgress, signal = opts.Get("onProgress"), opts.Get("signal")
			if !onProgress.IsUndefined() && onProgress.Type() != js.TypeFunction {
				return nil, a.errorf("options.onProgress must be a function, not %s", typeName(onProgress))
			}
			if !signal.IsUndefined() && (signal.Type() != js.TypeObject || signal.Get("aborted").Type() != js.TypeBoolean) {
				return nil, a.errorf("options.signal must be an AbortSignal, not %s", typeName(signal))
			}
		}
		return seekPromise(inst, t, onProgress, signal), nil
	})
	f.set("seek", valueFunc, func(a args) (any, error) {
		if err := seeks(a); err != nil {
			return nil, err
		}
		return snapshot(a, 1)
	})
	f.set("delta", valueFunc, func(a args) (any, error) {
		if err := live(inst); err != nil {
			return nil, err
		}
		return snapshot(a, 0)
	})
	f.set("moveTo", valueFunc, func(a args) (any, error) {
		if err := seeks(a); err != nil {
			return nil, err
		}
		return inst.Sim.T(), nil
	})
	f.set("run", outcomeFunc, func(a args) (any, error) {
		if inst.disposed {
			return nil, errDisposed(inst)
		}
		line, err := a.str(0, "the command line")
		if err != nil {
			return nil, err
		}
		return session.JSON(inst.Run(line)), nil
	})
	f.set("removeStep", outcomeFunc, func(a args) (any, error) {
		if inst.disposed {
			return nil, errDisposed(inst)
		}
		v := a.get(0)
		if v.Type() != js.TypeNumber || v.Float() != math.Trunc(v.Float()) || math.Abs(v.Float()) > 1<<31 {
			return nil, a.errorf("the step's index must be a whole number, not %s", typeName(v))
		}
		if err := inst.RemoveStep(v.Int()); err != nil {
			return nil, err
		}
		return `{"ok":true}`, nil
	})
}

func (p *page) reading(f *funcs, inst *Instance) {
	// value defines a function of no arguments that needs a simulation.
	value := func(name string, get func() (any, error)) {
		f.set(name, valueFunc, func(a args) (any, error) {
			if err := a.atMost(0); err != nil {
				return nil, err
			}
			if err := live(inst); err != nil {
				return nil, err
			}
			return get()
		})
	}
	for _, name := range session.Values {
		value(name, func() (any, error) { return inst.Value(name) })
	}
	f.set("rolloutTimes", valueFunc, func(a args) (any, error) {
		if err := live(inst); err != nil {
			return nil, err
		}
		name := ""
		if a.get(0).Type() != js.TypeUndefined {
			var err error
			if name, err = a.str(0, "the Deployment's name"); err != nil {
				return nil, err
			}
		}
		return session.JSON(inst.RolloutTimes(name)), nil
	})
	f.set("error", valueFunc, func(a args) (any, error) { return inst.Err, nil })
	f.set("complete", valueFunc, func(a args) (any, error) {
		if inst.disposed {
			return nil, errDisposed(inst)
		}
		line, err := a.str(0, "the command line")
		if err != nil {
			return nil, err
		}
		return session.JSON(inst.Complete(line)), nil
	})
}

func (p *page) mounting(f *funcs, inst *Instance) {
	f.set("mount", valueFunc, func(a args) (any, error) {
		if inst.disposed {
			return nil, errDisposed(inst)
		}
		root, err := a.object(0, "the element", false)
		if err != nil {
			return nil, err
		}
		if root.Get("nodeType").Type() != js.TypeNumber {
			return nil, a.errorf("the element must be a DOM element or shadow root")
		}
		opts, err := a.object(1, "the options", true)
		if err != nil {
			return nil, err
		}
		mo, err := mountOptions(a, opts)
		if err != nil {
			return nil, err
		}
		return inst.Mount(root, mo), nil
	})
	f.set("unmount", valueFunc, func(a args) (any, error) {
		root, err := a.object(0, "the element", false)
		if err != nil {
			return nil, err
		}
		inst.Unmount(root)
		return nil, nil
	})
	f.set("dispose", valueFunc, func(a args) (any, error) {
		p.instances.remove(inst.ID)
		return nil, nil
	})
}

// mountOptions reads mount's options object (docs/js-api.md): embed,
// controls, autoplay, speed, captions; an absent one is its default.
func mountOptions(a args, opts js.Value) (MountOptions, error) {
	var mo MountOptions
	if opts.Type() != js.TypeObject {
		return mo, nil
	}
	mo.Embed = opts.Get("embed").Truthy()
	mo.Autoplay = opts.Get("autoplay").Truthy()
	mo.Captions = opts.Get("captions").Truthy()
	switch c := opts.Get("controls"); c.Type() {
	case js.TypeUndefined, js.TypeNull:
	case js.TypeString:
		switch v := c.String(); v {
		case "", "full", "compact", "none":
			mo.Controls = v
		default:
			return mo, a.errorf("the option controls must be \"full\", \"compact\" or \"none\", not %q", v)
		}
	default:
		return mo, a.errorf("the option controls must be a string")
	}
	switch v := opts.Get("speed"); v.Type() {
	case js.TypeUndefined, js.TypeNull:
	case js.TypeNumber:
		if f := v.Float(); f > 0 && f < 1e6 {
			mo.Speed = int(f)
		}
	default:
		return mo, a.errorf("the option speed must be a number")
	}
	return mo, nil
}
