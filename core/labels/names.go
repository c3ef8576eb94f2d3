package labels

import (
	"fmt"
	"strings"
)

// The name and label rules of apimachinery's pkg/util/validation (and
// pkg/api/validate/content), with their texts. The checks are hand-written
// loops equivalent to kube's regular expressions (quoted in the messages),
// because they run on every pod the simulation creates.
//
// The two packages word a length limit differently, and Kubernetes uses
// both: names (IsDNS1123Subdomain, IsDNS1123Label, and the other
// util/validation checks) say "must be no more than 253 characters"
// (MaxLenError); label keys and values (content.IsLabelKey, alias
// IsQualifiedName, and content.IsLabelValue, alias IsValidLabelValue) say
// "must be no more than 63 bytes" (MaxLenBytesError), the prefix of a label
// key included. See docs/kubernetes-rules.md §3.

const (
	qnameCharFmt        = "[A-Za-z0-9]"
	qnameExtCharFmt     = "[-A-Za-z0-9_.]"
	qualifiedNameFmt    = "(" + qnameCharFmt + qnameExtCharFmt + "*)?" + qnameCharFmt
	qualifiedNameErr    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt       = "(" + qualifiedNameFmt + ")?"
	labelValueErr       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	// LabelValueMaxLength is the longest label value.
	LabelValueMaxLength = 63
	// DNS1123LabelMaxLength is the longest DNS-1123 label (and qualified name part).
	DNS1123LabelMaxLength = 63
	// DNS1123SubdomainMaxLength is the longest DNS-1123 subdomain.
	DNS1123SubdomainMaxLength = 253
)

// RegexError is apimachinery's RegexError: msg, the examples and the regex.
func RegexError(msg, fmtStr string, examples ...string) string {
	if len(examples) == 0 {
		return msg + " (regex used for validation is '" + fmtStr + "')"
	}
	msg += " (e.g. "
	for i := range examples {
		if i > 0 {
			msg += " or "
		}
		msg += "'" + examples[i] + "', "
	}
	msg += "regex used for validation is '" + fmtStr + "')"
	return msg
}

// MaxLenError is util/validation's "must be no more than N characters", the
// text of every name and key check that is not a label rule.
func MaxLenError(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }

// MaxLenBytesError is pkg/api/validate/content's "must be no more than N
// bytes", the text of label keys and values since Kubernetes 1.35.
func MaxLenBytesError(n int) string { return fmt.Sprintf("must be no more than %d bytes", n) }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isLowerAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

// isQualifiedNamePart matches ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$.
func isQualifiedNamePart(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// isDNS1123Label matches ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$.
func isDNS1123Label(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain matches dot-separated DNS-1123 labels.
func isDNS1123Subdomain(s string) bool {
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			return isDNS1123Label(s)
		}
		if !isDNS1123Label(s[:i]) {
			return false
		}
		s = s[i+1:]
	}
}

// IsQualifiedName checks a label or annotation key ("app", "example.com/tier").
func IsQualifiedName(value string) []string {
	var prefix, name string
	switch i := strings.IndexByte(value, '/'); {
	case i < 0:
		name = value
	case strings.IndexByte(value[i+1:], '/') >= 0:
		return []string{"a valid label key " + RegexError(qualifiedNameErr, qualifiedNameFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	default:
		prefix, name = value[:i], value[i+1:]
		if prefix == "" {
			return qualifiedNameErrs([]string{"prefix part must be non-empty"}, name)
		}
	}
	if (prefix == "" || len(prefix) <= DNS1123SubdomainMaxLength && isDNS1123Subdomain(prefix)) &&
		len(name) <= DNS1123LabelMaxLength && isQualifiedNamePart(name) {
		return nil
	}
	var errs []string
	if prefix != "" {
		for _, m := range dns1123SubdomainErrs(prefix, MaxLenBytesError) {
			errs = append(errs, "prefix part "+m)
		}
	}
	return qualifiedNameErrs(errs, name)
}

func qualifiedNameErrs(errs []string, name string) []string {
	if len(name) == 0 {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > DNS1123LabelMaxLength {
		errs = append(errs, "name part "+MaxLenBytesError(DNS1123LabelMaxLength))
	}
	if !isQualifiedNamePart(name) {
		errs = append(errs, "name part "+RegexError(qualifiedNameErr, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks a label value.
func IsValidLabelValue(value string) []string {
	ok := value == "" || isQualifiedNamePart(value)
	if ok && len(value) <= LabelValueMaxLength {
		return nil
	}
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, MaxLenBytesError(LabelValueMaxLength))
	}
	if !ok {
		errs = append(errs, RegexError(labelValueErr, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// IsDNS1123Label checks a DNS-1123 label (container names, hostnames ...).
// A valid subdomain that only fails for its dots gets "must not contain dots".
func IsDNS1123Label(value string) []string {
	ok := isDNS1123Label(value)
	if ok && len(value) <= DNS1123LabelMaxLength {
		return nil
	}
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, MaxLenError(DNS1123LabelMaxLength))
	}
	if !ok {
		if isDNS1123Subdomain(value) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, RegexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// IsDNS1123Subdomain checks a DNS-1123 subdomain (object names).
func IsDNS1123Subdomain(value string) []string {
	return dns1123SubdomainErrs(value, MaxLenError)
}

// dns1123SubdomainErrs is IsDNS1123Subdomain with the length limit worded
// by maxLen: util/validation's for names, content's for label-key prefixes.
func dns1123SubdomainErrs(value string, maxLen func(int) string) []string {
	ok := isDNS1123Subdomain(value)
	if ok && len(value) <= DNS1123SubdomainMaxLength {
		return nil
	}
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLen(DNS1123SubdomainMaxLength))
	}
	if !ok {
		errs = append(errs, RegexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", dns1123SubdomainFmt, "example.com"))
	}
	return errs
}
