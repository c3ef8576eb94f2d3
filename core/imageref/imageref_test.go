package imageref

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	ff64  = "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"
	ff128 = ff64 + ff64
)

// TestParse ports TestReferenceParse of github.com/distribution/reference
// reference_test.go (v0.6.0, the version Kubernetes vendors, whose tests
// register sha512 as the kubelet does).
func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		input, repository, domain, tag, digest string
		err                                    error
	}{
		{input: "test_com", repository: "test_com"},
		{input: "test.com:tag", repository: "test.com", tag: "tag"},
		{input: "test.com:5000", repository: "test.com", tag: "5000"},
		{input: "test.com/repo:tag", domain: "test.com", repository: "test.com/repo", tag: "tag"},
		{input: "test:5000/repo", domain: "test:5000", repository: "test:5000/repo"},
		{input: "test:5000/repo:tag", domain: "test:5000", repository: "test:5000/repo", tag: "tag"},
		{input: "test:5000/repo@sha256:" + ff64, domain: "test:5000", repository: "test:5000/repo", digest: "sha256:" + ff64},
		{input: "test:5000/repo:tag@sha256:" + ff64, domain: "test:5000", repository: "test:5000/repo", tag: "tag", digest: "sha256:" + ff64},
		{input: "", err: ErrNameEmpty},
		{input: ":justtag", err: ErrReferenceInvalidFormat},
		{input: "@sha256:" + ff64, err: ErrReferenceInvalidFormat},
		{input: "repo@sha256:ffffffffffffffffffffffffffffffffff", err: ErrDigestInvalidLength},
		{input: "validname@invaliddigest:" + ff64, err: ErrDigestUnsupported},
		{input: "Uppercase:tag", err: ErrNameContainsUppercase},
		{input: "test:5000/Uppercase/lowercase:tag", err: ErrNameContainsUppercase},
		{input: "lowercase:Uppercase", repository: "lowercase", tag: "Uppercase"},
		{input: "domain/" + strings.Repeat("a", 256) + ":tag", err: ErrNameTooLong},
		{input: strings.Repeat("a/", 127) + "a:tag-puts-this-over-max", domain: "a", repository: strings.Repeat("a/", 127) + "a", tag: "tag-puts-this-over-max"},
		{input: "aa/asdf$$^/aa", err: ErrReferenceInvalidFormat},
		{input: "sub-dom1.foo.com/bar/baz/quux", domain: "sub-dom1.foo.com", repository: "sub-dom1.foo.com/bar/baz/quux"},
		{input: "sub-dom1.foo.com/bar/baz/quux:some-long-tag", domain: "sub-dom1.foo.com", repository: "sub-dom1.foo.com/bar/baz/quux", tag: "some-long-tag"},
		{input: "b.gcr.io/test.example.com/my-app:test.example.com", domain: "b.gcr.io", repository: "b.gcr.io/test.example.com/my-app", tag: "test.example.com"},
		{input: "xn--n3h.com/myimage:xn--n3h.com", domain: "xn--n3h.com", repository: "xn--n3h.com/myimage", tag: "xn--n3h.com"},
		{input: "xn--7o8h.com/myimage:xn--7o8h.com@sha512:" + ff128, domain: "xn--7o8h.com", repository: "xn--7o8h.com/myimage", tag: "xn--7o8h.com", digest: "sha512:" + ff128},
		{input: "foo_bar.com:8080", repository: "foo_bar.com", tag: "8080"},
		{input: "foo/foo_bar.com:8080", domain: "foo", repository: "foo/foo_bar.com", tag: "8080"},
		{input: "192.168.1.1", repository: "192.168.1.1"},
		{input: "192.168.1.1:tag", repository: "192.168.1.1", tag: "tag"},
		{input: "192.168.1.1:5000", repository: "192.168.1.1", tag: "5000"},
		{input: "192.168.1.1/repo", domain: "192.168.1.1", repository: "192.168.1.1/repo"},
		{input: "192.168.1.1:5000/repo", domain: "192.168.1.1:5000", repository: "192.168.1.1:5000/repo"},
		{input: "192.168.1.1:5000/repo:5050", domain: "192.168.1.1:5000", repository: "192.168.1.1:5000/repo", tag: "5050"},
		{input: "[2001:db8::1]", err: ErrReferenceInvalidFormat},
		{input: "[2001:db8::1]:5000", err: ErrReferenceInvalidFormat},
		{input: "[2001:db8::1]:tag", err: ErrReferenceInvalidFormat},
		{input: "[2001:db8::1]/repo", domain: "[2001:db8::1]", repository: "[2001:db8::1]/repo"},
		{input: "[2001:db8:1:2:3:4:5:6]/repo:tag", domain: "[2001:db8:1:2:3:4:5:6]", repository: "[2001:db8:1:2:3:4:5:6]/repo", tag: "tag"},
		{input: "[2001:db8::1]:5000/repo", domain: "[2001:db8::1]:5000", repository: "[2001:db8::1]:5000/repo"},
		{input: "[2001:db8::1]:5000/repo:tag", domain: "[2001:db8::1]:5000", repository: "[2001:db8::1]:5000/repo", tag: "tag"},
		{input: "[2001:db8::1]:5000/repo@sha256:" + ff64, domain: "[2001:db8::1]:5000", repository: "[2001:db8::1]:5000/repo", digest: "sha256:" + ff64},
		{input: "[2001:db8::1]:5000/repo:tag@sha256:" + ff64, domain: "[2001:db8::1]:5000", repository: "[2001:db8::1]:5000/repo", tag: "tag", digest: "sha256:" + ff64},
		{input: "[2001:db8::]:5000/repo", domain: "[2001:db8::]:5000", repository: "[2001:db8::]:5000/repo"},
		{input: "[::1]:5000/repo", domain: "[::1]:5000", repository: "[::1]:5000/repo"},
		{input: "[fe80::1%eth0]:5000/repo", err: ErrReferenceInvalidFormat},
		{input: "[fe80::1%@invalidzone]:5000/repo", err: ErrReferenceInvalidFormat},
		{input: "example.com/" + strings.Repeat("a", 255) + ":tag", domain: "example.com", repository: "example.com/" + strings.Repeat("a", 255), tag: "tag"},
		// Beyond upstream's table: go-digest refuses uppercase hex, which the
		// reference grammar lets through.
		{input: "repo@sha256:" + strings.ToUpper(ff64), err: ErrDigestInvalidFormat},
	}
	for _, tc := range tests {
		name := tc.input
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r, err := Parse(tc.input)
			if tc.err != nil {
				assert.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.input, r.String())
			assert.Equal(t, tc.repository, r.Name())
			assert.Equal(t, tc.domain, r.Domain)
			assert.Equal(t, tc.tag, r.Tag)
			assert.Equal(t, tc.digest, r.Digest)
		})
	}
}

