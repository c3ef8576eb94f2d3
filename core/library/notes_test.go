package library

import (
	"testing"
	"time"

	"github.com/hack-pad/hackpadfs/mem"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
)

// A scenario with notes comes back from My scenarios and from the draft
// with its notes as written (docs/scenarios.md, "Notes"): the editor's
// text, with a console step added, saved and opened again.
func TestNotesSurviveMyScenariosAndTheDraft(t *testing.T) {
	t.Parallel()
	src := "name: narrated\nsteps:\n- at: 5s\n  note: \"A *new* pod: `kubectl get pods`, [docs](https://kubernetes.io/docs/)\"\n  pause: true\n  focus: pods\n"
	scn, probs := scenario.Parse([]byte(src), "narrated.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	require.NoError(t, scn.AppendStep(scenario.Step{At: 9 * time.Second, Kubectl: "get pods"}))
	out, err := scn.Marshal()
	require.NoError(t, err)
	fsys, err := mem.NewFS()
	require.NoError(t, err)
	s, err := New(fsys, Options{Now: newClock().now})
	require.NoError(t, err)
	_, err = s.Save("narrated", out)
	require.NoError(t, err)
	_, err = s.SaveDraft(string(out), "narrated")
	require.NoError(t, err)
	saved, err := s.Open("narrated")
	require.NoError(t, err)
	draft, ok, err := s.Draft()
	require.NoError(t, err)
	require.True(t, ok)
	for _, text := range []string{string(saved), draft.Text} {
		back, probs := scenario.Parse([]byte(text), "back.yaml")
		require.False(t, probs.HasErrors(), "%v", probs)
		require.Len(t, back.Steps, 2)
		assert.Equal(t, &scenario.Note{Text: "A *new* pod: `kubectl get pods`, [docs](https://kubernetes.io/docs/)", Pause: true, Focus: "pods"}, back.Steps[0].Note)
		assert.Equal(t, "get pods", back.Steps[1].Kubectl)
	}
}
