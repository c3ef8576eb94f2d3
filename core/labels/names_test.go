package labels

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const (
	qualifiedMsg = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	subdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	labelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	valueMsg     = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)

// TestIsQualifiedName ports apimachinery's pkg/api/validate/content
// kube_test.go TestIsLabelKey (IsQualifiedName is its alias): a label key's
// limits are in bytes, its prefix's too.
func TestIsQualifiedName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"simple", nil},
		{"now-with-dashes", nil},
		{"1-starts-with-num", nil},
		{"1234", nil},
		{"simple/simple", nil},
		{"now-with-dashes/simple", nil},
		{"now-with-dashes/now-with-dashes", nil},
		{"now.with.dots/now-with-dashes", nil},
		{"now-with.dashes-and.dots/now_with_underscores", nil},
		{"Now_With.Mixed-Case", nil},
		{"1.2.3.4/5678", nil},
		{"UpperCase123", nil},
		{strings.Repeat("a", 63), nil},
		{strings.Repeat("a", 253) + "/" + strings.Repeat("b", 63), nil},
		{"", []string{"name part must be non-empty", qualifiedMsg}},
		{"nospecialchars%^=@", []string{qualifiedMsg}},
		{"cantendwithadash-", []string{qualifiedMsg}},
		{"-cantstartwithadash-", []string{qualifiedMsg}},
		{"only/one/slash", []string{"a valid label key " + strings.TrimPrefix(qualifiedMsg, "name part ") + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
		{"Example.com/abc", []string{"prefix part " + subdomainMsg}},
		{"example_com/abc", []string{"prefix part " + subdomainMsg}},
		{"example.com/", []string{"name part must be non-empty", qualifiedMsg}},
		{"/simple", []string{"prefix part must be non-empty"}},
		{"/", []string{"prefix part must be non-empty", "name part must be non-empty", qualifiedMsg}},
		{strings.Repeat("a", 64), []string{"name part must be no more than 63 bytes"}},
		{strings.Repeat("a", 254) + "/abc", []string{"prefix part must be no more than 253 bytes"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, IsQualifiedName(tc.in))
		})
	}
}

// TestIsValidLabelValue ports apimachinery's pkg/api/validate/content
// kube_test.go TestIsLabelValue: "must be no more than 63 bytes".
func TestIsValidLabelValue(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"simple", nil},
		{"now-with-dashes", nil},
		{"1-starts-with-num", nil},
		{"end-with-num-1", nil},
		{"1234", nil},
		{strings.Repeat("a", 63), nil},
		{"a.b_c-D", nil},
		{"nospecialchars%^=@", []string{valueMsg}},
		{"Tama-nui-te-rā.is.Māori.sun", []string{valueMsg}},
		{"\\backslashes\\are\\bad", []string{valueMsg}},
		{"-starts-with-dash", []string{valueMsg}},
		{"ends-with-dash-", []string{valueMsg}},
		{".starts.with.dot", []string{valueMsg}},
		{strings.Repeat("a", 64), []string{"must be no more than 63 bytes"}},
		{strings.Repeat("a", 63) + "-", []string{"must be no more than 63 bytes", valueMsg}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, IsValidLabelValue(tc.in))
		})
	}
}

// TestIsDNS1123Label ports apimachinery's pkg/util/validation
// validation_test.go TestIsDNS1123Label (and adds the texts): names say
// "must be no more than 63 characters".
func TestIsDNS1123Label(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"a", nil},
		{"ab", nil},
		{"abc", nil},
		{"a1", nil},
		{"a-1", nil},
		{"a--1--2--b", nil},
		{"0", nil},
		{"01", nil},
		{"012", nil},
		{"1a", nil},
		{"1-a", nil},
		{strings.Repeat("a", 63), nil},
		{"", []string{labelMsg}},
		{"A", []string{labelMsg}},
		{"ABC", []string{labelMsg}},
		{"aBc", []string{labelMsg}},
		{"a_c", []string{labelMsg}},
		{"-", []string{labelMsg}},
		{"a-", []string{labelMsg}},
		{"-a", []string{labelMsg}},
		{"a.b", []string{"must not contain dots"}},
		{"web.v1.2", []string{"must not contain dots"}},
		{".a", []string{labelMsg}},
		{"a@b", []string{labelMsg}},
		{strings.Repeat("a", 64), []string{"must be no more than 63 characters"}},
		{strings.Repeat("a", 62) + ".b", []string{"must be no more than 63 characters", "must not contain dots"}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, IsDNS1123Label(tc.in))
		})
	}
}

// TestIsDNS1123Subdomain ports apimachinery's pkg/util/validation
// validation_test.go TestIsDNS1123Subdomain (a sample of its good and bad
// values, with the texts): object names say "must be no more than 253
// characters".
func TestIsDNS1123Subdomain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []string
	}{
		{"a", nil},
		{"a.b.c.d.e", nil},
		{"aaa.bbb.ccc", nil},
		{"a1.b1-2.c", nil},
		{"11.22.33", nil},
		{strings.Repeat("a", 253), nil},
		{"", []string{subdomainMsg}},
		{"A", []string{subdomainMsg}},
		{"Web_1", []string{subdomainMsg}},
		{"a..b", []string{subdomainMsg}},
		{"a.", []string{subdomainMsg}},
		{".a", []string{subdomainMsg}},
		{"a.-b", []string{subdomainMsg}},
		{"a_b.c", []string{subdomainMsg}},
		{"a--1--2--b.a", nil},
		{"1--a--b--2.1", nil},
		{"aa.bb.cc.dd.ee", nil},
		{"1.2.3.4.5", nil},
		{"ab.A", []string{subdomainMsg}},
		{"0.A", []string{subdomainMsg}},
		{"aa.bB.cc.dd.ee", []string{subdomainMsg}},
		{"a@b", []string{subdomainMsg}},
		{"a:b", []string{subdomainMsg}},
		{"a b", []string{subdomainMsg}},
		{"1..2", []string{subdomainMsg}},
		{strings.Repeat("a", 254), []string{"must be no more than 253 characters"}},
		{strings.Repeat("a", 253) + "-", []string{"must be no more than 253 characters", subdomainMsg}},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, IsDNS1123Subdomain(tc.in))
		})
	}
}

// FuzzNameMatchers checks the hand-written matchers against kube's regular
// expressions.
func FuzzNameMatchers(f *testing.F) {
	for _, s := range []string{"", "a", "a-b", "a.b", "A_b.c", "-a", "a-", "a..b", "1.2.3", "web", "x/y", "é", "a\x00"} {
		f.Add(s)
	}
	qualified := regexp.MustCompile("^" + qualifiedNameFmt + "$")
	value := regexp.MustCompile("^" + labelValueFmt + "$")
	label := regexp.MustCompile("^" + dns1123LabelFmt + "$")
	subdomain := regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := isQualifiedNamePart(s), qualified.MatchString(s); got != want {
			t.Fatalf("isQualifiedNamePart(%q) = %v, regex says %v", s, got, want)
		}
		if got, want := s == "" || isQualifiedNamePart(s), value.MatchString(s); got != want {
			t.Fatalf("label value %q = %v, regex says %v", s, got, want)
		}
		if got, want := isDNS1123Label(s), label.MatchString(s); got != want {
			t.Fatalf("isDNS1123Label(%q) = %v, regex says %v", s, got, want)
		}
		if got, want := isDNS1123Subdomain(s), subdomain.MatchString(s); got != want {
			t.Fatalf("isDNS1123Subdomain(%q) = %v, regex says %v", s, got, want)
		}
	})
}
