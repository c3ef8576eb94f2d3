package manifest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/validation/field"
)

const mismatched = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: api-v2}
    spec:
      containers:
      - name: web
        image: nginx
`

func TestPlaceErrorsPutsEachErrorAtItsField(t *testing.T) {
	t.Parallel()
	docs, probs := Decode([]byte(mismatched), "web.yaml")
	require.Empty(t, probs)
	doc := docs[0]
	errs := field.ErrorList{
		field.Invalid(field.NewPath("spec", "template", "metadata", "labels"), map[string]string{"app": "api-v2"}, "`selector` does not match template `labels`"),
		field.Required(field.NewPath("spec", "template", "spec", "containers").Index(0).Child("image"), ""),
		field.Invalid(field.NewPath("spec", "strategy", "rollingUpdate", "maxSurge"), "200%", "must not be greater than 100%"),
		field.Required(field.NewPath("spec", "template", "spec", "containers").Index(0).Child("image"), ""),
		field.Invalid(field.NewPath("status"), 1, "x"),
	}
	assert.Equal(t, []string{
		"web.yaml:10:7: The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api-v2\"}: `selector` does not match template `labels`",
		"web.yaml:14:9: The Deployment \"web\" is invalid: spec.template.spec.containers[0].image: Required value",
		"web.yaml:5:1: The Deployment \"web\" is invalid: spec.strategy.rollingUpdate.maxSurge: Invalid value: \"200%\": must not be greater than 100%",
		"web.yaml:1:1: The Deployment \"web\" is invalid: status: Invalid value: 1: x",
	}, problemStrings(PlaceErrors(doc, doc.Object, errs)))
}

func TestValidateRunsTheAPIServerValidation(t *testing.T) {
	t.Parallel()
	docs, probs := Decode([]byte(mismatched), "web.yaml")
	require.Empty(t, probs)
	assert.Equal(t, []string{
		"web.yaml:10:7: The Deployment \"web\" is invalid: spec.template.metadata.labels: Invalid value: {\"app\":\"api-v2\"}: `selector` does not match template `labels`",
	}, problemStrings(Validate(docs[0])))
	assert.Nil(t, Validate(Doc{}))
}
