package scenario

import (
	"net/url"
	"strings"
	"time"
	"unicode/utf8"
)

// A note is a step that narrates: a short text in a Markdown subset, shown
// at its second as a caption over the page (docs/scenarios.md, "Notes").

// MaxNoteLength bounds a note's text, in characters: a caption, not an
// article.
const MaxNoteLength = 400

// MaxFocusLength bounds a note's focus: an area or KIND/NAME.
const MaxFocusLength = 300

// Note is what a note step says and does.
type Note struct {
	// Text is the note as written: a Markdown subset (see ParseNoteText).
	Text string
	// Pause stops the page's playback at the note until the reader continues.
	Pause bool
	// Focus names the part of the page the note is about: one of
	// FocusAreas, or an object as KIND/NAME (pod/web-7d4b9c-x2kq9,
	// deployment/web); "" for none.
	Focus string
}

// FocusAreas are the parts of the page a note's focus may name.
var FocusAreas = []string{"rollout", "why", "pods", "loop", "events", "budget", "writers", "revisions", "selectors", "compare"}

// SpanKind is what a piece of a note's text is.
type SpanKind string

// The kinds of span.
const (
	SpanText   SpanKind = "text"
	SpanEm     SpanKind = "em"     // *x* or _x_
	SpanStrong SpanKind = "strong" // **x** or __x__
	SpanCode   SpanKind = "code"   // `x`
	SpanLink   SpanKind = "link"   // [x](https://...)
)

// Span is one piece of a note's text: Text is shown as written (never read
// as HTML); Href is a link's address, always http or https.
type Span struct {
	Kind SpanKind `json:"kind"`
	Text string   `json:"text"`
	Href string   `json:"href,omitempty"`
}

// ParseNoteText reads a note's Markdown subset into spans:
//   - *emphasis* or _emphasis_, **strong** or __strong__ (not nested);
//   - `inline code`, shown as written;
//   - [a link](https://example.com/page), to http or https addresses only;
//   - a backslash before a punctuation character writes it as itself: \*;
//   - everything else is text, HTML included: <b> shows as <b>.
//
// Line breaks read as spaces. A marker that cannot open (a * followed by a
// space, an _ inside a word) is text; one that opens but is never closed is
// an error, as is a link to another kind of address. Errors are
// *SyntaxError, at the byte offset of the marker.
func ParseNoteText(src string) ([]Span, error) {
	var out []Span
	var text strings.Builder
	flush := func() {
		if text.Len() > 0 {
			out = append(out, Span{Kind: SpanText, Text: text.String()})
			text.Reset()
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src) && isASCIIPunct(src[i+1]):
			text.WriteByte(src[i+1])
			i += 2
		case c == '\n' || c == '\r' || c == '\t':
			text.WriteByte(' ')
			i++
		case c == '`':
			end := strings.IndexByte(src[i+1:], '`')
			if end < 0 {
				return nil, syntaxErr(i, "unclosed `: inline code needs a closing backtick (write \\` for a backtick)")
			}
			flush()
			out = append(out, Span{Kind: SpanCode, Text: spaces(src[i+1 : i+1+end])})
			i += end + 2
		case (c == '*' || c == '_') && canOpen(src, i):
			marker := string(c)
			kind := SpanEm
			if i+1 < len(src) && src[i+1] == c {
				marker, kind = marker+marker, SpanStrong
			}
			start := i + len(marker)
			if start >= len(src) || src[start] == ' ' || src[start] == '\n' {
				text.WriteString(marker)
				i = start
				continue
			}
			end := closeAt(src, start, marker)
			if end < 0 {
				return nil, syntaxErr(i, "unclosed %s: close the %s with %s, or write \\%s for the character itself", marker, emphasisWord(kind), marker, string(c))
			}
			inner, err := plainText(src[start:end], start)
			if err != nil {
				return nil, err
			}
			flush()
			out = append(out, Span{Kind: kind, Text: inner})
			i = end + len(marker)
		case c == '[':
			label, href, next, ok := linkAt(src, i)
			if !ok {
				text.WriteByte(c)
				i++
				continue
			}
			if err := checkHref(href, i+len(label)+3); err != nil {
				return nil, err
			}
			inner, err := plainText(label, i+1)
			if err != nil {
				return nil, err
			}
			if strings.TrimSpace(inner) == "" {
				return nil, syntaxErr(i, "a link needs a text: [text](%s)", href)
			}
			flush()
			out = append(out, Span{Kind: SpanLink, Text: inner, Href: href})
			i = next
		default:
			_, size := utf8.DecodeRuneInString(src[i:])
			text.WriteString(src[i : i+size])
			i += size
		}
	}
	flush()
	return out, nil
}

