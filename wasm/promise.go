//go:build js && wasm

package main

import (
	"errors"
	"syscall/js"
)

// makePromise returns a JS Promise that work settles from a goroutine of
// its own (after tailscale's tsconnect makePromise): resolved with work's
// value, rejected with an Error of work's error text. work may block (on
// IndexedDB, on another promise through await): it never runs on the
// event loop. A panic in work rejects with "internal error: NAME: ...",
// and the runtime goes on.
func makePromise(name string, work func() (any, error)) js.Value {
	executor := js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve, reject := args[0], args[1]
		go func() {
			defer func() {
				if r := recover(); r != nil {
					reject.Invoke(jsError("Error", "internal error: "+name+": "+panicText(r)))
				}
			}()
			v, err := work()
			if err != nil {
				reject.Invoke(jsError("Error", err.Error()))
				return
			}
			resolve.Invoke(v)
		}()
		return nil
	})
	// The Promise constructor calls its executor at once, and only once.
	defer executor.Release()
	return js.Global().Get("Promise").New(executor)
}

// await waits for a JS promise (or a value that is none) and returns what
// it resolved with, or an error with the text of what it rejected with. It
// blocks: call it from a goroutine.
func await(p js.Value) (js.Value, error) {
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		return p, nil
	}
	type outcome struct {
		v   js.Value
		err error
	}
	done := make(chan outcome, 1)
	ok := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- outcome{v: argOf(args)}
		return nil
	})
	fail := js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- outcome{err: errors.New(jsErrorText(argOf(args)))}
		return nil
	})
	defer ok.Release()
	defer fail.Release()
	p.Call("then", ok, fail)
	o := <-done
	return o.v, o.err
}

func argOf(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// jsErrorText is the message of a JS error (or the text of another value).
func jsErrorText(v js.Value) string {
	if v.Type() == js.TypeObject {
		if m := v.Get("message"); m.Type() == js.TypeString {
			name := v.Get("name")
			if name.Type() == js.TypeString && name.String() != "Error" && name.String() != "" {
				return name.String() + ": " + m.String()
			}
			return m.String()
		}
	}
	return js.Global().Get("String").Invoke(v).String()
}
