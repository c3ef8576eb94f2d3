package view

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFindObjectIsTheExpression: findObject agrees with the expression it
// replaces on every sequence of up to five of the pieces these texts are
// made of (and a few that are not), submatches included.
func TestFindObjectIsTheExpression(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`The ([A-Za-z]+) "([^"]+)" is invalid|([a-z]+(?:\.[a-z.]+)?) "([^"]+)" not found`)
	pieces := []string{"The ", "Deployment", ` "`, "web", `" is invalid`, "deployments.apps", `" not found`, " ", ".", `"`, "X"}
	var buf []string
	checked := 0
	var walk func(depth int)
	walk = func(depth int) {
		msg := ""
		for _, p := range buf {
			msg += p
		}
		kind, name, resource, ok := findObject(msg)
		m := re.FindStringSubmatch(msg)
		checked++
		if m == nil {
			if !assert.False(t, ok, "%q", msg) {
				t.FailNow()
			}
		} else {
			want := [3]string{m[1], m[2] + m[4], m[3]}
			if !assert.Equal(t, want, [3]string{kind, name, resource}, "%q", msg) {
				t.FailNow()
			}
		}
		if depth == 5 {
			return
		}
		for _, p := range pieces {
			buf = append(buf, p)
			walk(depth + 1)
			buf = buf[:len(buf)-1]
		}
	}
	walk(0)
	assert.Greater(t, checked, 100000)
	assert.Equal(t, "deployment/web", objectOf(`The Deployment "web" is invalid: spec.selector: Invalid value: {...}: field is immutable`))
	assert.Equal(t, "deployment/nope", objectOf(`Error from server (NotFound): deployments.apps "nope" not found`))
	assert.Equal(t, "", objectOf(`error: unknown command "scael" for "kubectl"`))
}
