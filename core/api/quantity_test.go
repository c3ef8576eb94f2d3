package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

func TestParseQuantity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in        string
		milli     int64
		value     int64
		canonical string
	}{
		{"100m", 100, 1, "100m"},
		{"0.5", 500, 1, "500m"},
		{".5", 500, 1, "500m"},
		{"5.", 5000, 5, "5"},
		{"1.5", 1500, 2, "1500m"},
		{"4", 4000, 4, "4"},
		{"0", 0, 0, "0"},
		{"+1", 1000, 1, "1"},
		{"-1", -1000, -1, "-1"},
		{"1Gi", 1 << 30 * 1000, 1 << 30, "1Gi"},
		{"128Mi", 128 << 20 * 1000, 128 << 20, "128Mi"},
		{"1.5Gi", 1536 << 20 * 1000, 1536 << 20, "1536Mi"},
		{"0.5Ki", 512000, 512, "512"},
		{"1024Mi", 1 << 30 * 1000, 1 << 30, "1Gi"},
		{"1000Ki", 1024000000, 1024000, "1000Ki"},
		{"1e3", 1000000, 1000, "1e3"},
		{"1E3", 1000000, 1000, "1e3"},
		{"1e-3", 1, 1, "1e-3"},
		{"2e0", 2000, 2, "2"},
		{"1.5e3", 1500000, 1500, "1500"},
		{"2k", 2000000, 2000, "2k"},
		{"2000m", 2000, 2, "2"},
		{"1500k", 1500000000, 1500000, "1500k"},
		{"1M", 1000000000, 1000000, "1M"},
		{"8G", 8000000000000, 8000000000, "8G"},
		{"1T", 1000000000000000, 1000000000000, "1T"},
		{"1P", 1000000000000000000, 1000000000000000, "1P"},
		{"1e-31", 1, 1, "1e-3"}, // rounded up to 1m
		{"1u", 1, 1, "1m"},      // rounded up to 1m
		{"1n", 1, 1, "1m"},
		{"0.0001", 1, 1, "1m"},
		{"110", 110000, 110, "110"},
		{"00010", 10000, 10, "10"},
		{"Gi", 0, 0, "0"}, // no digits read as zero, as in kube
		{"+", 0, 0, "0"},
		{".", 0, 0, "0"},
		{"5.Gi", 5 << 30 * 1000, 5 << 30, "5Gi"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			q, err := api.ParseQuantity(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.milli, q.MilliValue())
			assert.Equal(t, tc.value, q.Value())
			assert.Equal(t, tc.in, q.String(), "the text is kept as written")
			assert.Equal(t, tc.canonical, q.CanonicalString())
		})
	}
}

