package validation

import (
	"fmt"
	"strconv"
	"strings"

	"converge/core/labels"
)

// The name and value rules of apimachinery's pkg/util/validation and
// pkg/api/validation that are not label rules (those live in core/labels),
// with their texts. Like the label rules they are hand-written loops
// equivalent to the regular expressions quoted in the messages.

// nameFunc validates an object name; prefix is true for generateName, whose
// trailing dash is allowed (apimachinery's ValidateNameFunc).
type nameFunc func(name string, prefix bool) []string

// maskTrailingDash is apimachinery's: a generateName like "web-" is checked
// as if it ended in a letter.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// nameIsDNSSubdomain is NameIsDNSSubdomain: Deployment, ReplicaSet, Pod,
// ConfigMap and Node names.
func nameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return labels.IsDNS1123Subdomain(name)
}

// nameIsDNSLabel is NameIsDNSLabel: namespaces.
func nameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return labels.IsDNS1123Label(name)
}

// nameIsDNS1035Label is NameIsDNS1035Label: Service names.
func nameIsDNS1035Label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1035Label(name)
}

const (
	dns1035LabelFmt    = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelErrMsg = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	configMapKeyFmt    = `[-._a-zA-Z0-9]+`
	configMapKeyErrMsg = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'"
	percentFmt         = "[0-9]+%"
	percentErrMsg      = "a valid percent string must be a numeric string followed by an ending '%'"
	relaxedEnvVarMsg   = "a valid environment variable name must consist only of printable ASCII characters other than '='"
	isNegativeErrorMsg = "must be greater than or equal to 0"
	fieldImmutableMsg  = "field is immutable"
)

func isLower(c byte) bool      { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool      { return c >= '0' && c <= '9' }
func isLowerAlnum(c byte) bool { return isLower(c) || isDigit(c) }

// IsDNS1035Label checks a DNS-1035 label: lower case alphanumerics and '-',
// starting with a letter, at most 63 characters.
func IsDNS1035Label(value string) []string {
	ok := value != "" && isLower(value[0]) && isLowerAlnum(value[len(value)-1])
	for i := 1; ok && i < len(value)-1; i++ {
		ok = isLowerAlnum(value[i]) || value[i] == '-'
	}
	if ok && len(value) <= labels.DNS1123LabelMaxLength {
		return nil
	}
	var errs []string
	if len(value) > labels.DNS1123LabelMaxLength {
		errs = append(errs, labels.MaxLenError(labels.DNS1123LabelMaxLength))
	}
	if !ok {
		errs = append(errs, labels.RegexError(dns1035LabelErrMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// IsConfigMapKey checks a ConfigMap data key.
func IsConfigMapKey(value string) []string {
	ok := value != ""
	for i := 0; ok && i < len(value); i++ {
		c := value[i]
		ok = isLowerAlnum(c) || c >= 'A' && c <= 'Z' || c == '-' || c == '_' || c == '.'
	}
	var errs []string
	if len(value) > labels.DNS1123SubdomainMaxLength {
		errs = append(errs, labels.MaxLenError(labels.DNS1123SubdomainMaxLength))
	}
	if !ok {
		errs = append(errs, labels.RegexError(configMapKeyErrMsg, configMapKeyFmt, "key.name", "KEY_NAME", "key-name"))
	}
	switch {
	case value == ".":
		errs = append(errs, `must not be '.'`)
	case value == "..":
		errs = append(errs, `must not be '..'`)
	case strings.HasPrefix(value, ".."):
		errs = append(errs, `must not start with '..'`)
	}
	return errs
}

// IsValidPortName checks a port name (IANA_SVC_NAME): at most 15 characters
// of [-a-z0-9], at least one letter, no "--", no dash at either end.
func IsValidPortName(port string) []string {
	var errs []string
	if len(port) > 15 {
		errs = append(errs, labels.MaxLenError(15))
	}
	charset, letter := port != "", false
	for i := 0; i < len(port); i++ {
		c := port[i]
		charset = charset && (isLowerAlnum(c) || c == '-')
		letter = letter || isLower(c)
	}
	if !charset {
		errs = append(errs, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
	}
	if !letter {
		errs = append(errs, "must contain at least one letter (a-z)")
	}
	if strings.Contains(port, "--") {
		errs = append(errs, "must not contain consecutive hyphens")
	}
	if len(port) > 0 && (port[0] == '-' || port[len(port)-1] == '-') {
		errs = append(errs, "must not begin or end with a hyphen")
	}
	return errs
}

// IsValidPortNum checks a port number: 1 to 65535.
func IsValidPortNum(port int) []string {
	if 1 <= port && port <= 65535 {
		return nil
	}
	return []string{inclusiveRangeError(1, 65535)}
}

func inclusiveRangeError(lo, hi int) string {
	return fmt.Sprintf(`must be between %d and %d, inclusive`, lo, hi)
}

// IsRelaxedEnvVarName checks an environment variable name the way current
// Kubernetes does (RelaxedEnvironmentVariableValidation, on by default since
// 1.32): printable ASCII other than '='.
func IsRelaxedEnvVarName(value string) []string {
	var errs []string
	if value == "" {
		errs = append(errs, "environment variable name must be non-empty")
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; c < ' ' || c > '~' || c == '=' {
			errs = append(errs, relaxedEnvVarMsg)
			break
		}
	}
	return errs
}

// IsValidPercent checks a percent string such as "25%".
func IsValidPercent(percent string) []string {
	ok := len(percent) > 1 && percent[len(percent)-1] == '%'
	for i := 0; ok && i < len(percent)-1; i++ {
		ok = isDigit(percent[i])
	}
	if ok {
		return nil
	}
	return []string{labels.RegexError(percentErrMsg, percentFmt, "1%", "93%")}
}

// validFirstDigit is the pod-deletion-cost rule: no '+' and no leading zeros.
func validFirstDigit(s string) bool {
	if s == "" {
		return false
	}
	return s[0] == '-' || s == "0" || s[0] >= '1' && s[0] <= '9'
}

// isValidDeletionCost is GetDeletionCostFromPodAnnotations' check: a 32-bit
// integer without a plus sign or leading zeros.
func isValidDeletionCost(s string) bool {
	if !validFirstDigit(s) {
		return false
	}
	_, err := strconv.ParseInt(s, 10, 32)
	return err == nil
}
