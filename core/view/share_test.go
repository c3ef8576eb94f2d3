package view

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/simtest/simrun"
)

func TestOriginBuiltinAndThePicker(t *testing.T) {
	t.Parallel()
	s := simrun.New(t, simrun.Builtin(t, "basic-loop"))
	o := Origin{Name: "basic-loop", LoadedSteps: len(s.Scenario().Steps)}
	assert.Equal(t, "basic-loop", o.Builtin(s.Scenario()))
	assert.Equal(t, Picker{Value: "basic-loop"}, PickerOf(o, s.Scenario()))

	s.SeekTo(30)
	r := s.Run("scale deployment/web --replicas=4")
	require.True(t, r.OK, r.Error)
	assert.Equal(t, "", o.Builtin(s.Scenario()), "a console step makes it the user's own")
	assert.Equal(t, Picker{OwnTitle: "basic-loop, with 1 step added from the console"}, PickerOf(o, s.Scenario()))

	r = s.Run("get pods")
	require.True(t, r.OK)
	assert.Equal(t, Picker{OwnTitle: "basic-loop, with 1 step added from the console"}, PickerOf(o, s.Scenario()), "a read is no step")

	own := Origin{}
	assert.Equal(t, Picker{OwnTitle: "edited, opened from a link, from My scenarios or imported"}, PickerOf(own, s.Scenario()))
	assert.Equal(t, "", own.Builtin(nil))
}

func TestShareTexts(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "Link copied: it opens this scenario at the start.", ShareCopied(0))
	assert.Equal(t, "Link copied: it opens this scenario at 1m21s.", ShareCopied(81))
	assert.Equal(t, "No link: this scenario is 83 KiB, and a link carries at most 64 KiB. It is saved in My scenarios as “big”; use Download to pass it on as a file.",
		ShareTooLarge(83*1024-100, "big", nil))
	assert.Equal(t, "No link: this scenario is 65 KiB, and a link carries at most 64 KiB. Saving it in My scenarios failed too (disk full): use Download to keep it as a file.",
		ShareTooLarge(64*1024+1, "", errors.New("disk full")))
}

// An address too large to write is said, with the sizes, and what to do.
func TestAddressTooLarge(t *testing.T) {
	t.Parallel()
	assert.Equal(t, "The page's address still opens the scenario from before: this one is 80 KiB, and an address carries at most 64 KiB. "+
		"A reload would lose it; Share saves it in My scenarios, Download as a file.", AddressTooLarge(80*1024))
}
