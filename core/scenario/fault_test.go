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
		{"crash -l app=web", Fault{Type: FaultCrashSelector, Selector: "app=web"}, "crash -l app=web"},
		{"crash -l app=web --count=1", Fault{Type: FaultCrashSelector, Selector: "app=web", Count: 1}, "crash -l app=web --count=1"},
		{"crash --count 2 --selector=app=web,tier!=db", Fault{Type: FaultCrashSelector, Selector: "app=web,tier!=db", Count: 2},
			"crash -l app=web,tier!=db --count=2"},
		{"crash -l 'app in (web, api)'", Fault{Type: FaultCrashSelector, Selector: "app in (web, api)"}, "crash -l 'app in (web, api)'"},
		{"delete pod -l app=web --count=2", Fault{Type: FaultDeleteSelector, Selector: "app=web", Count: 2}, "delete pod -l app=web --count=2"},
		{"delete pods -l=app=web", Fault{Type: FaultDeleteSelector, Selector: "app=web"}, "delete pod -l app=web"},
		{"delete po -l \"a in (x)\"", Fault{Type: FaultDeleteSelector, Selector: "a in (x)"}, "delete pod -l 'a in (x)'"},
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
		{"", 1, "empty fault; use node-down NODE, node-up NODE, crash pod/NAME, crash deployment/NAME, crash -l SELECTOR [--count=N] or delete pod -l SELECTOR [--count=N]"},
		{"node-dwn node-2", 1, `unknown fault "node-dwn"; did you mean "node-down"?; use node-down NODE, node-up NODE, crash pod/NAME, crash deployment/NAME, crash -l SELECTOR [--count=N] or delete pod -l SELECTOR [--count=N]`},
		{"reboot node-2", 1, `unknown fault "reboot"; use node-down NODE, node-up NODE, crash pod/NAME, crash deployment/NAME, crash -l SELECTOR [--count=N] or delete pod -l SELECTOR [--count=N]`},
		{"node-down", 10, "node-down needs a node name"},
		{"node-down node/x", 11, `node-down takes a node name such as node-2, not "node/x"`},
		{"node-down a b", 13, `unexpected "b" after the fault; use node-down NODE, node-up NODE, crash pod/NAME, crash deployment/NAME, crash -l SELECTOR [--count=N] or delete pod -l SELECTOR [--count=N]`},
		{"crash web", 7, `crash takes pod/NAME, deployment/NAME or -l SELECTOR, not "web"`},
		{"crash rs/web", 7, `crash takes pod/NAME, deployment/NAME or -l SELECTOR, not "rs/web"`},
		{"crash pod/", 11, `invalid name "" after "pod/"`},
		{"crash pod/a/b", 11, `invalid name "a/b" after "pod/"`},
		{"crash -l", 9, "-l needs a value"},
		{"crash --count=1", 16, "crash needs -l SELECTOR, e.g. crash -l app=web --count=1"},
		{"crash -l app=web --count=0", 26, `--count takes a number of pods from 1 to 10000, not "0"`},
		{"crash -l app=web --count x", 26, `--count takes a number of pods from 1 to 10000, not "x"`},
		{"crash -l 'app in (web'", 10, `invalid selector "app in (web": unable to parse requirement: found '', expected: ',' or ')'`},
		{"crash -l app=web -l b=c", 18, "-l given twice"},
		{"crash -l app=web --force", 18, `unexpected "--force"; crash takes -l SELECTOR [--count=N]`},
		{"crash -l 'app=web", 10, "unterminated ' quote"},
		{"delete deploy/web", 8, `delete takes pod -l SELECTOR [--count=N], not "deploy/web"`},
		{"delete pod", 11, "delete pod needs -l SELECTOR, e.g. delete pod -l app=web --count=1"},
		{"delete pod web-1", 12, `unexpected "web-1"; delete pod takes -l SELECTOR [--count=N]`},
		{"delte pod -l a=b", 1, `unknown fault "delte"; did you mean "delete"?; use node-down NODE, node-up NODE, crash pod/NAME, crash deployment/NAME, crash -l SELECTOR [--count=N] or delete pod -l SELECTOR [--count=N]`},
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

// FuzzParseFault checks that no input panics, that every error has a
// column inside the input (or just after it), and that a parsed fault
// renders back to a line that parses to the same fault.
func FuzzParseFault(f *testing.F) {
	for _, s := range []string{"node-down node-2", "node-up n", "crash pod/a", "crash deploy/web", "crash -l app=web --count=1",
		"crash --selector='app in (a, b)' --count 3", "delete pod -l app=web", "delete pods -l=a=b --count=2", "crash -l \"x\"",
		"delete po -l 'a'", "crash -l", "crash -l '", "delete", "", "   ", "crash -l a=b --count=99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseFault(s)
		if err != nil {
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.True(t, se.Col >= 1 && se.Col <= len(s)+1, "column %d of %q", se.Col, s)
			assert.NotEmpty(t, se.Msg)
			return
		}
		again, err := ParseFault(got.String())
		require.NoError(t, err, "%q renders as %q", s, got.String())
		assert.Equal(t, *got, *again)
	})
}
