package kubectl

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"converge/core/simtest"
	"converge/core/store"
	"converge/core/validation/field"
)

func TestRenderErrorIsKubectlCheckErr(t *testing.T) {
	t.Parallel()
	one := store.NewInvalid("Deployment", "web", field.ErrorList{field.Required(field.NewPath("spec", "selector"), "")})
	several := store.NewInvalid("Deployment", "web", field.ErrorList{
		field.Required(field.NewPath("spec", "selector"), ""),
		field.Invalid(field.NewPath("spec", "template", "metadata", "labels"), map[string]string{"app": "web"}, "`selector` does not match template `labels`"),
		field.Required(field.NewPath("spec", "selector"), ""),
	})
	_, notFound := simtest.NewStore().Get("Deployment", "default", "x")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"one cause", one, `The Deployment "web" is invalid: spec.selector: Required value`},
		{"several causes, duplicates dropped", several, "The Deployment \"web\" is invalid: \n* spec.selector: Required value\n" +
			"* spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{"invalid without causes", &store.StatusError{Reason: store.ReasonInvalid, Kind: "Pod", Name: "p"}, `The Pod "p" is invalid`},
		{"api error", notFound, `Error from server (NotFound): deployments.apps "x" not found`},
		{"api error without reason", &store.StatusError{Message: "boom"}, "Error from server: boom"},
		{"plain error", errors.New("boom"), "error: boom"},
		{"already prefixed", errors.New("error: boom"), "error: boom"},
		{"aggregate of one", aggregate{errors.New("boom")}, "error: boom"},
		{"aggregate of several", aggregate{errors.New("a"), notFound}, "a\nError from server (NotFound): deployments.apps \"x\" not found"},
		{"nested aggregate is printed without prefixes", aggregate{aggregate{errors.New("cannot delete x")}}, "cannot delete x"},
		{"silent", errSilent, ""},
		{"with source keeps the reason", withSource("creating", "web.yaml", notFound),
			`Error from server (NotFound): error when creating "web.yaml": deployments.apps "x" not found`},
		{"with source keeps invalid causes", withSource("creating", "web.yaml", one), `The Deployment "web" is invalid: spec.selector: Required value`},
		{"with source on a plain error", withSource("creating", "web.yaml", errors.New("boom")), `error: error when creating "web.yaml": boom`},
		{"usage error", &usageError{path: "kubectl create deployment", msg: "exactly one NAME is required, got 0"},
			"error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, renderError(tc.err))
		})
	}
	assert.Nil(t, newAggregate(nil))
	assert.Equal(t, "[a, b]", aggregate{errors.New("a"), errors.New("b")}.Error())
	assert.Equal(t, notFound, withSource("creating", "", notFound))
}
