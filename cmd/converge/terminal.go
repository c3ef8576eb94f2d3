package main

import (
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// Text that reaches a terminal is terminal-safe: a scenario's title, an
// annotation, a change-cause or an image may carry escape sequences (YAML's
// "\e[2J"), which would clear the screen, retitle the window or forge
// output. Every command's standard output and standard error, where it is
// a terminal, go through a terminalWriter (runWith sets it up), which shows
// control characters escaped, as kubectl's printers do (cli-runtime's printers.EscapeTerminal
// writes ESC as ^[ and a carriage return as \r). Only the JSONL trace is
// written unchanged (env.trace): JSON escapes control characters itself, and
// its bytes are the page's. docs/cli.md describes the notation.

// terminal is a writer that says whether it is a terminal (the tests'
// stand-in for one).
type terminal interface{ IsTerminal() bool }

// isTerminal reports whether w is a terminal: a character device, such as
// a tty, and not a file or a pipe.
func isTerminal(w io.Writer) bool {
	switch x := w.(type) {
	case terminal:
		return x.IsTerminal()
	case *os.File:
		fi, err := x.Stat()
		return err == nil && fi.Mode()&os.ModeCharDevice != 0 && fi.Mode()&os.ModeDevice != 0
	}
	return false
}

// escapeTerminal returns s with every control character but newline and tab
// shown escaped:
//
//	ESC                 ^[   (kubectl's)
//	CR                  \r   (kubectl's), except before a newline
//	other C0, DEL       ^@ ... ^_, ^?   (caret notation)
//	C1 (U+0080–U+009F)  \u009b
//	bytes not UTF-8     \x9b
func escapeTerminal(s string) string {
	return string(appendEscaped(nil, []byte(s)))
}

// plain reports whether c is shown as it is: printable ASCII, newline, tab.
func plain(c byte) bool { return c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' }

// appendEscaped appends s escaped to b.
func appendEscaped(b, s []byte) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if plain(c) {
			start := i
			for i < len(s) && plain(s[i]) {
				i++
			}
			b = append(b, s[start:i]...)
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = fmt.Appendf(b, `\x%02x`, c)
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			b = append(b, c)
		case c == '\r':
			b = append(b, `\r`...)
		case c == 0x7f:
			b = append(b, "^?"...)
		case c < 0x20:
			b = append(b, '^', c+'@')
		case r >= 0x80 && r <= 0x9f:
			b = fmt.Appendf(b, `\u%04x`, r)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return b
}

// terminalWriter escapes what is written through it (escapeTerminal). A
// Write may end inside a character or right after a carriage return: that
// tail is held until the next Write, or Flush, decides how it reads. Text
// with nothing to escape (nearly all of it) is written through as it is.
type terminalWriter struct {
	w    io.Writer
	tail []byte
	buf  []byte // the escaped text of the last Write, reused
}

var _ io.Writer = (*terminalWriter)(nil)

func (t *terminalWriter) Write(p []byte) (int, error) {
	data := p
	if len(t.tail) > 0 {
		data = append(t.tail, p...)
	}
	cut := heldTail(data)
	i := 0
	for i < cut && plain(data[i]) {
		i++
	}
	var err error
	if i == cut {
		_, err = t.w.Write(data[:cut])
	} else {
		t.buf = appendEscaped(append(t.buf[:0], data[:i]...), data[i:cut])
		_, err = t.w.Write(t.buf)
	}
	// data may share t.tail's array: copy moves the tail to its start.
	t.tail = append(t.tail[:0], data[cut:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the held tail, escaped as the end of the output.
func (t *terminalWriter) Flush() error {
	if len(t.tail) == 0 {
		return nil
	}
	s := escapeTerminal(string(t.tail))
	t.tail = nil
	_, err := io.WriteString(t.w, s)
	return err
}

// heldTail is where the end of data that may still change meaning starts:
// a carriage return (a newline may follow) or the start of a character
// whose bytes are not all there yet.
func heldTail(data []byte) int {
	n := len(data)
	if n > 0 && data[n-1] == '\r' {
		return n - 1
	}
	for i := n - 1; i >= 0 && i >= n-utf8.UTFMax+1; i-- {
		if utf8.RuneStart(data[i]) {
			if !utf8.FullRune(data[i:]) {
				return i
			}
			break
		}
	}
	return n
}