func emphasisWord(k SpanKind) string {
	if k == SpanStrong {
		return "strong emphasis"
	}
	return "emphasis"
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// canOpen reports whether the * or _ at i may open emphasis: an _ not
// inside a word (snake_case stays text).
func canOpen(src string, i int) bool {
	return src[i] == '*' || i == 0 || !isWordByte(src[i-1])
}

// closeAt finds the marker that closes emphasis opened before from: after a
// character that is not a space, and for _ not followed by a word.
func closeAt(src string, from int, marker string) int {
	for j := from + 1; j <= len(src)-len(marker); j++ {
		if src[j-1] == '\\' {
			continue
		}
		if src[j:j+len(marker)] != marker || src[j-1] == ' ' || src[j-1] == '\n' {
			continue
		}
		after := j + len(marker)
		if after < len(src) && src[after] == marker[0] {
			continue // *** or **x*: not this marker
		}
		if marker[0] == '_' && after < len(src) && isWordByte(src[after]) {
			continue
		}
		return j
	}
	return -1
}

// plainText is the text of an emphasis or a link label: escapes applied,
// no other markup (at off in the note).
func plainText(s string, off int) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]):
			b.WriteByte(s[i+1])
			i++
		case c == '`' || c == '[' && linkStart(s, i):
			return "", syntaxErr(off+i, "markup inside emphasis or a link is not supported: keep %q outside it", string(c))
		case c == '\n' || c == '\r' || c == '\t':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

func linkStart(s string, i int) bool {
	_, _, _, ok := linkAt(s, i)
	return ok
}

// linkAt reads [label](href) at i: the label holds no [ or ], the address
// no space and ends at the first ).
func linkAt(src string, i int) (label, href string, next int, ok bool) {
	end := strings.IndexAny(src[i+1:], "[]")
	if end < 0 || src[i+1+end] != ']' {
		return "", "", 0, false
	}
	label = src[i+1 : i+1+end]
	j := i + 1 + end + 1
	if j >= len(src) || src[j] != '(' {
		return "", "", 0, false
	}
	close := strings.IndexByte(src[j+1:], ')')
	if close < 0 {
		return "", "", 0, false
	}
	href = src[j+1 : j+1+close]
	if strings.ContainsAny(href, " \t\n\r") {
		return "", "", 0, false
	}
	return label, href, j + 1 + close + 1, true
}

// checkHref allows absolute http and https addresses with a host.
func checkHref(href string, off int) error {
	u, err := url.Parse(href)
	if err != nil || u.Scheme == "" {
		return syntaxErr(off, "a link must be an absolute http or https address, not %q", href)
	}
	if s := strings.ToLower(u.Scheme); s != "http" && s != "https" {
		return syntaxErr(off, "a link may only go to an http or https address, not %q", href)
	}
	if u.Host == "" {
		return syntaxErr(off, "a link needs a host: %q", href)
	}
	for _, r := range href {
		if r < 0x20 || r == 0x7f || r == '"' || r == '<' || r == '>' || r == '\\' || r == '`' || r == '(' {
			return syntaxErr(off, "a link's address may not hold %q", string(r))
		}
	}
	return nil
}

func spaces(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
}

// CheckNote reports what is wrong with a note's text (the text, its length
// and its markup; offsets are bytes of text), or nil.
func CheckNote(text string) error {
	switch {
	case strings.TrimSpace(text) == "":
		return syntaxErr(0, "must not be empty")
	case !utf8.ValidString(text):
		return syntaxErr(0, "must be valid UTF-8")
	case utf8.RuneCountInString(text) > MaxNoteLength:
		return syntaxErr(0, "is %d characters long; a note may have at most %d (split it into several notes)", utf8.RuneCountInString(text), MaxNoteLength)
	}
	for i, r := range text {
		if (r < 0x20 && r != '\n' && r != '\t' && r != '\r') || r == 0x7f || r >= 0x80 && r < 0xa0 || r == '\u2028' || r == '\u2029' {
			return syntaxErr(i, "must not hold control characters (%U)", r)
		}
	}
	_, err := ParseNoteText(text)
	return err
}

// Spans is the note's text as spans; a note that parsed has no error.
func (n Note) Spans() []Span {
	sp, err := ParseNoteText(n.Text)
	if err != nil {
		return []Span{{Kind: SpanText, Text: n.Text}}
	}
	return sp
}

// Plain is the note as one line of plain text, for a terminal: emphasis
// without its markers, code in backticks, a link as "text (address)".
func (n Note) Plain() string { return SpansPlain(n.Spans()) }

// HTML is the note as HTML that holds only <em>, <strong>, <code> and <a
// href rel target> elements, every text and address escaped: safe to set
// as innerHTML.
func (n Note) HTML() string { return SpansHTML(n.Spans()) }

