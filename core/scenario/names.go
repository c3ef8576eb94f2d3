package scenario

import (
	"path"
	"sort"
	"strconv"
	"strings"
)

// MaxNameLength bounds scenario and node names.
const MaxNameLength = 63

// nameError says what is wrong with a scenario or node name, or "".
func nameError(s string) string {
	if s == "" {
		return "must not be empty"
	}
	if len(s) > MaxNameLength {
		return "must be at most " + strconv.Itoa(MaxNameLength) + " characters"
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return "must consist of lowercase letters, digits and '-', at most " + strconv.Itoa(MaxNameLength) + " characters"
		}
	}
	return ""
}

// NameFromFile makes a scenario name from a file name: the base name without
// its .yaml/.yml/.json extension, lower-cased, every run of other characters
// turned into one '-', at most 63 characters ("Rolling Update.yaml" →
// "rolling-update"); "scenario" when nothing is left.
func NameFromFile(file string) string {
	base := path.Base(strings.ReplaceAll(file, "\\", "/"))
	for _, ext := range []string{".yaml", ".yml", ".json"} {
		if b, ok := strings.CutSuffix(strings.ToLower(base), ext); ok {
			base = base[:len(b)]
			break
		}
	}
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(base) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(c)
			if b.Len() >= MaxNameLength {
				break
			}
			continue
		}
		dash = true
	}
	name := strings.TrimRight(b.String(), "-")
	if len(name) > MaxNameLength {
		name = strings.TrimRight(name[:MaxNameLength], "-")
	}
	if name == "" {
		return "scenario"
	}
	return name
}

// sortNodeNames sorts names naturally: node-2 before node-10.
func sortNodeNames(names []string) {
	sort.Slice(names, func(i, j int) bool { return naturalLess(names[i], names[j]) })
}

// naturalLess compares strings with runs of digits compared as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitPrefix(a), digitPrefix(b)
		if da != "" && db != "" {
			ta, tb := strings.TrimLeft(da, "0"), strings.TrimLeft(db, "0")
			if len(ta) != len(tb) {
				return len(ta) < len(tb)
			}
			if ta != tb {
				return ta < tb
			}
			a, b = a[len(da):], b[len(db):]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitPrefix(s string) string {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i]
}