// TestParseNormalizedNamedValidity ports TestValidateReferenceName and
// TestValidateRemoteName of distribution/reference normalize_test.go.
func TestParseNormalizedNamedValidity(t *testing.T) {
	t.Parallel()
	valid := []string{
		"docker/docker", "library/debian", "debian", "localhost/library/debian", "localhost/debian",
		"LOCALDOMAIN/library/debian", "LOCALDOMAIN/debian", "docker.io/docker/docker", "docker.io/library/debian",
		"docker.io/debian", "index.docker.io/docker/docker", "index.docker.io/library/debian", "index.docker.io/debian",
		"127.0.0.1:5000/docker/docker", "127.0.0.1:5000/library/debian", "127.0.0.1:5000/debian", "192.168.0.1",
		"192.168.0.1:80", "192.168.0.1:8/debian", "192.168.0.2:25000/debian",
		"thisisthesongthatneverendsitgoesonandonandonthisisthesongthatnev", "[fc00::1]:5000/docker",
		"[fc00::1]:5000/docker/docker", "[fc00:1:2:3:4:5:6:7]:5000/library/debian",
		"docker.io/1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a", "Docker/docker", "DOCKER/docker",
		// TestValidateRemoteName
		"docker-rules/docker", "docker---rules/docker", "doc/docker", "d/docker", "jess/t", "dock__er/docker",
	}
	invalid := []string{
		"https://github.com/docker/docker", "docker/Docker", "-docker", "-docker/docker", "-docker.io/docker/docker",
		"docker///docker", "docker.io/docker/Docker", "docker.io/docker///docker", "[fc00::1]", "[fc00::1]:5000",
		"fc00::1:5000/debian", "[fe80::1%eth0]:5000/debian", "[2001:db8:3:4::192.0.2.33]:5000/debian",
		"1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a",
		// TestValidateRemoteName
		"docker-/docker", "-docker-/docker", "____/____", "_docker/_docker", "dock..er/docker", "dock_.er/docker",
		"dock-.er/docker", "docker/", strings.Repeat("this_is_not_a_valid_namespace_because_its_lenth_is_greater_than_255_", 4) + "/docker",
	}
	for _, s := range valid {
		t.Run("valid/"+s, func(t *testing.T) {
			t.Parallel()
			_, err := ParseNormalizedNamed(s)
			assert.NoError(t, err)
		})
	}
	for _, s := range invalid {
		name := s
		if len(name) > 60 {
			name = name[:60]
		}
		t.Run("invalid/"+name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseNormalizedNamed(s)
			assert.Error(t, err)
		})
	}
}

