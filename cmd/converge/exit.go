package main

import (
	"errors"
	"fmt"
)

// Exit statuses, as docs/cli.md documents them.
const (
	// exitOK: the command did what was asked.
	exitOK = 0
	// exitFailed: the input was good, but an expect (or expectError) did
	// not hold.
	exitFailed = 1
	// exitBadInput: the input or the usage is bad (unreadable, not YAML,
	// unknown fields, flags or kinds, invalid values), or the command could
	// not do its work for another reason (an address already in use).
	exitBadInput = 2
)

// exitError is an error that ends a command with a chosen exit status. A nil
// err means the command has already printed its report (every FILE:LINE:COL
// line, say) and only the status is left to return.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// expectFailed wraps err so that the command exits 1. A nil err exits 1
// silently, for a command that printed its failures itself.
func expectFailed(err error) error { return &exitError{code: exitFailed, err: err} }

// badInput wraps err so that the command exits 2. A nil err exits 2
// silently, for a command that printed its problems itself.
func badInput(err error) error { return &exitError{code: exitBadInput, err: err} }

// usageErr is a misuse of the command line: a wrong flag or argument. It exits
// 2 and the report adds a pointer to the command's --help.
type usageErr struct{ msg string }

func (e *usageErr) Error() string { return e.msg }

func usageError(msg string) error { return &usageErr{msg: msg} }

func usageErrorf(format string, args ...any) error {
	return &usageErr{msg: fmt.Sprintf(format, args...)}
}

// exitStatus returns the exit status that err stands for: the code of an
// exitError, otherwise 2 for any error (a command that fails for a reason
// other than an expect has been given something it cannot work with) and 0
// for nil.
func exitStatus(err error) int {
	if err == nil {
		return exitOK
	}
	var xe *exitError
	if errors.As(err, &xe) {
		return xe.code
	}
	return exitBadInput
}
