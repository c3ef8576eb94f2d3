package session

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"converge/core/scenario"
)

// Address is the page's address (docs/embedding.md, "The page's
// addresses"), as the page and the command line read it (ParseAddress) and
// write it (URL):
//
//	/#s=SHARE                  a shared scenario
//	/?scenario=NAME            a built-in one
//	&t=SECONDS                 open at that time
//	&embed=1                   the compact embed view
//	&compare=1                 the Compare view (a scenario with variants has it anyway)
//
// Read, it is what the address asks for before anything is checked
// (Decide checks it).
type Address struct {
	// Share is the share payload (the part after s=); HasShare is set when
	// the address has an s= at all, even an empty or unreadable one.
	Share    string
	HasShare bool
	// ShareErr is set, with HasShare, when the s= value cannot be read (a
	// bad % escape): the page says so instead of opening something else.
	ShareErr error
	// Scenario is the built-in scenario's name (scenario=).
	Scenario string
	// T is the second to open at, as written (t=): whole seconds or a Go
	// duration.
	T       string
	Embed   bool
	Compare bool
}

// ParseAddress reads an address. It never fails: what it cannot read it
// leaves empty, but for the share, whose problem is ShareErr. Parameters
// may sit in the query or in the fragment (`#s=SHARE&t=30`); the
// fragment's win. The query and the fragment are read as they are
// written, so that a bad escape in one parameter (or in the path) spoils
// only that one.
func ParseAddress(href string) Address {
	var a Address
	rest, fragment, _ := strings.Cut(href, "#")
	_, query, _ := strings.Cut(rest, "?")
	for _, raw := range []string{query, fragment} {
		q, shareErr := readParams(raw)
		if v, ok := q["s"]; ok {
			a.Share, a.HasShare, a.ShareErr = v[0], true, nil
		} else if shareErr != nil {
			a.Share, a.HasShare, a.ShareErr = "", true, shareErr
		}
		if v := q.Get("scenario"); v != "" {
			a.Scenario = v
		}
		if v := q.Get("t"); v != "" {
			a.T = v
		}
		if v, ok := q["embed"]; ok {
			a.Embed = v[0] == "" || v[0] == "1" || v[0] == "true"
		}
		if v, ok := q["compare"]; ok {
			a.Compare = v[0] == "" || v[0] == "1" || v[0] == "true"
		}
	}
	return a
}

// URL is the address a written from base (a page's address without query
// and fragment, or only its path). The query carries scenario=, embed=1
// and compare=1; the fragment carries s=. t= rides with what names the
// scenario: after s= in the fragment for a share (the page rewrites its
// fragment as one), else in the query. t= is left out when it is "" or 0.
//
//	{Scenario: rolling-update, T: 30}        → BASE?scenario=rolling-update&t=30
//	{Share: SHARE, T: 41}                    → BASE#s=SHARE&t=41
//	{Scenario: basic-loop, Embed, T: 12}     → BASE?scenario=basic-loop&embed=1&t=12
//	{Share: SHARE, Embed, T: 12}             → BASE?embed=1#s=SHARE&t=12
//
// A base that has a query already gets the parameters after it.
func (a Address) URL(base string) string {
	var query, fragment []string
	if a.Scenario != "" && !a.HasShare && a.Share == "" {
		query = append(query, "scenario="+url.QueryEscape(a.Scenario))
	}
	if a.Embed {
		query = append(query, "embed=1")
	}
	if a.Compare {
		query = append(query, "compare=1")
	}
	t := ""
	if a.T != "" && a.T != "0" {
		t = "t=" + url.QueryEscape(a.T)
	}
	if a.HasShare || a.Share != "" {
		fragment = append(fragment, "s="+a.Share)
		if t != "" {
			fragment = append(fragment, t)
		}
	} else if t != "" {
		query = append(query, t)
	}
	out := base
	if len(query) > 0 {
		sep := "?"
		if strings.Contains(base, "?") {
			sep = "&"
		}
		out += sep + strings.Join(query, "&")
	}
	if len(fragment) > 0 {
		out += "#" + strings.Join(fragment, "&")
	}
	return out
}