// TestNormalizedNames ports TestParseRepositoryInfo of distribution/reference
// normalize_test.go: every spelling of a repository gives the same familiar
// name, full name, domain and path.
func TestNormalizedNames(t *testing.T) {
	t.Parallel()
	tests := []struct{ remote, familiar, full, ambiguous, domain string }{
		{"fooo", "localhost/fooo", "localhost/fooo", "localhost/fooo", "localhost"},
		{"fooo/bar", "localhost/fooo/bar", "localhost/fooo/bar", "localhost/fooo/bar", "localhost"},
		{"fooo", "LOCALDOMAIN/fooo", "LOCALDOMAIN/fooo", "LOCALDOMAIN/fooo", "LOCALDOMAIN"},
		{"fooo/bar", "LOCALDOMAIN/fooo/bar", "LOCALDOMAIN/fooo/bar", "LOCALDOMAIN/fooo/bar", "LOCALDOMAIN"},
		{"fooo/bar", "fooo/bar", "docker.io/fooo/bar", "index.docker.io/fooo/bar", "docker.io"},
		{"library/ubuntu", "ubuntu", "docker.io/library/ubuntu", "library/ubuntu", "docker.io"},
		{"nonlibrary/ubuntu", "nonlibrary/ubuntu", "docker.io/nonlibrary/ubuntu", "", "docker.io"},
		{"other/library", "other/library", "docker.io/other/library", "", "docker.io"},
		{"private/moonbase", "127.0.0.1:8000/private/moonbase", "127.0.0.1:8000/private/moonbase", "", "127.0.0.1:8000"},
		{"privatebase", "127.0.0.1:8000/privatebase", "127.0.0.1:8000/privatebase", "", "127.0.0.1:8000"},
		{"private/moonbase", "example.com/private/moonbase", "example.com/private/moonbase", "", "example.com"},
		{"privatebase", "example.com/privatebase", "example.com/privatebase", "", "example.com"},
		{"private/moonbase", "example.com:8000/private/moonbase", "example.com:8000/private/moonbase", "", "example.com:8000"},
		{"privatebasee", "example.com:8000/privatebasee", "example.com:8000/privatebasee", "", "example.com:8000"},
		{"library/ubuntu-12.04-base", "ubuntu-12.04-base", "docker.io/library/ubuntu-12.04-base", "index.docker.io/library/ubuntu-12.04-base", "docker.io"},
		{"library/foo", "foo", "docker.io/library/foo", "docker.io/foo", "docker.io"},
		{"library/foo/bar", "library/foo/bar", "docker.io/library/foo/bar", "", "docker.io"},
		{"store/foo/bar", "store/foo/bar", "docker.io/store/foo/bar", "", "docker.io"},
		{"bar", "Foo/bar", "Foo/bar", "", "Foo"},
		{"bar", "FOO/bar", "FOO/bar", "", "FOO"},
	}
	for _, tc := range tests {
		spellings := []string{tc.familiar, tc.full}
		if tc.ambiguous != "" {
			spellings = append(spellings, tc.ambiguous)
		}
		for _, s := range spellings {
			t.Run(s, func(t *testing.T) {
				t.Parallel()
				r, err := ParseNormalizedNamed(s)
				require.NoError(t, err)
				assert.Equal(t, tc.full, r.String())
				assert.Equal(t, tc.domain, r.Domain)
				assert.Equal(t, tc.remote, r.Path)
			})
		}
	}
}

// TestNormalize ports the rows of TestParseDockerRef (distribution/reference
// normalize_test.go) that have no digest: the runtime reports the fully
// qualified name with the default tag. A reference with both a tag and a
// digest keeps both, as containerd reports the image the pod asked for.
func TestNormalize(t *testing.T) {
	t.Parallel()
	const dgst = "sha256:e6693c20186f837fc393390135d8a598a96a833917917789d63766cab6c59582"
	tests := []struct{ name, input, want string }{
		{"nothing", "busybox", "docker.io/library/busybox:latest"},
		{"tag only", "busybox:latest", "docker.io/library/busybox:latest"},
		{"digest only", "busybox@" + dgst, "docker.io/library/busybox@" + dgst},
		{"path only", "library/busybox", "docker.io/library/busybox:latest"},
		{"hostname only", "docker.io/busybox", "docker.io/library/busybox:latest"},
		{"no tag", "docker.io/library/busybox", "docker.io/library/busybox:latest"},
		{"no path", "docker.io/busybox:latest", "docker.io/library/busybox:latest"},
		{"no hostname", "library/busybox:latest", "docker.io/library/busybox:latest"},
		{"full reference with tag", "docker.io/library/busybox:latest", "docker.io/library/busybox:latest"},
		{"gcr reference without tag", "gcr.io/library/busybox", "gcr.io/library/busybox:latest"},
		{"both tag and digest", "gcr.io/library/busybox:latest@" + dgst, "gcr.io/library/busybox:latest@" + dgst},
		{"invalid: returned as is", "Nginx", "Nginx"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, Normalize(tc.input))
		})
	}
}

