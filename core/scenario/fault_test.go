package scenario

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFault(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want Fault
		str  string
	}{
		{"node-down node-2", Fault{Type: FaultNodeDown, Target: "node-2"}, "node-down node-2"},
		{"  node-up   node-2 ", Fault{Type: FaultNodeUp, Target: "node-2"}, "node-up node-2"},
		{"crash pod/web-5d9c-x2k4p", Fault{Type: FaultCrashPod, Target: "web-5d9c-x2k4p"}, "crash pod/web-5d9c-x2k4p"},
		{"crash po/a", Fault{Type: FaultCrashPod, Target: "a"}, "crash pod/a"},
		{"crash deployment/web", Fault{Type: FaultCrashDeployment, Target: "web"}, "crash deployment/web"},
		{"crash deploy/web", Fault{Type: FaultCrashDeployment, Target: "web"}, "crash deployment/web"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			f, err := ParseFault(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, *f)
			assert.Equal(t, tc.str, f.String())
			assert.Equal(t, tc.want.Type == FaultNodeDown || tc.want.Type == FaultNodeUp, f.IsNodeFault())
		})
	}
	var none *Fault
	assert.Equal(t, "", none.String())
	assert.False(t, none.IsNodeFault())
}

func TestParseFaultErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		col  int
		want string
	}{
		{"", 1, "empty fault; use node-down NODE, node-up NODE, crash pod/NAME or crash deployment/NAME"},
		{"node-dwn node-2", 1, `unknown fault "node-dwn"; did you mean "node-down"?; use node-down NODE, node-up NODE, crash pod/NAME or crash deployment/NAME`},
		{"reboot node-2", 1, `unknown fault "reboot"; use node-down NODE, node-up NODE, crash pod/NAME or crash deployment/NAME`},
		{"node-down", 10, "node-down needs a node name"},
		{"node-down node/x", 11, `node-down takes a node name such as node-2, not "node/x"`},
		{"node-down a b", 13, `unexpected "b" after the fault; use node-down NODE, node-up NODE, crash pod/NAME or crash deployment/NAME`},
		{"crash web", 7, `crash takes pod/NAME or deployment/NAME, not "web"`},
		{"crash rs/web", 7, `crash takes pod/NAME or deployment/NAME, not "rs/web"`},
		{"crash pod/", 11, `invalid name "" after "pod/"`},
		{"crash pod/a/b", 11, `invalid name "a/b" after "pod/"`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			_, err := ParseFault(tc.in)
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, tc.col, se.Col)
			assert.Equal(t, tc.want, se.Msg)
		})
	}
}
