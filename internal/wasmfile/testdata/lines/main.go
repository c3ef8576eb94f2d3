// Command lines is the program that wasmfile's StripLines test builds to
// wasm, strips and runs under Node: it grows and scans stacks, collects
// garbage, recovers panics, runs goroutines and names its callers, all of
// which read the pclntab that StripLines rewrites.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

type node struct {
	next *node
	val  []int
}

// deep recurses with pointers on the stack and returns n(n+1)/2 + n, so that the stack grows
// (copying it reads every frame's stack deltas and maps) while a
// collection scans it.
func deep(n int, keep *node) int {
	if n == 0 {
		runtime.GC()
		s := 0
		for p := keep; p != nil; p = p.next {
			s += p.val[0]
		}
		return s
	}
	local := &node{next: keep, val: make([]int, 8)}
	local.val[0] = n
	return deep(n-1, local) + 1
}

//go:noinline
func fails(i int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	var a []int
	return fmt.Errorf("%d", a[i])
}

//go:noinline
func caller() string {
	pc, file, line, _ := runtime.Caller(0)
	name := runtime.FuncForPC(pc).Name()
	return fmt.Sprintf("%s %t", name, strings.HasSuffix(file, "main.go") && line > 0)
}

func main() {
	done := make(chan int)
	for g := 0; g < 4; g++ {
		go func(g int) { done <- deep(2000+g, nil) }(g)
	}
	sum := 0
	for g := 0; g < 4; g++ {
		sum += <-done
	}
	var garbage [][]byte
	for i := 0; i < 2000; i++ {
		garbage = append(garbage, make([]byte, 1<<10))
		if len(garbage) > 100 {
			garbage = garbage[1:]
		}
	}
	fmt.Println("sum", sum, len(garbage))
	fmt.Println(fails(3))
	fmt.Println("caller", caller())
	if len(os.Args) > 1 && os.Args[1] == "panic" {
		var m map[string]int
		m["x"] = 1
	}
}