// TestApplyDefaultTag ports TestApplyDefaultImageTag of Kubernetes'
// pkg/kubelet/images/image_manager_test.go, and adds the errors the kubelet
// prints for invalid references.
func TestApplyDefaultTag(t *testing.T) {
	t.Parallel()
	const dgst = "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	tests := []struct{ name, input, want, err string }{
		{name: "root", input: "root", want: "root:latest"},
		{name: "root:tag", input: "root:tag", want: "root:tag"},
		{name: "root@sha", input: "root@" + dgst, want: "root@" + dgst},
		{name: "root:latest@sha", input: "root:latest@" + dgst, want: "root:latest@" + dgst},
		{name: "root:latest", input: "root:latest", want: "root:latest"},
		{name: "uppercase repository", input: "Nginx:1.25",
			err: `couldn't parse image name "Nginx:1.25": invalid reference format: repository name (library/Nginx) must be lowercase`},
		{name: "uppercase path under a registry", input: "registry.example.com/Team/web:1",
			err: `couldn't parse image name "registry.example.com/Team/web:1": invalid reference format: repository name (Team/web) must be lowercase`},
		{name: "two tags", input: "nginx:1.25:2", err: `couldn't parse image name "nginx:1.25:2": invalid reference format`},
		{name: "a space", input: "nginx 1.25", err: `couldn't parse image name "nginx 1.25": invalid reference format`},
		{name: "a tag with a slash", input: "nginx:v1/2", err: `couldn't parse image name "nginx:v1/2": invalid reference format`},
		{name: "a short digest", input: "nginx@sha256:abc", err: `couldn't parse image name "nginx@sha256:abc": invalid reference format`},
		{name: "a digest of the wrong length", input: "nginx@sha256:" + strings.Repeat("a", 40),
			err: `couldn't parse image name "nginx@sha256:` + strings.Repeat("a", 40) + `": invalid checksum digest length`},
		{name: "a bare image id", input: strings.Repeat("ab", 32),
			err: `couldn't parse image name "` + strings.Repeat("ab", 32) + `": invalid repository name (` + strings.Repeat("ab", 32) + `), cannot specify 64-byte hexadecimal strings`},
		{name: "a trailing colon", input: "nginx:", err: `couldn't parse image name "nginx:": invalid reference format`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := ApplyDefaultTag(tc.input)
			if tc.err != "" {
				require.Error(t, err)
				assert.Equal(t, tc.err, err.Error())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestValidateDigest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		err      error
	}{
		{"sha256", "sha256:" + ff64, nil},
		{"sha384", "sha384:" + ff64 + ff64[:32], nil},
		{"sha512", "sha512:" + ff128, nil},
		{"no colon", "sha256", ErrDigestInvalidFormat},
		{"nothing encoded", "sha256:", ErrDigestInvalidFormat},
		{"unknown algorithm", "md5:" + ff64, ErrDigestUnsupported},
		{"unknown and malformed", "MD5:" + ff64, ErrDigestInvalidFormat},
		{"too short", "sha256:ff", ErrDigestInvalidLength},
		{"not hex", "sha256:" + strings.Repeat("g", 64), ErrDigestInvalidFormat},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := ValidateDigest(tc.in)
			if tc.err == nil {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, tc.err)
			}
		})
	}
}

// FuzzParseNormalizedNamed: no input panics, an accepted reference prints
// back to one that parses to the same thing, and its normalized form is
// accepted too.
func FuzzParseNormalizedNamed(f *testing.F) {
	for _, s := range []string{"nginx", "nginx:1.25", "Nginx", "localhost:5000/a/b:c@sha256:" + ff64, "[::1]:5000/r", "a:b:c", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseNormalizedNamed(s)
		if err != nil {
			return
		}
		again, err := ParseNormalizedNamed(r.String())
		require.NoError(t, err, "%q normalizes to %q", s, r.String())
		assert.Equal(t, r, again)
		_, err = Parse(Normalize(s))
		assert.NoError(t, err)
	})
}
