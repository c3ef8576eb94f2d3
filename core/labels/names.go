package labels

import (
	"fmt"
	"regexp"
	"strings"
)

// The name and label rules of apimachinery's pkg/util/validation, with their texts.

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

var (
	qualifiedNameRe    = regexp.MustCompile("^" + qualifiedNameFmt + "$")
	labelValueRe       = regexp.MustCompile("^" + labelValueFmt + "$")
	dns1123LabelRe     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRe = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
)

func regexError(msg, fmtStr string, examples ...string) string {
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

// IsQualifiedName checks a label or annotation key ("app", "example.com/tier").
func IsQualifiedName(value string) []string {
	var errs []string
	parts := strings.Split(value, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		var prefix string
		prefix, name = parts[0], parts[1]
		if len(prefix) == 0 {
			errs = append(errs, "prefix part must be non-empty")
		} else if msgs := IsDNS1123Subdomain(prefix); len(msgs) != 0 {
			for _, m := range msgs {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return append(errs, "a qualified name "+regexError(qualifiedNameErr, qualifiedNameFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if len(name) == 0 {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > DNS1123LabelMaxLength {
		errs = append(errs, fmt.Sprintf("name part must be no more than %d bytes", DNS1123LabelMaxLength))
	}
	if !qualifiedNameRe.MatchString(name) {
		errs = append(errs, "name part "+regexError(qualifiedNameErr, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks a label value.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, fmt.Sprintf("must be no more than %d bytes", LabelValueMaxLength))
	}
	if !labelValueRe.MatchString(value) {
		errs = append(errs, regexError(labelValueErr, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// IsDNS1123Label checks a DNS-1123 label (pod names' parts, node names ...).
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, fmt.Sprintf("must be no more than %d bytes", DNS1123LabelMaxLength))
	}
	if !dns1123LabelRe.MatchString(value) {
		errs = append(errs, regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", dns1123LabelFmt, "my-name", "123-abc"))
	}
	return errs
}

// IsDNS1123Subdomain checks a DNS-1123 subdomain (object names).
func IsDNS1123Subdomain(value string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, fmt.Sprintf("must be no more than %d bytes", DNS1123SubdomainMaxLength))
	}
	if !dns1123SubdomainRe.MatchString(value) {
		errs = append(errs, regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", dns1123SubdomainFmt, "example.com"))
	}
	return errs
}
