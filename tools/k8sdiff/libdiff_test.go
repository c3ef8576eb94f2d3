package k8sdiff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	capi "converge/core/api"
	"converge/core/kubectl/yamlprint"
	clabels "converge/core/labels"

	"k8s.io/apimachinery/pkg/api/resource"
	klabels "k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/yaml"
)

// The libraries Converge writes by hand against the ones they follow (the
// page's wasm cannot carry these: each would add about 150 KB of brotli):
// the YAML printer against sigs.k8s.io/yaml's JSONToYAML (go-yaml v2),
// label selectors against k8s.io/apimachinery/pkg/labels, quantities
// against resource.Quantity and percentages against intstr. Each runs
// K8SDIFF_LIB cases (20000) from a fixed seed and fails on any difference
// but the documented ones (docs/fidelity.md, "Differential tests"); the
// fixed rows are the inputs that once differed.

// libCases is how many random inputs each library check runs.
func libCases() int { return setting("K8SDIFF_LIB", 20000) }

// scalars are the strings the YAML check builds keys and values from.
var scalars = []string{"", " ", "a", "1", "01", "1.0", "-1", "+1", "1e3", "1E3", ".5", "0x1F", "0o17", "0b1", "1_000",
	"true", "True", "TRUE", "false", "yes", "Yes", "no", "No", "on", "off", "y", "n", "Y", "N", "null", "Null", "~",
	".inf", "-.inf", ".nan", ".NaN", "2026-01-01", "2026-01-01T00:00:00Z", "12:30", "1:2:3", "a: b", "a:b", "- x", "-x", "#x", "x #y",
	"x#y", "'", "\"", "'a'", "\"a\"", "*", "&a", "!t", "%", "@", "`", "{", "}", "[", "]", "?", ":", ",", "|", ">", "=",
	"<<", "a\nb", "a\n", "\n", "\ta", "a\t", " a", "a ", "é", "日本", "\x7f", "\u2028", "a\\b", "---", "...", "- ", "? x",
	"k8s.io/x", "myrepo/web:2.0", "25%", "100m", "1Gi", "http://x:80/y", "a,b", "[a]", "{a: 1}", "0", "-0", "00", "0.", "1.5e-7",
	strings.Repeat("word ", 20), strings.Repeat("x", 90), "a  b", "a \nb", "line1\nline2\n", "  lead\nx", "trail  \nx"}

// randValue is a random JSON value, at most 4 levels deep.
func randValue(r *rand.Rand, depth int) any {
	k := r.IntN(10)
	if depth > 3 {
		k = r.IntN(6)
	}
	switch k {
	case 0, 1, 2:
		return scalars[r.IntN(len(scalars))]
	case 3:
		nums := []string{"0", "1", "-1", "3", "10", "1.5", "0.1", "1e21", "1e-7", "123456789012345678", "2.5", "100", "-0.0", "1.0"}
		return json.Number(nums[r.IntN(len(nums))])
	case 4:
		return r.IntN(2) == 0
	case 5:
		if r.IntN(3) == 0 {
			return nil
		}
		return scalars[r.IntN(len(scalars))]
	case 6, 7, 8:
		m := map[string]any{}
		for i := r.IntN(4); i > 0; i-- {
			m[scalars[r.IntN(len(scalars))]] = randValue(r, depth+1)
		}
		return m
	default:
		var l []any
		for i := r.IntN(4); i > 0; i-- {
			l = append(l, randValue(r, depth+1))
		}
		if l == nil {
			l = []any{}
		}
		return l
	}
}

// yamlDiff is JSONToYAML against yamlprint.Marshal for one JSON document;
// "" when they agree (or JSONToYAML refuses the input).
func yamlDiff(b []byte) string {
	want, err := yaml.JSONToYAML(b)
	if err != nil {
		return ""
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return "decode: " + err.Error()
	}
	if got := yamlprint.Marshal(v); got != string(want) {
		return fmt.Sprintf("JSON %s\n--- sigs.k8s.io/yaml\n%s--- yamlprint\n%s", b, want, got)
	}
	return ""
}

