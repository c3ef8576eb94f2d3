package session

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hack-pad/hackpadfs/mem"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/library"
	"converge/core/scenario"
)

func TestPageAddress(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	_, ok := s.PageAddress("/")
	assert.False(t, ok, "nothing to write without a simulation")
	require.NoError(t, s.LoadBuiltin("beta"))
	s.SeekTo(12)
	u, ok := s.PageAddress("/docs/")
	require.True(t, ok)
	assert.Equal(t, "/docs/?scenario=beta&t=12", u)
	require.True(t, s.Run("get pods").OK)
	u, _ = s.PageAddress("/")
	assert.Equal(t, "/?scenario=beta&t=12", u, "a read is no step")

	require.False(t, s.Load([]byte(alphaYAML)).HasErrors())
	u, ok = s.PageAddress("/")
	require.True(t, ok)
	share, err := ShareOfLink(u)
	require.NoError(t, err)
	yaml, err := FromFragment(share)
	require.NoError(t, err)
	assert.Equal(t, alphaYAML, yaml)
	o := DecideAddress(ParseAddress(u), testLibrary())
	assert.Empty(t, o.Error)
	assert.Equal(t, alphaYAML, string(o.Source), "the page's address opens what it shows")

	big := "name: big\nduration: 10s\n" + strings.Repeat("# filler that does not compress well: 0123456789abcdef\n", 2)
	for i := 0; len(big) <= scenario.MaxShareSize; i++ {
		big += "# " + strings.Repeat(string(rune('a'+i%26)), 1+i%61) + " " + time.Duration(i*7919).String() + "\n"
	}
	require.False(t, s.Load([]byte(big)).HasErrors())
	_, ok = s.PageAddress("/")
	assert.False(t, ok, "a scenario too large for a link leaves the address as it is")
	assert.Contains(t, s.AddressProblem(), "The page's address still opens the scenario from before")
	require.NoError(t, s.LoadBuiltin("beta"))
	assert.Empty(t, s.AddressProblem(), "a built-in has an address")
}

func TestDownload(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	_, ok, _ := s.Download("yaml", "")
	assert.False(t, ok)
	require.NoError(t, s.LoadBuiltin("alpha"))
	want := map[string]string{"yaml": TypeYAML, "sh": TypeShell, "jsonl": TypeJSONL, "svg": TypeSVG}
	for _, kind := range Downloads {
		f, ok, err := s.Download(kind, "")
		require.NoError(t, err, kind)
		require.True(t, ok, kind)
		assert.Equal(t, want[kind], f.Type, kind)
		assert.True(t, strings.HasPrefix(f.Name, "alpha"), f.Name)
		assert.NotEmpty(t, f.Data, kind)
	}
	_, ok, _ = s.Download("exe", "")
	assert.False(t, ok)
	assert.Equal(t, "The download failed: disk full", DownloadFailed(errors.New("disk full")))
}

// TestSaveTooLarge: Share of a scenario too large for a link saves it in
// My scenarios under a free name, and a second Share of the same
// simulation saves it again under that name.
func TestSaveTooLarge(t *testing.T) {
	t.Parallel()
	fsys, err := mem.NewFS()
	require.NoError(t, err)
	st, err := library.New(fsys, library.Options{Now: func() time.Time { return time.Unix(1e9, 0) }})
	require.NoError(t, err)
	s, _ := newSession(t)
	require.NoError(t, s.LoadBuiltin("alpha"))
	_, err = st.Save("alpha", []byte("name: alpha\n"))
	require.NoError(t, err)
	l, err := s.Link()
	require.NoError(t, err)

	first, err := s.SaveTooLarge(st, l)
	require.NoError(t, err)
	assert.Equal(t, "alpha 2", first)
	assert.Equal(t, "alpha 2", s.SavedAs)
	again, err := s.SaveTooLarge(st, l)
	require.NoError(t, err)
	assert.Equal(t, "alpha 2", again, "the same simulation keeps its name")

	require.NoError(t, s.LoadBuiltin("alpha"))
	other, err := s.SaveTooLarge(st, l)
	require.NoError(t, err)
	assert.Equal(t, "alpha 3", other, "another simulation takes a new name")
	list, err := st.List()
	require.NoError(t, err)
	assert.Len(t, list, 3)
}