func TestParseQuantityErrors(t *testing.T) {
	t.Parallel()
	const format = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
	const suffix = "unable to parse quantity's suffix"
	tests := []struct {
		in   string
		want string
	}{
		{"", format},
		{"abc", format},
		{"1x", format},
		{"1.5.5", format},
		{" 1", format},
		{"1 ", format},
		{"1,5", format},
		{"1Gi ", format},
		{"1Mi5x", format},
		{"--1", suffix},
		{"1K", suffix},
		{"1e", suffix},
		{"1e+", suffix},
		{"1Mi5", suffix},
		{"1mi", suffix},
		// No number before Pi or Ei (found by tools/k8sdiff's TestLibQuantity):
		// apimachinery needs a digit there, while "Ti" alone is 0.
		{"Pi", "unable to parse numeric part of quantity"},
		{"Ei", "unable to parse numeric part of quantity"},
		{"-Pi", "unable to parse numeric part of quantity"},
		{".Ei", "unable to parse numeric part of quantity"},
		{"1ii", suffix},
		{"1kk", suffix},
		{"1e3.5", format},
		{"+-1", suffix},
		{strings.Repeat("1", 65), format},
		{"1e31", `quantity "1e31" is too large`},
		{"1E", `quantity "1E" is too large`}, // beyond 2^62 milli-units, a Converge limit
		{"1Ei", `quantity "1Ei" is too large`},
		{"9223372036854775807", `quantity "9223372036854775807" is too large`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			_, err := api.ParseQuantity(tc.in)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestQuantityHelpers(t *testing.T) {
	t.Parallel()
	assert.Equal(t, 1, api.MustQuantity("1").Sign())
	assert.Equal(t, -1, api.MustQuantity("-1m").Sign())
	assert.Equal(t, 0, api.MustQuantity("0").Sign())
	assert.Equal(t, int64(0), api.MustQuantity("-1m").Value(), "negative values round toward zero in Value")
	assert.True(t, api.Quantity{}.IsZero())
	assert.False(t, api.MustQuantity("0").IsZero(), "a written 0 is set")
	assert.Panics(t, func() { api.MustQuantity("bad") })

	l := api.ResourceList{"cpu": api.MustQuantity("1")}
	c := l.DeepCopy()
	c["cpu"] = api.MustQuantity("2")
	assert.Equal(t, "1", l["cpu"].String())
	assert.Nil(t, api.ResourceList(nil).DeepCopy())
}

func TestQuantityJSON(t *testing.T) {
	t.Parallel()
	type holder struct {
		Q api.Quantity `json:"q"`
	}
	tests := []struct {
		in   string
		want string
		err  string
	}{
		{`{"q":"100m"}`, `{"q":"100m"}`, ""},
		{`{"q":0.5}`, `{"q":"0.5"}`, ""},
		{`{"q":2}`, `{"q":"2"}`, ""},
		{`{"q":" 1Gi "}`, `{"q":"1Gi"}`, ""},
		{`{"q":null}`, `{"q":"0"}`, ""},
		{`{"q":"1K"}`, "", "unable to parse quantity's suffix"},
		{`{"q":true}`, "", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
		{`{"q":"\u0000"}`, "", "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			var h holder
			err := json.Unmarshal([]byte(tc.in), &h)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			out, err := json.Marshal(h)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(out))
		})
	}
}

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"100m", "0.5", "1Gi", "1e3", "2k", "1.5Gi", "-1", "+.5e-2", "1K", "1e", "abc", "Gi", "1e30", "9e18", "1Mi5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := api.ParseQuantity(s)
		if err != nil {
			return
		}
		// What parsed prints back as written, and both its text and its
		// canonical form read back to the same value.
		if q.String() != s {
			t.Fatalf("ParseQuantity(%q).String() = %q", s, q.String())
		}
		again, err := api.ParseQuantity(q.CanonicalString())
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", q.CanonicalString(), s, err)
		}
		if again.MilliValue() != q.MilliValue() {
			t.Fatalf("canonical %q of %q is %d milli, want %d", q.CanonicalString(), s, again.MilliValue(), q.MilliValue())
		}
		b, err := json.Marshal(q)
		if err != nil {
			t.Fatal(err)
		}
		var back api.Quantity
		if err := json.Unmarshal(b, &back); err != nil || back.MilliValue() != q.MilliValue() {
			t.Fatalf("JSON round trip of %q: %s, %v", s, b, err)
		}
	})
}

// TestQuantityPlus follows resource.Quantity's Add and String (apimachinery
// pkg/api/resource quantity_test.go TestAdd): the sum keeps the first
// operand's notation, or takes the second's when the first is zero.
func TestQuantityPlus(t *testing.T) {
	t.Parallel()
	tests := []struct{ a, b, sum, diff string }{
		{"500m", "1", "1500m", "-500m"},
		{"1", "1", "2", "0"},
		{"0", "128Mi", "128Mi", "-128Mi"},
		{"128Mi", "128Mi", "256Mi", "0"},
		{"1Gi", "100M", "1173741824", "973741824"},
		{"1e3", "1", "1001", "999"},
		{"100m", "100m", "200m", "0"},
	}
	for _, tc := range tests {
		t.Run(tc.a+"+"+tc.b, func(t *testing.T) {
			t.Parallel()
			a, b := api.MustQuantity(tc.a), api.MustQuantity(tc.b)
			assert.Equal(t, tc.sum, a.Plus(b).String())
			assert.Equal(t, tc.diff, a.Minus(b).String())
			assert.Equal(t, a.MilliValue()+b.MilliValue(), a.Plus(b).MilliValue())
		})
	}
	assert.Equal(t, "3", api.NewQuantity(3).String())
}
