// Package imageref parses container image references the way the kubelet
// does before it pulls: github.com/distribution/reference's grammar and
// ParseNormalizedNamed (Docker Hub's "docker.io/library/" for familiar
// names), with the digest checks of github.com/opencontainers/go-digest for
// the algorithms the kubelet registers (sha256, sha384, sha512).
//
// The grammar, from distribution/reference's package doc:
//
//	reference        := name [ ":" tag ] [ "@" digest ]
//	name             := [domain '/'] remote-name
//	domain           := host [':' port-number]
//	host             := domain-name | IPv4address | \[ IPv6address \]
//	domain-name      := domain-component ['.' domain-component]*
//	domain-component := /([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])/
//	port-number      := /[0-9]+/
//	path-component   := alpha-numeric [separator alpha-numeric]*
//	remote-name      := path-component ['/' path-component]*
//	alpha-numeric    := /[a-z0-9]+/
//	separator        := /[_.]|__|[-]*/
//	tag              := /[\w][\w.-]{0,127}/
//	digest           := digest-algorithm ":" digest-hex
//	digest-hex       := /[0-9a-fA-F]{32,}/
//
// The grammar is upstream's regular expressions written out as functions
// (grammar.go; the page's wasm links no regexp), each checked against its
// expression, so a reference is valid here exactly when the kubelet accepts
// it; the error texts are upstream's too, because the kubelet prints them in
// the InspectFailed event and the InvalidImageName waiting message.
package imageref

import (
	"errors"
	"fmt"
	"strings"
)

// Errors of Parse, with distribution/reference's texts.
var (
	ErrReferenceInvalidFormat = errors.New("invalid reference format")
	ErrNameContainsUppercase  = errors.New("repository name must be lowercase")
	ErrNameEmpty              = errors.New("repository name must have at least one component")
	ErrNameTooLong            = fmt.Errorf("repository name must not be more than %d characters", RepositoryNameTotalLengthMax)
)

// Errors of a digest, with go-digest's texts.
var (
	ErrDigestInvalidFormat = errors.New("invalid checksum digest format")
	ErrDigestInvalidLength = errors.New("invalid checksum digest length")
	ErrDigestUnsupported   = errors.New("unsupported digest algorithm")
)

// RepositoryNameTotalLengthMax is the longest path (the name without its
// domain) a reference may have.
const RepositoryNameTotalLengthMax = 255

const (
	defaultDomain       = "docker.io"
	legacyDefaultDomain = "index.docker.io"
	officialRepoPrefix  = "library/"
	defaultTag          = "latest"
)

// Reference is a parsed image reference.
type Reference struct {
	Domain string // "docker.io", "registry.example.com:5000"; "" when the name has none (Parse only)
	Path   string // "library/nginx"
	Tag    string // "" when there is none
	Digest string // "sha256:..." or ""
}

// Name is the repository: domain and path.
func (r Reference) Name() string {
	if r.Domain == "" {
		return r.Path
	}
	return r.Domain + "/" + r.Path
}

// String is the whole reference: name, ":tag", "@digest".
func (r Reference) String() string {
	s := r.Name()
	if r.Tag != "" {
		s += ":" + r.Tag
	}
	if r.Digest != "" {
		s += "@" + r.Digest
	}
	return s
}

// TagNameOnly adds the default tag "latest" to a reference that has
// neither a tag nor a digest.
func (r Reference) TagNameOnly() Reference {
	if r.Tag == "" && r.Digest == "" {
		r.Tag = defaultTag
	}
	return r
}

// Parse is distribution/reference's Parse: the reference as written, not
// normalized (no default domain, no "library/").
func Parse(s string) (Reference, error) {
	if s == "" {
		return Reference{}, ErrNameEmpty
	}
	name, tag, digest, ok := splitReference(s)
	if !ok {
		if sl := strings.ToLower(s); sl != s {
			if _, _, _, ok := splitReference(sl); ok {
				return Reference{}, ErrNameContainsUppercase
			}
		}
		return Reference{}, ErrReferenceInvalidFormat
	}
	var r Reference
	if domain, path, ok := splitName(name); ok {
		r.Domain, r.Path = domain, path
	} else {
		r.Path = name
	}
	if len(r.Path) > RepositoryNameTotalLengthMax {
		return Reference{}, ErrNameTooLong
	}
	r.Tag = tag
	if digest != "" {
		if err := ValidateDigest(digest); err != nil {
			return Reference{}, err
		}
		r.Digest = digest
	}
	return r, nil
}