func TestEmbedPanel(t *testing.T) {
	t.Parallel()
	s, _ := newSession(t)
	assert.Equal(t, EmbedPanel{Intro: "No snippet: " + ErrNoScenario.Error(), Bad: true}, s.EmbedPanel("http://h/", ""))
	require.NoError(t, s.LoadBuiltin("beta"))
	s.SeekTo(12)
	pn := s.EmbedPanel("https://docs.example/c/index.html?x=1", "")
	assert.False(t, pn.Bad)
	assert.Equal(t, "Show this scenario at 12s on a page of any site: add the script tag once, then one element per demo. The simulator loads when a demo comes into view.", pn.Intro)
	assert.Equal(t, `<converge-sim scenario="beta" t="12"></converge-sim>`, pn.Embed.Element)
	assert.Equal(t, "https://docs.example/c/?scenario=beta&embed=1&t=12", pn.Embed.Link)
	assert.Empty(t, pn.Where, "a public address needs no note")

	pn = s.EmbedPanel("http://127.0.0.1:8080/", "")
	assert.Contains(t, pn.Where, "127.0.0.1:8080", "a loopback address is said to work only on this machine")
	pn = s.EmbedPanel("http://127.0.0.1:8080/", "https://converge.example.org/")
	assert.Empty(t, pn.Where, "the public URL the server was given")
	assert.Contains(t, pn.Embed.Script, `src="https://converge.example.org/converge.js"`)
	assert.Equal(t, `<converge-sim scenario="beta" t="12"></converge-sim>`, pn.Embed.Element, "only 0s has a poster on every host")

	s.SeekTo(0)
	pn = s.EmbedPanel("https://docs.example/c/index.html?x=1", "")
	assert.Equal(t, `<converge-sim scenario="beta"><img src="https://docs.example/c/posters/beta.svg" alt="beta: the simulation before it loads" width="480" style="max-width:100%;height:auto"></converge-sim>`,
		pn.Embed.Element, "a built-in at 0s carries its poster")

	big := []byte("name: big\n" + strings.Repeat("#", scenario.MaxShareSize))
	require.False(t, s.Load(big).HasErrors())
	pn = s.EmbedPanel("http://h/", "")
	assert.True(t, pn.Bad)
	assert.Contains(t, pn.Intro, "No snippet: this scenario is 65 KiB, and an embed carries at most 64 KiB.")
}

// TestSavedAction: a My scenarios row's buttons, with their messages, and
// SavedAs kept true to a rename and a delete.
func TestSavedAction(t *testing.T) {
	t.Parallel()
	fsys, err := mem.NewFS()
	require.NoError(t, err)
	st, err := library.New(fsys, library.Options{Now: func() time.Time { return time.Unix(1e9, 0) }})
	require.NoError(t, err)
	use := func(f func(*library.Store) error) error { return f(st) }
	_, err = st.Save("mine", []byte(alphaYAML))
	require.NoError(t, err)
	_, err = st.Save("bad", []byte("name: bad\nobjects: 3\n"))
	require.NoError(t, err)
	s, _ := newSession(t)
	changes := 0
	s.OnChange = func() { changes++ }

	assert.Equal(t, SavedOutcome{Msg: "Opened “mine”.", Opened: true}, s.SavedAction(use, "open", "mine", ""))
	assert.Equal(t, "mine", s.SavedAs)
	assert.Equal(t, alphaYAML, string(s.Source))
	assert.Equal(t, 1, changes)

	out := s.SavedAction(use, "open", "bad", "")
	assert.True(t, out.Bad)
	assert.Equal(t, "“bad” cannot be opened: 2:10: ", out.Msg[:len("“bad” cannot be opened: 2:10: ")])
	assert.Equal(t, "mine", s.SavedAs, "a scenario that cannot open changes nothing")

	dl := s.SavedAction(use, "download", "mine", "")
	require.NotNil(t, dl.Download)
	assert.Equal(t, File{Name: "mine.yaml", Type: TypeYAML, Data: []byte(alphaYAML)}, *dl.Download)

	assert.Equal(t, SavedOutcome{Msg: "Renamed “mine” to “ours”."}, s.SavedAction(use, "rename-ok", "mine", "ours"))
	assert.Equal(t, "ours", s.SavedAs)
	assert.Equal(t, SavedOutcome{Msg: "Saved a copy of “ours” as “ours copy”."}, s.SavedAction(use, "duplicate", "ours", ""))
	assert.Equal(t, SavedOutcome{Msg: "Deleted “ours”."}, s.SavedAction(use, "delete-ok", "ours", ""))
	assert.Equal(t, "", s.SavedAs)
	gone := s.SavedAction(use, "open", "ours", "")
	assert.True(t, gone.Bad)
	assert.Contains(t, gone.Msg, "ours")
}

func TestSaveAsAndImport(t *testing.T) {
	t.Parallel()
	fsys, err := mem.NewFS()
	require.NoError(t, err)
	st, err := library.New(fsys, library.Options{Now: func() time.Time { return time.Unix(1e9, 0) }})
	require.NoError(t, err)
	use := func(f func(*library.Store) error) error { return f(st) }
	s, _ := newSession(t)
	assert.True(t, s.SaveAs(use, "x", false).Bad, "nothing to save")
	require.NoError(t, s.LoadBuiltin("alpha"))

	out := s.SaveAs(use, "mine", true)
	assert.False(t, out.Bad, out.Msg)
	assert.Contains(t, out.Msg, "mine")
	assert.Equal(t, "mine", s.SavedAs)
	bad := s.SaveAs(use, "a/b", false)
	assert.True(t, bad.Bad)
	assert.Equal(t, "mine", s.SavedAs, "a refused save keeps the name")

	imp := s.Import(use, "mine.yaml", []byte(alphaYAML))
	assert.False(t, imp.Bad, imp.Msg)
	assert.True(t, imp.Opened)
	assert.Equal(t, "Imported “mine.yaml” as “mine 2” in My scenarios, and opened it.", imp.Msg)
	assert.Equal(t, "mine 2", s.SavedAs)

	invalid := s.Import(use, "broken.yaml", []byte("name: broken\nobjects: 3\n"))
	assert.True(t, invalid.Bad)
	assert.True(t, invalid.Invalid)
	assert.Contains(t, invalid.Msg, "“broken.yaml”")
	assert.Equal(t, "mine 2", s.SavedAs, "an invalid file opens nothing")
	list, err := st.List()
	require.NoError(t, err)
	assert.Len(t, list, 2)
}