// SpansPlain writes spans as plain text (see Note.Plain).
func SpansPlain(spans []Span) string {
	var b strings.Builder
	for _, s := range spans {
		switch s.Kind {
		case SpanCode:
			b.WriteString("`" + s.Text + "`")
		case SpanLink:
			b.WriteString(s.Text + " (" + s.Href + ")")
		default:
			b.WriteString(s.Text)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// SpansHTML writes spans as inert HTML (see Note.HTML).
func SpansHTML(spans []Span) string {
	var b strings.Builder
	for _, s := range spans {
		switch s.Kind {
		case SpanEm, SpanStrong, SpanCode:
			b.WriteString("<" + string(s.Kind) + ">" + escapeHTML(s.Text) + "</" + string(s.Kind) + ">")
		case SpanLink:
			b.WriteString(`<a href="` + escapeHTML(s.Href) + `" target="_blank" rel="noopener noreferrer">` + escapeHTML(s.Text) + "</a>")
		default:
			b.WriteString(escapeHTML(s.Text))
		}
	}
	return b.String()
}

// escapeHTML escapes the five characters that matter in HTML text and
// quoted attributes (the html package's table of entities is not worth its
// bytes in the page's wasm).
func escapeHTML(s string) string {
	if !strings.ContainsAny(s, `<>&'"`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&#39;")
		case '"':
			b.WriteString("&#34;")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// CheckFocus reports what is wrong with a note's focus: it must be one of
// FocusAreas, or KIND/NAME with a kind kubectl knows (any of its
// spellings) and an object name.
func CheckFocus(focus string) error {
	if focus == "" {
		return syntaxErr(0, "must not be empty")
	}
	if len(focus) > MaxFocusLength {
		return syntaxErr(0, "is too long: at most %d characters", MaxFocusLength)
	}
	kind, name, ok := strings.Cut(focus, "/")
	if !ok {
		for _, a := range FocusAreas {
			if focus == a {
				return nil
			}
		}
		return syntaxErr(0, "unknown focus %q: name one of %s, or an object as KIND/NAME such as pod/web-1 or deployment/web", focus, strings.Join(FocusAreas, ", "))
	}
	if _, ok := LookupKind(kind); !ok {
		return syntaxErr(0, "unknown kind %q: write KIND/NAME with a kind kubectl knows, such as deployment/web", kind)
	}
	if msg := objectNameError(name); msg != "" {
		return syntaxErr(len(kind)+1, "invalid name %q: %s", name, msg)
	}
	return nil
}

// objectNameError checks a DNS subdomain name, as object names are.
func objectNameError(s string) string {
	if s == "" {
		return "must not be empty"
	}
	if len(s) > 253 {
		return "must be at most 253 characters"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return "must consist of lowercase letters, digits, '-' and '.'"
		}
	}
	return ""
}

// FocusTarget splits a focus into its area, or the object's kind (as
// LookupKind returns it) and name.
func (n Note) FocusTarget() (area, kind, name string) {
	k, nm, ok := strings.Cut(n.Focus, "/")
	if !ok {
		return n.Focus, "", ""
	}
	kind, _ = LookupKind(k)
	return "", kind, nm
}

// String is the note for messages: its plain text, with the pause and
// focus when set.
func (n Note) String() string {
	s := n.Plain()
	if n.Pause {
		s += " [pause]"
	}
	if n.Focus != "" {
		s += " [focus " + n.Focus + "]"
	}
	return s
}

// NoteSteps returns the indexes in Steps of the note steps, in order.
func (s *Scenario) NoteSteps() []int {
	var out []int
	for i, st := range s.Steps {
		if st.Note != nil {
			out = append(out, i)
		}
	}
	return out
}

// NotesAt returns the indexes in Steps of the notes shown at second t: those
// of the last second at or before t that has notes. A note stays shown
// until the next note's second, so that stepping or scrubbing past a note
// shows it; none before the first.
func (s *Scenario) NotesAt(t time.Duration) []int {
	last := time.Duration(-1)
	for _, st := range s.Steps {
		if st.Note != nil && st.At <= t {
			last = st.At
		}
	}
	if last < 0 {
		return nil
	}
	var out []int
	for i, st := range s.Steps {
		if st.Note != nil && st.At == last {
			out = append(out, i)
		}
	}
	return out
}

// PauseIn reports where playing from second from to second to must stop: the
// second of the first note with pause after from and at or before to. The
// reader who continues from that second plays on past it.
func (s *Scenario) PauseIn(from, to time.Duration) (time.Duration, bool) {
	for _, st := range s.Steps {
		if st.Note != nil && st.Note.Pause && st.At > from && st.At <= to {
			return st.At, true
		}
	}
	return 0, false
}
