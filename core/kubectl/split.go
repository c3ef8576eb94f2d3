package kubectl

import (
	"errors"
	"strings"
)

// Errors of Split. Their texts are what a shell would complain about; kubectl
// itself never sees such a line.
var (
	ErrUnterminatedSingleQuote = errors.New(msgUnterminatedSingleQuote)
	ErrUnterminatedDoubleQuote = errors.New(msgUnterminatedDoubleQuote)
	ErrTrailingBackslash       = errors.New(msgTrailingBackslash)
	ErrPipe                    = errors.New(msgPipe)
)

// Split splits a command line into words the way a POSIX shell does, without
// expansions: blanks separate words; 'single quotes' keep everything
// literally; "double quotes" keep everything except that a backslash escapes
// ", \, $ and `; outside quotes a backslash escapes the next character.
// Quotes may start or end inside a word (--patch='{"a":1}' is one word), and
// an empty quoted string is an empty word. A | outside quotes is refused
// (ErrPipe): there is no shell and no other program to pipe into.
//
// Examples:
//
//	set image deployment/web web=nginx:1.26  → [set image deployment/web web=nginx:1.26]
//	patch deploy web -p '{"spec":{"paused":true}}' → [patch deploy web -p {"spec":{"paused":true}}]
//	annotate deploy web 'kubernetes.io/change-cause=v2 rollout' → [annotate deploy web kubernetes.io/change-cause=v2 rollout]
func Split(line string) ([]string, error) {
	words, _, err := splitWords(line)
	return words, err
}

// splitWords is Split that also returns the byte offset in line at which
// each word starts. On an error it returns the offset of the character at
// fault (the unterminated quote, the trailing backslash) as the only offset.
func splitWords(line string) ([]string, []int, error) {
	var words []string
	var offs []int
	var cur strings.Builder
	inWord := false
	start := func(i int) {
		if !inWord {
			offs = append(offs, i)
			inWord = true
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 >= len(line) {
				return nil, []int{i}, ErrTrailingBackslash
			}
			start(i)
			i++
			if line[i] != '\n' {
				cur.WriteByte(line[i])
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, []int{i}, ErrUnterminatedSingleQuote
			}
			start(i)
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case c == '|':
			return nil, []int{i}, ErrPipe
		case c == '"':
			n, err := readDoubleQuoted(line[i+1:], &cur)
			if err != nil {
				return nil, []int{i}, err
			}
			start(i)
			i += n // now at the closing quote; the loop steps past it
		default:
			start(i)
			cur.WriteByte(c)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, offs, nil
}

// readDoubleQuoted copies the inside of a double-quoted string into cur and
// returns how many bytes it consumed, including the closing quote.
func readDoubleQuoted(s string, cur *strings.Builder) (int, error) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
				i++
				if s[i] != '\n' {
					cur.WriteByte(s[i])
				}
				continue
			}
			cur.WriteByte('\\')
		default:
			cur.WriteByte(s[i])
		}
	}
	return 0, ErrUnterminatedDoubleQuote
}

// quoteWord renders one word so that Split reads it back unchanged: as is
// when it holds only safe characters, else in single quotes.
func quoteWord(w string) string {
	if w == "" {
		return "''"
	}
	safe := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./:=,@%+^", c) >= 0) {
			safe = false
			break
		}
	}
	if safe {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
