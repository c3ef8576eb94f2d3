package view

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// PublicURLMeta is the name of the <meta> a page carries when `converge
// serve --public-url` or `converge export-site --base-url` gave the address
// its snippets should use (docs/embedding.md#the-embed-button).
const PublicURLMeta = "converge-public-url"

// ParsePublicURL checks an address given with --public-url or --base-url:
// an absolute http or https URL with a host, without query or fragment. It
// returns it with a trailing slash (the folder that holds converge.js).
func ParsePublicURL(s string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(s))
	switch {
	case err != nil:
		return "", fmt.Errorf("%q is not a URL: %w", s, errors.Unwrap(err))
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("%q: want an http:// or https:// address, the folder that holds converge.js", s)
	case u.Host == "" || u.Hostname() == "":
		return "", fmt.Errorf("%q has no host", s)
	case u.RawQuery != "" || u.Fragment != "" || u.User != nil:
		return "", fmt.Errorf("%q: want the folder's address alone, without a query, a fragment or a user", s)
	}
	out := u.String()
	if !strings.HasSuffix(out, "/") {
		out += "/"
	}
	return out, nil
}

// LocalAddress reports whether a page address is one that only this
// machine or its network can reach: a file: URL, localhost (and any name
// under .localhost, .local or .internal), or a loopback, private,
// link-local or unspecified IP. A snippet pointing there works only for the
// person who copied it.
func LocalAddress(pageURL string) bool {
	u, err := url.Parse(pageURL)
	if err != nil {
		return true
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return true
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "" || host == "localhost" {
		return true
	}
	for _, suffix := range []string{".localhost", ".local", ".internal"} {
		if strings.HasSuffix(host, suffix) {
			return true
		}
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return false // a public name, as far as this can tell
	}
	ip = ip.Unmap()
	return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()
}

// EmbedAddress is where the Embed panel's snippets point: publicURL when
// the page was given one (its <meta name="converge-public-url">), else the
// page's own address. local is true when that address is one only this
// machine or network reaches (LocalAddress), which the panel then says
// (EmbedLocalNote).
func EmbedAddress(pageURL, publicURL string) (address string, local bool) {
	if p, err := ParsePublicURL(publicURL); err == nil && publicURL != "" {
		return p, LocalAddress(p)
	}
	return pageURL, LocalAddress(pageURL)
}

// EmbedLocalNote is what the Embed panel says above snippets that point at
// address, which only this machine (or its network) reaches: where they
// work, and the two ways to get snippets that work where they are pasted.
func EmbedLocalNote(address string) string {
	origin := address
	if u, err := url.Parse(address); err == nil && u.Host != "" {
		origin = u.Scheme + "://" + u.Host
	}
	return "These snippets point at " + origin + ", which only this machine reaches: pasted into docs, they work only here. " +
		"Two ways that work: host the export (converge export-site DIR --base-url URL, then put DIR at URL; " +
		"or converge serve --public-url URL behind that address), which writes URL into the snippets; " +
		"or copy the export into the docs site and point the script tag at it by a relative path " +
		`(src="converge/converge.js").`
}
