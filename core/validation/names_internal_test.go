package validation

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNameFuncsWithPrefix(t *testing.T) {
	t.Parallel()
	assert.Empty(t, nameIsDNSSubdomain("web-", true), "a generateName may end in a dash")
	assert.NotEmpty(t, nameIsDNSSubdomain("web-", false))
	assert.Empty(t, nameIsDNSLabel("web-", true))
	assert.NotEmpty(t, nameIsDNSLabel("a.b-", true))
	assert.Empty(t, nameIsDNS1035Label("svc-", true))
	assert.NotEmpty(t, nameIsDNS1035Label("1svc-", true))
	assert.Equal(t, "-", maskTrailingDash("-"), "a lone dash stays")
	assert.Equal(t, "wea", maskTrailingDash("web-"), "kube replaces the last two characters")
}

func TestSmallHelpers(t *testing.T) {
	t.Parallel()
	assert.False(t, validFirstDigit(""))
	assert.False(t, isValidDeletionCost(""))
	assert.True(t, isValidDeletionCost("-2147483648"))
	assert.Equal(t, 3, binarySize("AAAA"))
	assert.Equal(t, 5, binarySize("not64"), "text that is not base64 counts as is")
	for in, want := range map[string][2]string{"v1": {"", "v1"}, "apps/v1": {"apps", "v1"}, "a/b/c": {"", ""}, "": {"", ""}} {
		g, v := splitAPIVersion(in)
		assert.Equal(t, want, [2]string{g, v}, in)
	}
	assert.Nil(t, validateLabelSelector(nil, nil))
	p := root("spec")
	c := p.child("containers")
	i := c.at(2)
	k := i.keyAt("cpu")
	assert.Equal(t, "spec.containers[2][cpu]", k.String())
}