// ParseNormalizedNamed is distribution/reference's ParseNormalizedNamed: a
// familiar name ("nginx", "bitnami/redis:7") becomes a fully qualified one
// ("docker.io/library/nginx", "docker.io/bitnami/redis:7"). No default tag
// is added (see TagNameOnly).
func ParseNormalizedNamed(s string) (Reference, error) {
	if isIdentifier(s) {
		return Reference{}, fmt.Errorf("invalid repository name (%s), cannot specify 64-byte hexadecimal strings", s)
	}
	domain, remainder := splitDockerDomain(s)
	remote := remainder
	if i := strings.IndexByte(remainder, ':'); i >= 0 {
		remote = remainder[:i]
	}
	if strings.ToLower(remote) != remote {
		return Reference{}, fmt.Errorf("invalid reference format: repository name (%s) must be lowercase", remote)
	}
	return Parse(domain + "/" + remainder)
}

// splitDockerDomain is distribution/reference's splitDockerDomain: the first
// component is a domain when it is localhost, has a "." or a ":", or has an
// uppercase letter (a namespace may not); otherwise the domain is docker.io,
// where a single-component name is an official image under "library/".
func splitDockerDomain(name string) (domain, remoteName string) {
	maybeDomain, maybeRemote, ok := strings.Cut(name, "/")
	if !ok {
		return defaultDomain, officialRepoPrefix + name
	}
	switch {
	case maybeDomain == "localhost":
		domain, remoteName = maybeDomain, maybeRemote
	case maybeDomain == legacyDefaultDomain:
		domain, remoteName = defaultDomain, maybeRemote
	case strings.ContainsAny(maybeDomain, ".:"):
		domain, remoteName = maybeDomain, maybeRemote
	case strings.ToLower(maybeDomain) != maybeDomain:
		domain, remoteName = maybeDomain, maybeRemote
	default:
		domain, remoteName = defaultDomain, name
	}
	if domain == defaultDomain && !strings.ContainsRune(remoteName, '/') {
		remoteName = officialRepoPrefix + remoteName
	}
	return domain, remoteName
}

// digestSizes are the hex lengths of the algorithms the kubelet registers
// (it imports crypto/sha256 and crypto/sha512, which also provides sha384).
var digestSizes = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}

// ValidateDigest is go-digest's Digest.Validate for those algorithms.
func ValidateDigest(d string) error {
	alg, encoded, ok := strings.Cut(d, ":")
	if !ok || encoded == "" {
		return ErrDigestInvalidFormat
	}
	size, known := digestSizes[alg]
	if !known {
		if !isAnchoredDigest(d) {
			return ErrDigestInvalidFormat
		}
		return ErrDigestUnsupported
	}
	if len(encoded) != size {
		return ErrDigestInvalidLength
	}
	for i := 0; i < len(encoded); i++ {
		if c := encoded[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return ErrDigestInvalidFormat
		}
	}
	return nil
}

// ApplyDefaultTag is the kubelet's applyDefaultImageTag
// (pkg/kubelet/images/image_manager.go): the image as written, with
// ":latest" appended when it has neither a tag nor a digest; an image the
// parser refuses gives the kubelet's "couldn't parse image name" error.
func ApplyDefaultTag(image string) (string, error) {
	r, err := ParseNormalizedNamed(image)
	if err != nil {
		return "", fmt.Errorf("couldn't parse image name %q: %w", image, err)
	}
	if r.Tag == "" && r.Digest == "" {
		return image + ":" + defaultTag, nil
	}
	return image, nil
}

// Normalize is what the container runtime reports as a container's image:
// the fully qualified reference with the default tag, "nginx" being
// docker.io/library/nginx:latest. An invalid reference is returned as is.
func Normalize(image string) string {
	r, err := ParseNormalizedNamed(image)
	if err != nil {
		return image
	}
	return r.TagNameOnly().String()
}