// readParams reads the parameters of a query or a fragment as
// url.ParseQuery does (the first value of a key is the one read), and the
// error of an s= value that cannot be decoded. Another value that cannot
// be decoded is kept as written, so that its own check reports it.
func readParams(raw string) (url.Values, error) {
	q := url.Values{}
	var shareErr error
	for _, pair := range strings.Split(raw, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		key, err := url.QueryUnescape(k)
		if err != nil {
			continue
		}
		value, err := url.QueryUnescape(v)
		switch {
		case err != nil && key == "s":
			if shareErr == nil {
				shareErr = escapeError(err)
			}
			continue
		case err != nil:
			value = v // as written: its check says what is wrong with it
		}
		q[key] = append(q[key], value)
	}
	return q, shareErr
}

// escapeError is the share error of an s= value that is not URL-encoded
// properly.
func escapeError(err error) error {
	var esc url.EscapeError
	if errors.As(err, &esc) {
		return fmt.Errorf("%w: its s= value has an invalid %% escape %q", scenario.ErrShareCorrupt, string(esc))
	}
	return fmt.Errorf("%w: its s= value cannot be read: %v", scenario.ErrShareCorrupt, err)
}

// ErrNoShare is the error of a link that carries no share.
var ErrNoShare = errors.New("the link has no s= (a share link is PAGE#s=SHARE)")

// ShareOfLink returns the share payload a link carries, read as the page
// reads its own address (ParseAddress): the s= value of the fragment, or of
// the query. A link that is neither a URL nor a fragment (no "://", '/',
// '?', '#' or '=') is the payload itself. It is the one reading of share
// links: `converge unshare` uses it, and the page's errors say the same.
func ShareOfLink(link string) (string, error) {
	if !strings.ContainsAny(link, "/?#=") {
		return link, nil
	}
	if !strings.Contains(link, "://") && !strings.HasPrefix(link, "/") && !strings.ContainsAny(link, "?#") {
		link = "#" + link // a fragment without its '#'
	}
	a := ParseAddress(link)
	switch {
	case !a.HasShare:
		return "", ErrNoShare
	case a.ShareErr != nil:
		return "", a.ShareErr
	}
	return a.Share, nil
}

// ShareLink is the link `converge share` prints for yaml from base (an
// absolute URL; its fragment is dropped): BASE#s=SHARE. A YAML beyond
// 64 KiB cannot be carried (ErrTooLargeForLink).
func ShareLink(base string, yaml []byte) (string, error) {
	share, err := scenario.EncodeShare(yaml)
	if err != nil {
		return "", err
	}
	base, _, _ = strings.Cut(base, "#")
	return Address{Share: share, HasShare: true}.URL(base), nil
}

// Link is what a link to the page carries: the scenario it shows, at its
// second.
type Link struct {
	// Builtin is view.Origin.Builtin: the built-in scenario the page runs
	// exactly, or "".
	Builtin string
	// YAML is the scenario as it runs, with the console's steps
	// (Scenario.Marshal).
	YAML []byte
	// T is the second the page shows.
	T int64
}

// ErrTooLargeForLink is the error of a scenario a link cannot carry.
var ErrTooLargeForLink = scenario.ErrShareTooLarge

// Address is the address of l: the built-in by name, or any other
// scenario as a share (scenario.EncodeShare of l.YAML, which fails beyond
// 64 KiB with ErrTooLargeForLink).
func (l Link) Address() (Address, error) {
	a := Address{}
	if l.T > 0 {
		a.T = strconv.FormatInt(l.T, 10)
	}
	if l.Builtin != "" {
		a.Scenario = l.Builtin
		return a, nil
	}
	share, err := scenario.EncodeShare(l.YAML)
	if err != nil {
		return Address{}, err
	}
	a.Share, a.HasShare = share, true
	return a, nil
}

// URL is the link to l from base (the page's address without query and
// fragment, or only its path, for the page's own address):
//
//	a built-in as loaded, at 30s → BASE?scenario=rolling-update&t=30
//	any other scenario, at 41s   → BASE#s=SHARE&t=41
//	at 0s                        → without &t=
func (l Link) URL(base string) (string, error) {
	a, err := l.Address()
	if err != nil {
		return "", err
	}
	return a.URL(base), nil
}

// Share is what the Share button does: copy URL, or, for a scenario too
// large for a link, save it in My scenarios instead.
type Share struct {
	URL string
	// TooLarge is set when no link can carry the scenario; Size is its
	// size in bytes.
	TooLarge bool
	Size     int
}

// ShareOf decides the Share button's link for l from base.
func ShareOf(base string, l Link) Share {
	u, err := l.URL(base)
	if err != nil {
		// EncodeShare fails only for a YAML beyond 64 KiB.
		return Share{TooLarge: true, Size: len(l.YAML)}
	}
	return Share{URL: u, Size: len(l.YAML)}
}
