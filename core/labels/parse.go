package labels

import (
	"fmt"
	"sort"
	"strings"
)

// Parse parses the -l string form, as apimachinery's labels.Parse does:
// comma-separated requirements, each one of `k=v`, `k==v`, `k!=v`,
// `k in (a,b)`, `k notin (a,b)`, `k>1`, `k<1`, `k` or `!k`. An empty
// string selects everything. Keys and values are validated; errors carry
// Kubernetes' texts, e.g. "unable to parse requirement: found 'y',
// expected: in, notin, =, ==, !=, gt, lt".
//
// The lexer and parser follow kube's token by token: whitespace is ' ', '\t',
// '\r' and '\n'; the special symbols are = ! ( ) , > <; anything else is part
// of an identifier (validation then rejects what is not a label key or value);
// a NUL byte ends an identifier, and the input when a token would start;
// "()" is the set holding the empty value; value sets are deduplicated and
// sorted.
func Parse(s string) (Selector, error) {
	p := &parser{lx: lexer{s: s}}
	reqs, err := p.parse()
	if err != nil {
		return Nothing(), err
	}
	sel := Selector{reqs: reqs}
	sel.sortReqs()
	return sel, nil
}

// token is a lexer token.
type token int

const (
	errorToken token = iota
	endOfStringToken
	closedParToken
	commaToken
	doesNotExistToken
	doubleEqualsToken
	equalsToken
	greaterThanToken
	identifierToken
	inToken
	lessThanToken
	notEqualsToken
	notInToken
	openParToken
)

// string2token maps the literal tokens (keywords and symbols) to tokens.
var string2token = map[string]token{
	")":     closedParToken,
	",":     commaToken,
	"!":     doesNotExistToken,
	"==":    doubleEqualsToken,
	"=":     equalsToken,
	">":     greaterThanToken,
	"in":    inToken,
	"<":     lessThanToken,
	"!=":    notEqualsToken,
	"notin": notInToken,
	"(":     openParToken,
}

func isWhitespace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func isSpecialSymbol(c byte) bool {
	switch c {
	case '=', '!', '(', ')', ',', '>', '<':
		return true
	}
	return false
}

type lexer struct {
	s   string
	pos int
}

// read returns the byte at pos and advances, or 0 at the end of the input
// (where it does not advance). A NUL byte in the input reads as 0 too.
func (l *lexer) read() byte {
	if l.pos < len(l.s) {
		b := l.s[l.pos]
		l.pos++
		return b
	}
	return 0
}

func (l *lexer) unread() { l.pos-- }

func (l *lexer) lex() (token, string) {
	c := l.read()
	for isWhitespace(c) {
		c = l.read()
	}
	switch {
	case c == 0:
		return endOfStringToken, ""
	case isSpecialSymbol(c):
		l.unread()
		return l.scanSpecialSymbol()
	default:
		l.unread()
		return l.scanIDOrKeyword()
	}
}

func (l *lexer) scanIDOrKeyword() (token, string) {
	var buf []byte
	for {
		c := l.read()
		if c == 0 {
			break
		}
		if isSpecialSymbol(c) || isWhitespace(c) {
			l.unread()
			break
		}
		buf = append(buf, c)
	}
	s := string(buf)
	if t, ok := string2token[s]; ok {
		return t, s
	}
	return identifierToken, s
}

// scanSpecialSymbol reads the longest run of special symbols that is a token.
func (l *lexer) scanSpecialSymbol() (token, string) {
	var last token
	var lit string
	var buf []byte
	for {
		c := l.read()
		if c == 0 {
			break
		}
		if !isSpecialSymbol(c) {
			l.unread()
			break
		}
		buf = append(buf, c)
		if t, ok := string2token[string(buf)]; ok {
			last, lit = t, string(buf)
		} else if last != errorToken {
			l.unread()
			break
		}
	}
	if last == errorToken {
		return errorToken, fmt.Sprintf("error expected: keyword found '%s'", buf)
	}
	return last, lit
}

type scannedItem struct {
	tok token
	lit string
}

type parser struct {
	lx    lexer
	items []scannedItem
	pos   int
}

// context tells lookahead and consume whether "in" and "notin" are operators
// (keyAndOperator) or plain identifiers (values), as in `x in (in)`.
type context int

const (
	keyAndOperator context = iota
	values
)

func (p *parser) lookahead(c context) (token, string) {
	it := p.items[p.pos]
	if c == values && (it.tok == inToken || it.tok == notInToken) {
		return identifierToken, it.lit
	}
	return it.tok, it.lit
}

func (p *parser) consume(c context) (token, string) {
	t, lit := p.lookahead(c)
	if p.pos < len(p.items)-1 {
		p.pos++
	}
	return t, lit
}

func (p *parser) scan() {
	for {
		t, lit := p.lx.lex()
		p.items = append(p.items, scannedItem{t, lit})
		if t == endOfStringToken {
			return
		}
	}
}