func TestLibYAML(t *testing.T) {
	t.Parallel()
	fixed := []string{`{"<<":"<<"}`, `{"a\nb":1}`, `{"\n":{"k":1}}`, `{"x":[{"a\nb":1,"z":2}]}`, `{"a \nb":{}}`,
		`{"line1\nline2\n":["a"]}`, `{"a\u2028b":1}`, `{"k":"a\u2028b c"}`, `{"` + strings.Repeat("word ", 30) + `end":"v"}`}
	for _, f := range fixed {
		if d := yamlDiff([]byte(f)); d != "" {
			t.Error(d)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	bad, n := 0, libCases()
	for range n {
		v := map[string]any{"k": randValue(r, 0), scalars[r.IntN(len(scalars))]: randValue(r, 0)}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if d := yamlDiff(b); d != "" {
			if bad++; bad <= 10 {
				t.Error(d)
			}
		}
	}
	fmt.Printf("lib yaml: %d random documents and %d fixed, %d differ\n", n, len(fixed), bad)
}

// labelsDiff compares one selector: both accept it or both refuse it with
// the same text, print it the same, and match the same label sets.
func labelsDiff(s string, sets []map[string]string) string {
	ks, kerr := klabels.Parse(s)
	cs, cerr := clabels.Parse(s)
	switch {
	case (kerr == nil) != (cerr == nil):
		return fmt.Sprintf("%q: apimachinery err=%v; converge err=%v", s, kerr, cerr)
	case kerr != nil:
		if kerr.Error() != cerr.Error() {
			return fmt.Sprintf("%q: error texts differ:\n  apimachinery: %v\n  converge:     %v", s, kerr, cerr)
		}
		return ""
	case ks.String() != cs.String():
		return fmt.Sprintf("%q: String(): apimachinery %q, converge %q", s, ks.String(), cs.String())
	}
	for _, set := range sets {
		if ks.Matches(klabels.Set(set)) != cs.Matches(set) {
			return fmt.Sprintf("%q on %v: apimachinery %v, converge %v", s, set, ks.Matches(klabels.Set(set)), cs.Matches(set))
		}
	}
	return ""
}

func TestLibLabels(t *testing.T) {
	t.Parallel()
	fixedSets := []map[string]string{{}, {"env": ""}, {"env": "a"}, {"env": "b"}}
	fixed := []string{"env in (a,,)", "env in (,,)", "env in (a,)", "env in (a,,b)", "env in (,a)", "env notin (,)", "env in ()",
		"env in (a, )", `env in ("")`, "env notin (a,,)"}
	for _, f := range fixed {
		if d := labelsDiff(f, fixedSets); d != "" {
			t.Error(d)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	keys := []string{"app", "tier", "a.b/c", "x", "app.kubernetes.io/name", "-a", "a-", "A", "1", "k8s.io/", "/x", "a/b/c", strings.Repeat("k", 64)}
	vals := []string{"web", "", "1", "a-b", "a_b", "a.b", "-x", "x-", "UP", strings.Repeat("v", 64), "a b", "a,b"}
	ops := []string{"=", "==", "!=", " in ", " notin ", "", ">", "<", "=="}
	bad, n := 0, libCases()
	for range n {
		var parts []string
		for j := r.IntN(3) + 1; j > 0; j-- {
			k := keys[r.IntN(len(keys))]
			op := ops[r.IntN(len(ops))]
			var p string
			switch strings.TrimSpace(op) {
			case "in", "notin":
				var vs []string
				for m := r.IntN(3); m >= 0; m-- {
					vs = append(vs, vals[r.IntN(len(vals))])
				}
				p = k + op + "(" + strings.Join(vs, ",") + ")"
			case "":
				if r.IntN(2) == 0 {
					p = "!" + k
				} else {
					p = k
				}
			case ">", "<":
				p = k + op + []string{"1", "2", "x", "-1", "01"}[r.IntN(5)]
			default:
				p = k + op + vals[r.IntN(len(vals))]
			}
			if r.IntN(6) == 0 {
				p = " " + p + " "
			}
			parts = append(parts, p)
		}
		var sets []map[string]string
		for range 5 {
			set := map[string]string{}
			for m := r.IntN(3); m >= 0; m-- {
				set[keys[r.IntN(len(keys))]] = vals[r.IntN(len(vals))]
			}
			sets = append(sets, set)
		}
		if d := labelsDiff(strings.Join(parts, ","), sets); d != "" {
			if bad++; bad <= 10 {
				t.Error(d)
			}
		}
	}
	fmt.Printf("lib labels: %d random selectors and %d fixed, %d differ\n", n, len(fixed), bad)
}

// quantityDiff compares one quantity; tooLarge reports an input only
// Converge refuses as beyond its 2^62 milli-units (docs/limits.md).
// Converge keeps milli-units: a value apimachinery does not hold as a whole
// number of them is not compared.
func quantityDiff(s string) (diff string, tooLarge bool) {
	kq, kerr := resource.ParseQuantity(s)
	cq, cerr := capi.ParseQuantity(s)
	if (kerr == nil) != (cerr == nil) {
		if cerr != nil && strings.Contains(cerr.Error(), "too large") {
			return "", true
		}
		return fmt.Sprintf("%q: apimachinery err=%v; converge err=%v", s, kerr, cerr), false
	}
	if kerr != nil {
		if kerr.Error() != cerr.Error() {
			return fmt.Sprintf("%q: error texts differ: apimachinery %v, converge %v", s, kerr, cerr), false
		}
		return "", false
	}
	if kq.Cmp(*resource.NewMilliQuantity(kq.MilliValue(), kq.Format)) != 0 {
		// Not a whole number of milli-units as apimachinery holds it
		// (finer than 1m, or beyond its int64 milli-units, as -1Pi).
		return "", false
	}
	if kq.MilliValue() != cq.MilliValue() {
		return fmt.Sprintf("%q: apimachinery %dm, converge %dm", s, kq.MilliValue(), cq.MilliValue()), false
	}
	kc := kq.DeepCopy()
	kc.Add(resource.MustParse("0")) // drops the text as written: String() is then canonical
	if kc.String() != cq.CanonicalString() {
		return fmt.Sprintf("%q: apimachinery %s, converge %s", s, kc.String(), cq.CanonicalString()), false
	}
	return "", false
}

func TestLibQuantity(t *testing.T) {
	t.Parallel()
	fixed := []string{"Pi", "Ei", "-Pi", "+Ei", ".Pi", "Ti", "Ki", "m", "k", "E", "e3", "+", "-", ".", "+.", "-Mi", "0Pi", "1Pi", "1.5Ei"}
	for _, f := range fixed {
		if d, _ := quantityDiff(f); d != "" {
			t.Error(d)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	nums := []string{"0", "1", "2", "10", "100", "1000", "1024", "1536", "0.5", "1.5", "0.25", ".5", "5.", "001", "1.000", "-1", "+1",
		"123456789", "0.001", "0.0001", "3.14159", "", "a", "1.2.3", "9223372036854775807", "99999999999999999999"}
	sufs := []string{"", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e3", "E3", "e-3", "e0", "n", "u", "K",
		"mi", "i", "e", "E+2", " "}
	bad, tooLarge, n := 0, 0, libCases()
	for range n {
		d, big := quantityDiff(nums[r.IntN(len(nums))] + sufs[r.IntN(len(sufs))])
		if big {
			tooLarge++
		}
		if d != "" {
			if bad++; bad <= 10 {
				t.Error(d)
			}
		}
	}
	fmt.Printf("lib quantity: %d random quantities and %d fixed, %d differ (%d refused by Converge as too large, documented in docs/fidelity.md)\n",
		n, len(fixed), bad, tooLarge)
}

func TestLibIntstr(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 8))
	bad, n := 0, libCases()
	for range n {
		var s string
		switch r.IntN(4) {
		case 0:
			s = fmt.Sprintf("%d%%", r.IntN(300))
		case 1:
			s = fmt.Sprintf("%d", r.IntN(50))
		case 2:
			s = []string{"%", "x%", "1.5%", "-5%", "+5%", " 5%", "5 %", "05%", "0x10%", "5"}[r.IntN(10)]
		default:
			s = fmt.Sprintf("%d%%", r.IntN(101))
		}
		total, up := r.IntN(1000), r.IntN(2) == 0
		kv, cv := intstr.FromString(s), capi.FromString(s)
		kn, kerr := intstr.GetScaledValueFromIntOrPercent(&kv, total, up)
		cn, cerr := capi.ScaledValue(&cv, total, up)
		if (kerr == nil) != (cerr == nil) || kn != cn || (kerr != nil && kerr.Error() != cerr.Error()) {
			if bad++; bad <= 10 {
				t.Errorf("%q of %d up=%v: apimachinery %d %v; converge %d %v", s, total, up, kn, kerr, cn, cerr)
			}
		}
	}
	fmt.Printf("lib intstr: %d random percentages, %d differ\n", n, bad)
}
