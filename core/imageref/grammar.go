package imageref

import "strings"

// The grammar of distribution/reference's regexp.go, written out as
// functions: the page's wasm links no regexp package
// (docs/performance.md). grammar_test.go checks each against upstream's
// expression (internal/matchtest), and Parse against a Parse over the
// expressions themselves.

// splitReference splits a whole reference as upstream's ReferenceRegexp
// does (name, tag, digest), or reports that it does not match. The split is
// unique: the first "@" starts the digest (no part before it may hold an
// "@"); a ":" followed by no "/" can only start the tag, as a name holds
// ":" only in its domain's port, which a "/" follows.
func splitReference(s string) (name, tag, digest string, ok bool) {
	name = s
	if i := strings.IndexByte(s, '@'); i >= 0 {
		name, digest = s[:i], s[i+1:]
		if !isDigestPat(digest) {
			return "", "", "", false
		}
	}
	if i := strings.LastIndexByte(name, ':'); i >= 0 && !strings.Contains(name[i+1:], "/") {
		name, tag = name[:i], name[i+1:]
		if !isTag(tag) {
			return "", "", "", false
		}
	}
	if !isName(name) {
		return "", "", "", false
	}
	return name, tag, digest, true
}

// splitName splits a name as upstream's anchoredNameRegexp does: the part
// before the first "/" is the domain when it is a domain and what follows a
// remote name (the optional group is greedy), else there is no domain.
func splitName(name string) (domain, path string, ok bool) {
	if i := strings.IndexByte(name, '/'); i >= 0 && isDomainAndPort(name[:i]) && isRemoteName(name[i+1:]) {
		return name[:i], name[i+1:], true
	}
	if isRemoteName(name) {
		return "", name, true
	}
	return "", "", false
}

// isName is namePat: [domainAndPort "/"] remoteName.
func isName(s string) bool {
	_, _, ok := splitName(s)
	return ok
}

// isDomainAndPort is domainAndPort: a host (a domain name or a bracketed
// IPv6 address), then an optional ":" and digits.
func isDomainAndPort(s string) bool {
	host, port := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return false
		}
		host, port = s[:end+1], s[end+1:]
		if !isIPv6Address(host) {
			return false
		}
	} else {
		if i := strings.IndexByte(s, ':'); i >= 0 {
			host, port = s[:i], s[i:]
		}
		if !isDomainName(host) {
			return false
		}
	}
	if port == "" {
		return true
	}
	return len(port) > 1 && port[0] == ':' && allBytes(port[1:], isDigit)
}

// isIPv6Address is ipv6address: "[" hex digits and colons "]".
func isIPv6Address(s string) bool {
	return len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' &&
		allBytes(s[1:len(s)-1], func(c byte) bool { return isHex(c) || c == ':' })
}

// isDomainName is domainName: components separated by single dots, each
// letters, digits and inner hyphens.
func isDomainName(s string) bool {
	for _, c := range strings.Split(s, ".") {
		if c == "" || c[0] == '-' || c[len(c)-1] == '-' ||
			!allBytes(c, func(b byte) bool { return isAlnum(b) || b == '-' }) {
			return false
		}
	}
	return true
}

// isRemoteName is remoteName: path components separated by single
// slashes.
func isRemoteName(s string) bool {
	for _, c := range strings.Split(s, "/") {
		if !isPathComponent(c) {
			return false
		}
	}
	return true
}

// isPathComponent is pathComponent: runs of lowercase letters and digits,
// separated by ".", "_", "__" or any number of "-".
func isPathComponent(s string) bool {
	i := 0
	for {
		start := i
		for i < len(s) && isLowerAlnum(s[i]) {
			i++
		}
		if i == start {
			return false
		}
		if i == len(s) {
			return true
		}
		switch {
		case s[i] == '.':
			i++
		case strings.HasPrefix(s[i:], "__"):
			i += 2
		case s[i] == '_':
			i++
		case s[i] == '-':
			for i < len(s) && s[i] == '-' {
				i++
			}
		default:
			return false
		}
	}
}

// isTag is tagPat: a word character, then up to 127 word characters, dots
// and hyphens.
func isTag(s string) bool {
	return len(s) >= 1 && len(s) <= 128 && isWord(s[0]) &&
		allBytes(s, func(c byte) bool { return isWord(c) || c == '.' || c == '-' })
}

// isDigestPat is digestPat: an algorithm (letter-led parts joined by one of
// "-_+."), ":", then at least 32 hex digits.
func isDigestPat(s string) bool {
	alg, hex, ok := strings.Cut(s, ":")
	if !ok || len(hex) < 32 || !allBytes(hex, isHex) {
		return false
	}
	return isJoined(alg, "-_+.", func(part string) bool {
		return part != "" && isLetter(part[0]) && allBytes(part, isAlnum)
	})
}

// isIdentifier is upstream's anchored identifier: 64 lowercase hex digits.
func isIdentifier(s string) bool {
	return len(s) == 64 && allBytes(s, func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' })
}

// isAnchoredDigest is go-digest's DigestRegexpAnchored: an algorithm
// (lowercase parts joined by one of ".+_-"), ":", then letters, digits,
// "=", "_" and "-".
func isAnchoredDigest(s string) bool {
	alg, enc, ok := strings.Cut(s, ":")
	if !ok || enc == "" || !allBytes(enc, func(c byte) bool { return isAlnum(c) || c == '=' || c == '_' || c == '-' }) {
		return false
	}
	return isJoined(alg, ".+_-", func(part string) bool { return part != "" && allBytes(part, isLowerAlnum) })
}

// isJoined reports whether s is parts for which ok holds, each two joined
// by exactly one byte of seps.
func isJoined(s, seps string, ok func(string) bool) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || strings.IndexByte(seps, s[i]) >= 0 {
			if !ok(s[start:i]) {
				return false
			}
			start = i + 1
		}
	}
	return true
}

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isLetter(c byte) bool     { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool      { return isDigit(c) || isLetter(c) }
func isLowerAlnum(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'z' }
func isHex(c byte) bool        { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isWord(c byte) bool       { return isAlnum(c) || c == '_' }