func (p *parser) parse() ([]Requirement, error) {
	p.scan()
	var reqs []Requirement
	for {
		t, lit := p.lookahead(values)
		switch t {
		case identifierToken, doesNotExistToken:
			r, err := p.parseRequirement()
			if err != nil {
				return nil, fmt.Errorf("unable to parse requirement: %v", err)
			}
			reqs = append(reqs, r)
			t, lit := p.consume(values)
			switch t {
			case endOfStringToken:
				return reqs, nil
			case commaToken:
				if t2, lit2 := p.lookahead(values); t2 != identifierToken && t2 != doesNotExistToken {
					return nil, fmt.Errorf("found '%s', expected: identifier after ','", lit2)
				}
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", lit)
			}
		case endOfStringToken:
			return reqs, nil
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", lit)
		}
	}
}

func (p *parser) parseRequirement() (Requirement, error) {
	key, op, err := p.parseKeyAndInferOperator()
	if err != nil {
		return Requirement{}, err
	}
	if op == Exists || op == DoesNotExist {
		return NewRequirement(key, op, nil)
	}
	if op, err = p.parseOperator(); err != nil {
		return Requirement{}, err
	}
	var vals []string
	switch op {
	case In, NotIn:
		vals, err = p.parseValues()
	default:
		vals, err = p.parseExactValue()
	}
	if err != nil {
		return Requirement{}, err
	}
	return NewRequirement(key, op, vals)
}

func (p *parser) parseKeyAndInferOperator() (string, Operator, error) {
	var op Operator
	t, lit := p.consume(values)
	if t == doesNotExistToken {
		op = DoesNotExist
		t, lit = p.consume(values)
	}
	if t != identifierToken {
		return "", "", fmt.Errorf("found '%s', expected: identifier", lit)
	}
	if msgs := IsQualifiedName(lit); len(msgs) > 0 {
		// kube validates the key with a nil field path here, hence "<nil>".
		return "", "", fmt.Errorf("<nil>: Invalid value: %q: %s", lit, strings.Join(msgs, "; "))
	}
	if t, _ := p.lookahead(values); t == endOfStringToken || t == commaToken {
		if op != DoesNotExist {
			op = Exists
		}
	}
	return lit, op, nil
}

// binaryOperators is the list kube prints when an operator is missing.
var binaryOperators = []Operator{In, NotIn, Equals, DoubleEquals, NotEquals, GreaterThan, LessThan}

func (p *parser) parseOperator() (Operator, error) {
	t, lit := p.consume(keyAndOperator)
	switch t {
	case inToken:
		return In, nil
	case equalsToken:
		return Equals, nil
	case doubleEqualsToken:
		return DoubleEquals, nil
	case greaterThanToken:
		return GreaterThan, nil
	case lessThanToken:
		return LessThan, nil
	case notInToken:
		return NotIn, nil
	case notEqualsToken:
		return NotEquals, nil
	}
	names := make([]string, len(binaryOperators))
	for i, o := range binaryOperators {
		names[i] = string(o)
	}
	return "", fmt.Errorf("found '%s', expected: %s", lit, strings.Join(names, ", "))
}

// parseValues parses "(a,b,c)"; "()" is the set holding the empty value.
func (p *parser) parseValues() ([]string, error) {
	t, lit := p.consume(values)
	if t != openParToken {
		return nil, fmt.Errorf("found '%s' expected: '('", lit)
	}
	t, lit = p.lookahead(values)
	switch t {
	case identifierToken, commaToken:
		set, err := p.parseIdentifiersList()
		if err != nil {
			return nil, err
		}
		if t, _ := p.consume(values); t != closedParToken {
			return nil, fmt.Errorf("found '%s', expected: ')'", lit)
		}
		return set, nil
	case closedParToken:
		p.consume(values)
		return []string{""}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", lit)
}

// parseIdentifiersList parses a comma-separated list of possibly empty
// identifiers, returning them deduplicated and sorted.
func (p *parser) parseIdentifiersList() ([]string, error) {
	set := map[string]bool{}
	for {
		t, lit := p.consume(values)
		switch t {
		case identifierToken:
			set[lit] = true
			switch t2, lit2 := p.lookahead(values); t2 {
			case commaToken:
				continue
			case closedParToken:
				return sortedSet(set), nil
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", lit2)
			}
		case commaToken:
			if len(set) == 0 {
				set[""] = true // "(,"
			}
			switch t2, _ := p.lookahead(values); t2 {
			case closedParToken:
				set[""] = true // ",)"
				return sortedSet(set), nil
			case commaToken:
				set[""] = true // ",,": the next comma is read by the loop, as apimachinery 0.35 does
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',', or identifier", lit)
		}
	}
}

func (p *parser) parseExactValue() ([]string, error) {
	if t, _ := p.lookahead(values); t == endOfStringToken || t == commaToken {
		return []string{""}, nil
	}
	t, lit := p.consume(values)
	if t == identifierToken {
		return []string{lit}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: identifier", lit)
}

func sortedSet(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}
