package field

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestPathString(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		path *Path
		want string
	}{
		{"root", NewPath("metadata"), "metadata"},
		{"more names", NewPath("spec", "template", "spec"), "spec.template.spec"},
		{"child", NewPath("spec").Child("selector"), "spec.selector"},
		{"child with more", NewPath("spec").Child("template", "metadata", "labels"), "spec.template.metadata.labels"},
		{"index", NewPath("spec", "containers").Index(0).Child("image"), "spec.containers[0].image"},
		{"key", NewPath("spec").Child("resources", "limits").Key("cpu"), "spec.resources.limits[cpu]"},
		{"key with slash", NewPath("metadata", "annotations").Key("example.com/x"), "metadata.annotations[example.com/x]"},
		{"index then key", NewPath("data").Key("a").Index(2), "data[a][2]"},
		{"empty root is the whole object", NewPath(""), "[]"},
		{"empty key", NewPath("data").Key(""), "data[]"},
		{"nil", nil, "<nil>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.path.String())
		})
	}
}

func TestPathChildDoesNotChangeParent(t *testing.T) {
	t.Parallel()
	spec := NewPath("spec")
	a := spec.Child("a")
	b := spec.Child("b", "c")
	assert.Equal(t, "spec", spec.String())
	assert.Equal(t, "spec.a", a.String())
	assert.Equal(t, "spec.b.c", b.String())
	assert.Equal(t, "spec", b.Root().String())
}

type sample struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

type badJSON struct{ C chan int }

func TestRenderValue(t *testing.T) {
	t.Parallel()
	five := int32(5)
	var nilInt *int32
	var nilMap map[string]string
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"string", "abc", `"abc"`},
		{"string with quotes", `a"b`, `"a\"b"`},
		{"int", 5, "5"},
		{"int32", int32(-1), "-1"},
		{"int64", int64(600), "600"},
		{"uint", uint8(7), "7"},
		{"bool", true, "true"},
		{"pointer to int", &five, "5"},
		{"nil pointer", nilInt, `"null"`},
		{"nil", nil, `"null"`},
		{"map", map[string]string{"app": "web"}, `{"app":"web"}`},
		{"nil map", nilMap, "null"},
		{"empty map", map[string]string{}, "{}"},
		{"struct", sample{A: "x"}, `{"a":"x"}`},
		{"pointer to struct", &sample{A: "x", B: 2}, `{"a":"x","b":2}`},
		{"list", []string{"a", "b"}, `["a","b"]`},
		{"float", 1.5, "1.5"},
		{"not JSON", badJSON{}, "field.badJSON{C:(chan int)(nil)}"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, RenderValue(tc.v))
		})
	}
}

func TestErrorTexts(t *testing.T) {
	t.Parallel()
	p := NewPath("spec", "replicas")
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"required", Required(NewPath("spec", "selector"), ""), "spec.selector: Required value"},
		{"required with detail", Required(NewPath("metadata", "name"), "name or generateName is required"), "metadata.name: Required value: name or generateName is required"},
		{"invalid", Invalid(p, int32(-1), "must be greater than or equal to 0"), "spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{"invalid map", Invalid(NewPath("spec", "template", "metadata", "labels"), map[string]string{"app": "web"}, "`selector` does not match template `labels`"),
			"spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"},
		{"invalid without detail", Invalid(p, 3, ""), "spec.replicas: Invalid value: 3"},
		{"forbidden", Forbidden(NewPath("spec", "strategy", "rollingUpdate"), "may not be specified when strategy `type` is 'Recreate'"),
			"spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"},
		{"duplicate", Duplicate(NewPath("spec", "containers").Index(1).Child("name"), "web"), `spec.containers[1].name: Duplicate value: "web"`},
		{"not found", NotFound(NewPath("spec", "containers").Index(0).Child("volumeMounts").Index(0).Child("name"), "data"),
			`spec.containers[0].volumeMounts[0].name: Not found: "data"`},
		{"too long omits the value", TooLong(NewPath("metadata", "annotations"), "xxxx", 262144), "metadata.annotations: Too long: may not be more than 262144 bytes"},
		{"not supported", NotSupported(NewPath("spec", "template", "spec", "restartPolicy"), "OnFailure", []string{"Always"}),
			`spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"`},
		{"not supported without list", NotSupported(p, "x", nil), `spec.replicas: Unsupported value: "x"`},
		{"omitted value", &Error{Type: ErrorTypeInvalid, Field: "spec", BadValue: OmitValue, Detail: "d"}, "spec: Invalid value: d"},
		{"too many", &Error{Type: ErrorTypeTooMany, Field: "spec.x", BadValue: 5, Detail: "must have at most 3 items"}, "spec.x: Too many: 5: must have at most 3 items"},
		{"internal", &Error{Type: ErrorTypeInternal, Field: "spec", Detail: "boom"}, "spec: Internal error: boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, tc.want, tc.err.Error())
		})
	}
}

func TestErrorTypeString(t *testing.T) {
	t.Parallel()
	for typ, want := range map[ErrorType]string{
		ErrorTypeNotFound: "Not found", ErrorTypeRequired: "Required value", ErrorTypeDuplicate: "Duplicate value",
		ErrorTypeInvalid: "Invalid value", ErrorTypeNotSupported: "Unsupported value", ErrorTypeForbidden: "Forbidden",
		ErrorTypeTooLong: "Too long", ErrorTypeTooMany: "Too many", ErrorTypeInternal: "Internal error", ErrorType("Odd"): "Odd",
	} {
		assert.Equal(t, want, typ.String())
	}
}

func TestErrorList(t *testing.T) {
	t.Parallel()
	one := ErrorList{Required(NewPath("spec", "selector"), "")}
	assert.Equal(t, "spec.selector: Required value", one.Error())

	two := ErrorList{
		Required(NewPath("spec", "selector"), ""),
		Invalid(NewPath("spec", "template", "metadata", "labels"), map[string]string{"app": "web"}, "`selector` does not match template `labels`"),
		Required(NewPath("spec", "selector"), ""),
	}
	assert.Equal(t, "[spec.selector: Required value, spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`]", two.Error())
	assert.Equal(t, []string{"spec.selector: Required value", "spec.template.metadata.labels: Invalid value: {\"app\":\"web\"}: `selector` does not match template `labels`"}, two.Messages())
	assert.Empty(t, ErrorList(nil).Messages())
}
