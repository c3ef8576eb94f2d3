//go:build js && wasm

package main

import (
	"fmt"
	"math"
	"syscall/js"

	"converge/core/humanize"
	"converge/core/session"
)

// This file is the one wrapper every exported function goes through (after
// hackpad's interop.SetFunc): it checks the arguments, recovers from a
// panic and turns a failure into what the caller expects, so that no input
// and no bug can stop the Go runtime.

// kind says how an exported function reports a failure.
type kind int

const (
	// valueFunc returns its value (a string, number, bool or JS object),
	// or a JS Error that converge.js throws.
	valueFunc kind = iota
	// outcomeFunc returns the JSON of an {ok, ...} object; a bug is
	// {"ok":false,"error":"internal error: ..."}.
	outcomeFunc
)

// handler is an exported function's body: it gets its checked arguments
// and returns a value for JS or an error.
type handler func(a args) (any, error)

// funcs collects the js.Funcs made for one JS object, so that they can be
// released together.
type funcs struct {
	obj  js.Value
	list []js.Func
	// before, when set, runs before each function (an instance's: finish
	// its open in slices, open_slices.go).
	before func()
}

// set defines obj[name] as a JS function that runs h through the wrapper.
func (f *funcs) set(name string, k kind, h handler) {
	fn := js.FuncOf(func(_ js.Value, argv []js.Value) any {
		if f.before != nil {
			f.before()
		}
		return call(name, k, h, argv)
	})
	f.list = append(f.list, fn)
	f.obj.Set(name, fn)
}

// call runs h with the wrapper's guarantees.
func call(name string, k kind, h handler, argv []js.Value) (out any) {
	defer func() {
		if v := recover(); v != nil {
			msg := name + ": " + panicText(v)
			if k == outcomeFunc {
				out = session.InternalErrorJSON(msg)
			} else {
				out = jsError("Error", "internal error: "+msg)
			}
		}
	}()
	v, err := h(args{fn: name, v: argv})
	if err != nil {
		if ae, ok := err.(*argError); ok {
			return jsError("TypeError", ae.Error())
		}
		if k == outcomeFunc {
			return session.JSON(session.FailedLoad(err))
		}
		return jsError("Error", err.Error())
	}
	return v
}

// jsError makes a JS error object of the given constructor (Error,
// TypeError) with msg as its message.
func jsError(ctor, msg string) js.Value {
	return js.Global().Get(ctor).New(msg)
}

// argError is a call with the wrong arguments. It is always thrown (a
// TypeError), even by outcome functions: it is the caller's bug, not an
// outcome.
type argError struct{ msg string }

func (e *argError) Error() string { return e.msg }

// args are the arguments of one call, with checks that name the function.
type args struct {
	fn string
	v  []js.Value
}

func (a args) errorf(format string, v ...any) error {
	return &argError{msg: a.fn + ": " + fmt.Sprintf(format, v...)}
}

func (a args) get(i int) js.Value {
	if i < len(a.v) {
		return a.v[i]
	}
	return js.Undefined()
}

// atMost fails when there are more than n arguments.
func (a args) atMost(n int) error {
	if len(a.v) > n {
		return a.errorf("takes at most %d %s, got %d", n, humanize.Noun(n, "argument"), len(a.v))
	}
	return nil
}

// str is the i-th argument, a required string.
func (a args) str(i int, what string) (string, error) {
	v := a.get(i)
	if v.Type() != js.TypeString {
		return "", a.errorf("%s must be a string, not %s", what, typeName(v))
	}
	return v.String(), nil
}

// integer is the i-th argument, a whole number, or def when it is undefined.
func (a args) integer(i int, what string, def int64) (int64, error) {
	v := a.get(i)
	if v.IsUndefined() {
		return def, nil
	}
	if v.Type() != js.TypeNumber {
		return 0, a.errorf("%s must be a number, not %s", what, typeName(v))
	}
	f := v.Float()
	if f != math.Trunc(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
		return 0, a.errorf("%s must be a whole number of seconds, not %v", what, f)
	}
	return int64(f), nil
}

// object is the i-th argument, an object (a DOM node, an options bag).
// optional allows undefined and null, which give js.Undefined.
func (a args) object(i int, what string, optional bool) (js.Value, error) {
	v := a.get(i)
	if optional && (v.IsUndefined() || v.IsNull()) {
		return js.Undefined(), nil
	}
	if v.Type() != js.TypeObject {
		return js.Undefined(), a.errorf("%s must be an object, not %s", what, typeName(v))
	}
	return v, nil
}

// typeName is how an error names a JS value's type.
func typeName(v js.Value) string {
	switch v.Type() {
	case js.TypeString:
		return fmt.Sprintf("the string %q", v.String())
	case js.TypeNumber:
		return fmt.Sprintf("the number %v", v.Float())
	case js.TypeObject:
		if v.InstanceOf(js.Global().Get("Array")) {
			return "an array"
		}
		return "an object"
	}
	return v.Type().String()
}

// panicText is the message of a recovered panic value.
func panicText(r any) string {
	switch v := r.(type) {
	case error:
		return v.Error()
	case string:
		return v
	default:
		return fmt.Sprint(v)
	}
}
