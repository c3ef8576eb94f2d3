package labels

import (
	"fmt"
	"strings"
	"unicode"
)

// Parse parses the -l string form: comma-separated requirements, each one of
// `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k`. An empty
// string selects everything. Errors say where parsing stopped.
func Parse(s string) (Selector, error) {
	p := &parser{src: s}
	sel := Selector{}
	p.skipSpace()
	if p.eof() {
		return sel, nil
	}
	for {
		r, err := p.requirement()
		if err != nil {
			return Nothing(), fmt.Errorf("unable to parse requirement: %v", err)
		}
		sel.reqs = append(sel.reqs, r)
		p.skipSpace()
		if p.eof() {
			break
		}
		if p.peek() != ',' {
			return Nothing(), fmt.Errorf("unable to parse requirement: found '%c' at position %d, expected: ','", p.peek(), p.pos)
		}
		p.pos++
		p.skipSpace()
		if p.eof() {
			return Nothing(), fmt.Errorf("unable to parse requirement: found '', expected: identifier after ','")
		}
	}
	sel.sortReqs()
	return sel, nil
}

type parser struct {
	src string
	pos int
}

func (p *parser) eof() bool  { return p.pos >= len(p.src) }
func (p *parser) peek() byte { return p.src[p.pos] }

func (p *parser) skipSpace() {
	for !p.eof() && unicode.IsSpace(rune(p.peek())) {
		p.pos++
	}
}

func isIdentChar(c byte) bool {
	return c == '-' || c == '_' || c == '.' || c == '/' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func (p *parser) ident() string {
	start := p.pos
	for !p.eof() && isIdentChar(p.peek()) {
		p.pos++
	}
	return p.src[start:p.pos]
}

func (p *parser) found() string {
	if p.eof() {
		return "''"
	}
	return fmt.Sprintf("'%c'", p.peek())
}

func (p *parser) requirement() (Requirement, error) {
	p.skipSpace()
	if !p.eof() && p.peek() == '!' {
		p.pos++
		p.skipSpace()
		key := p.ident()
		if key == "" {
			return Requirement{}, fmt.Errorf("found %s at position %d, expected: identifier after '!'", p.found(), p.pos)
		}
		if err := validateKey(key); err != nil {
			return Requirement{}, err
		}
		return NewRequirement(key, DoesNotExist, nil)
	}
	key := p.ident()
	if key == "" {
		return Requirement{}, fmt.Errorf("found %s at position %d, expected: !, identifier", p.found(), p.pos)
	}
	if err := validateKey(key); err != nil {
		return Requirement{}, err
	}
	p.skipSpace()
	if p.eof() || p.peek() == ',' {
		return NewRequirement(key, Exists, nil)
	}
	rest := p.src[p.pos:]
	switch {
	case strings.HasPrefix(rest, "=="):
		p.pos += 2
		return p.single(key, DoubleEquals)
	case strings.HasPrefix(rest, "!="):
		p.pos += 2
		return p.single(key, NotEquals)
	case strings.HasPrefix(rest, "="):
		p.pos++
		return p.single(key, Equals)
	}
	word := p.ident()
	switch word {
	case "in":
		return p.set(key, In)
	case "notin":
		return p.set(key, NotIn)
	}
	return Requirement{}, fmt.Errorf("found '%s', expected: in, notin, =, ==, !=", word+p.src[p.pos:min(p.pos, len(p.src))])
}

func (p *parser) single(key string, op Operator) (Requirement, error) {
	p.skipSpace()
	v := p.ident()
	if err := validateValue(v); err != nil {
		return Requirement{}, err
	}
	return NewRequirement(key, op, []string{v})
}

func (p *parser) set(key string, op Operator) (Requirement, error) {
	p.skipSpace()
	if p.eof() || p.peek() != '(' {
		return Requirement{}, fmt.Errorf("found %s, expected: '('", p.found())
	}
	p.pos++
	var vals []string
	for {
		p.skipSpace()
		v := p.ident()
		if err := validateValue(v); err != nil {
			return Requirement{}, err
		}
		p.skipSpace()
		if p.eof() {
			return Requirement{}, fmt.Errorf("found '', expected: ',', ')'")
		}
		switch p.peek() {
		case ',':
			vals = append(vals, v)
			p.pos++
			continue
		case ')':
			if v != "" || len(vals) > 0 {
				vals = append(vals, v)
			}
			p.pos++
			return NewRequirement(key, op, vals)
		default:
			return Requirement{}, fmt.Errorf("found '%c', expected: ',', ')'", p.peek())
		}
	}
}

// validateKey checks a label key: an optional DNS subdomain prefix and a
// name of at most 63 characters.
func validateKey(k string) error {
	if msgs := IsQualifiedName(k); len(msgs) > 0 {
		return fmt.Errorf("key: Invalid value: %q: %s", k, strings.Join(msgs, "; "))
	}
	return nil
}

func validateValue(v string) error {
	if msgs := IsValidLabelValue(v); len(msgs) > 0 {
		return fmt.Errorf("values[0]: Invalid value: %q: %s", v, strings.Join(msgs, "; "))
	}
	return nil
}
