package api_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
)

func TestIntOrStringJSON(t *testing.T) {
	t.Parallel()
	type holder struct {
		V *api.IntOrString `json:"v,omitempty"`
	}
	tests := []struct {
		in   string
		want api.IntOrString
		out  string
	}{
		{`{"v":3}`, api.FromInt(3), `{"v":3}`},
		{`{"v":0}`, api.FromInt(0), `{"v":0}`},
		{`{"v":-1}`, api.FromInt(-1), `{"v":-1}`},
		{`{"v":"25%"}`, api.FromString("25%"), `{"v":"25%"}`},
		{`{"v":"3"}`, api.FromString("3"), `{"v":"3"}`},
		{`{"v":""}`, api.FromString(""), `{"v":""}`},
		{`{"v": 7 }`, api.FromInt(7), `{"v":7}`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			var h holder
			require.NoError(t, json.Unmarshal([]byte(tc.in), &h))
			require.NotNil(t, h.V)
			assert.Equal(t, tc.want, *h.V)
			out, err := json.Marshal(h)
			require.NoError(t, err)
			assert.Equal(t, tc.out, string(out))
		})
	}
	var h holder
	require.NoError(t, json.Unmarshal([]byte(`{"v":null}`), &h))
	assert.Nil(t, h.V)

	for _, bad := range []string{`{"v":1.5}`, `{"v":true}`, `{"v":2147483648}`, `{"v":{}}`} {
		var h holder
		assert.Error(t, json.Unmarshal([]byte(bad), &h), bad)
	}
}

func TestIntOrStringString(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "3", api.FromInt(3).String())
	assert.Equal(t, "25%", api.FromString("25%").String())
	assert.Equal(t, api.FromInt(4), *api.IntOrStringPtr(api.FromInt(4)))
}

func pct(s string) *api.IntOrString { v := api.FromString(s); return &v }
func num(n int32) *api.IntOrString  { v := api.FromInt(n); return &v }

// The raw columns of docs/kubernetes-rules.md §2's worked table: maxSurge rounds up,
// maxUnavailable down (before ResolveFenceposts turns 0/0 into 0/1).
func TestScaledValueReferenceTable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		row                      int
		replicas                 int
		maxSurge, maxUnavailable *api.IntOrString
		surge, unavailable       int
	}{
		{1, 0, pct("0%"), pct("0%"), 0, 0},
		{2, 10, pct("39%"), pct("39%"), 4, 3},
		{8, 10, pct("25%"), pct("25%"), 3, 2},
		{9, 3, pct("25%"), pct("25%"), 1, 0},
		{10, 1, pct("25%"), pct("25%"), 1, 0},
		{11, 4, pct("25%"), pct("25%"), 1, 1},
		{12, 5, pct("25%"), pct("25%"), 2, 1},
		{13, 2, pct("1%"), pct("1%"), 1, 0},
		{14, 100, pct("1%"), pct("1%"), 1, 1},
		{15, 10, pct("100%"), pct("100%"), 10, 10},
		{16, 10, pct("0%"), pct("100%"), 0, 10},
		{17, 10, pct("0%"), pct("1%"), 0, 0},
		{18, 3, num(0), pct("10%"), 0, 0},
		{19, 2, pct("0%"), pct("1%"), 0, 0},
		{20, 1, pct("1%"), pct("25%"), 1, 0},
		{21, 10, num(1), num(0), 1, 0},
		{22, 10, pct("150%"), pct("25%"), 15, 2},
		{23, 3, num(1), num(5), 1, 5},
		{24, 7, pct("30%"), pct("30%"), 3, 2},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("row %d", tc.row), func(t *testing.T) {
			t.Parallel()
			surge, err := api.ScaledValue(tc.maxSurge, tc.replicas, true)
			require.NoError(t, err)
			unavailable, err := api.ScaledValue(tc.maxUnavailable, tc.replicas, false)
			require.NoError(t, err)
			assert.Equal(t, tc.surge, surge, "maxSurge")
			assert.Equal(t, tc.unavailable, unavailable, "maxUnavailable")
		})
	}
}

// Rows 3 to 7 of the table: malformed and nil values, with intstr's texts.
func TestScaledValueErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    *api.IntOrString
		want string
	}{
		{"row 3 oops", pct("oops"), "invalid value for IntOrString: invalid type: string is not a percentage"},
		{"row 4 urg", pct("urg"), "invalid value for IntOrString: invalid type: string is not a percentage"},
		{"bad number", pct("urg%"), `invalid value for IntOrString: invalid value "urg%": strconv.Atoi: parsing "urg": invalid syntax`},
		{"string integer", pct("25"), "invalid value for IntOrString: invalid type: string is not a percentage"},
		{"rows 5 to 7 nil", nil, "nil value for IntOrString"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := api.ScaledValue(tc.v, 10, true)
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestParsePercent(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int{"0%": 0, "25%": 25, "100%": 100, "150%": 150} {
		got, ok := api.ParsePercent(in)
		assert.True(t, ok, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "%", "25", "-5%", "+5%", "2.5%", "a%", "99999999999999999999%"} {
		_, ok := api.ParsePercent(bad)
		assert.False(t, ok, bad)
	}
}
