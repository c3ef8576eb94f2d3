package library

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/hack-pad/hackpadfs"
	"github.com/hack-pad/hackpadfs/mem"
	osfs "github.com/hack-pad/hackpadfs/os"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/scenario"
)

// clock is a fake clock that moves a second each time it is read.
type clock struct{ t time.Time }

func (c *clock) now() time.Time {
	c.t = c.t.Add(time.Second)
	return c.t
}

func newClock() *clock { return &clock{t: time.Date(2026, 3, 5, 14, 0, 0, 0, time.UTC)} }

// filesystems are the hackpadfs filesystems every store test runs on: the
// one the tests and a browser without IndexedDB use, and the OS's (the
// browser's IndexedDB one runs in cmd/converge's browser tests).
func filesystems(t *testing.T) map[string]func(t *testing.T) hackpadfs.FS {
	return map[string]func(t *testing.T) hackpadfs.FS{
		"mem": func(t *testing.T) hackpadfs.FS {
			fsys, err := mem.NewFS()
			require.NoError(t, err)
			return fsys
		},
		"os": func(t *testing.T) hackpadfs.FS {
			dir := strings.TrimPrefix(t.TempDir(), "/")
			fsys, err := osfs.NewFS().Sub(dir)
			require.NoError(t, err)
			return fsys
		},
	}
}

// onEachFS runs f with a new store on each filesystem.
func onEachFS(t *testing.T, f func(t *testing.T, s *Store, c *clock)) {
	t.Helper()
	for name, mk := range filesystems(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := newClock()
			s, err := New(mk(t), Options{Now: c.now})
			require.NoError(t, err)
			f(t, s, c)
		})
	}
}

func names(t *testing.T, s *Store) []string {
	t.Helper()
	list, err := s.List()
	require.NoError(t, err)
	out := []string{}
	for _, e := range list {
		out = append(out, e.Name)
	}
	return out
}

func TestSaveListOpen(t *testing.T) {
	t.Parallel()
	onEachFS(t, func(t *testing.T, s *Store, c *clock) {
		assert.Equal(t, []string{}, names(t, s), "a new library is empty")
		e, err := s.Save("rollout test", []byte("name: a\n"))
		require.NoError(t, err)
		assert.Equal(t, Entry{Name: "rollout test", Modified: time.Date(2026, 3, 5, 14, 0, 1, 0, time.UTC), Size: 8}, e)
		_, err = s.Save("Ärger", []byte("name: b\n"))
		require.NoError(t, err)
		_, err = s.Save("alpha", []byte("name: c\n"))
		require.NoError(t, err)
		list, err := s.List()
		require.NoError(t, err)
		assert.Equal(t, []Entry{
			{Name: "alpha", Modified: time.Date(2026, 3, 5, 14, 0, 3, 0, time.UTC), Size: 8},
			{Name: "rollout test", Modified: time.Date(2026, 3, 5, 14, 0, 1, 0, time.UTC), Size: 8},
			{Name: "Ärger", Modified: time.Date(2026, 3, 5, 14, 0, 2, 0, time.UTC), Size: 8},
		}, list, "by name, with the store's clock as the modified time")
		data, err := s.Open("Ärger")
		require.NoError(t, err)
		assert.Equal(t, "name: b\n", string(data))

		// Saving again replaces, with a new time.
		_, err = s.Save("alpha", []byte("name: c2\n"))
		require.NoError(t, err)
		data, err = s.Open("alpha")
		require.NoError(t, err)
		assert.Equal(t, "name: c2\n", string(data))
		list, _ = s.List()
		assert.Equal(t, time.Date(2026, 3, 5, 14, 0, 4, 0, time.UTC), list[0].Modified)
		assert.Len(t, list, 3)
	})
}

func TestRenameDuplicateDelete(t *testing.T) {
	t.Parallel()
	onEachFS(t, func(t *testing.T, s *Store, c *clock) {
		_, err := s.Save("web", []byte("name: web\n"))
		require.NoError(t, err)
		_, err = s.Save("api", []byte("name: api\n"))
		require.NoError(t, err)

		e, err := s.Rename("web", "web v2")
		require.NoError(t, err)
		assert.Equal(t, Entry{Name: "web v2", Modified: time.Date(2026, 3, 5, 14, 0, 1, 0, time.UTC), Size: 10}, e, "a rename keeps the modified time")
		assert.Equal(t, []string{"api", "web v2"}, names(t, s))

		_, err = s.Rename("web v2", "api")
		assert.ErrorIs(t, err, ErrExist)
		assert.EqualError(t, err, `file already exists: there is a saved scenario "api" already`)
		_, err = s.Rename("nope", "x")
		assert.ErrorIs(t, err, ErrNotExist)
		assert.Equal(t, []string{"api", "web v2"}, names(t, s), "a refused rename changes nothing")

		d1, err := s.Duplicate("api")
		require.NoError(t, err)
		assert.Equal(t, "api copy", d1.Name)
		d2, err := s.Duplicate("api")
		require.NoError(t, err)
		assert.Equal(t, "api copy 2", d2.Name)
		data, err := s.Open("api copy 2")
		require.NoError(t, err)
		assert.Equal(t, "name: api\n", string(data))

		require.NoError(t, s.Delete("api copy"))
		assert.Equal(t, []string{"api", "api copy 2", "web v2"}, names(t, s))
		err = s.Delete("api copy")
		assert.ErrorIs(t, err, ErrNotExist)
		assert.EqualError(t, err, `file does not exist: there is no saved scenario "api copy"`)
		_, err = s.Open("api copy")
		assert.ErrorIs(t, err, fs.ErrNotExist)
	})
}

func TestDraft(t *testing.T) {
	t.Parallel()
	onEachFS(t, func(t *testing.T, s *Store, c *clock) {
		_, ok, err := s.Draft()
		require.NoError(t, err)
		assert.False(t, ok, "no draft yet")
		d, err := s.SaveDraft("name: x\nsteps: [\n", "rolling-update")
		require.NoError(t, err)
		got, ok, err := s.Draft()
		require.NoError(t, err)
		require.True(t, ok)
		assert.Equal(t, d, got)
		assert.Equal(t, Draft{Text: "name: x\nsteps: [\n", From: "rolling-update", Modified: time.Date(2026, 3, 5, 14, 0, 1, 0, time.UTC)}, got,
			"a draft needs not be valid")
		_, err = s.SaveDraft("second", "")
		require.NoError(t, err)
		got, _, _ = s.Draft()
		assert.Equal(t, "second", got.Text, "the last draft wins")
		assert.Equal(t, []string{}, names(t, s), "the draft is not a saved scenario")
		require.NoError(t, s.DiscardDraft())
		_, ok, _ = s.Draft()
		assert.False(t, ok)
		require.NoError(t, s.DiscardDraft(), "discarding nothing is fine")
	})
}

func TestLimits(t *testing.T) {
	t.Parallel()
	onEachFS(t, func(t *testing.T, s *Store, c *clock) {
		big := []byte(strings.Repeat("x", scenario.MaxFileSize+1))
		_, err := s.Save("big", big)
		assert.ErrorIs(t, err, ErrTooLarge)
		assert.EqualError(t, err, "the file is too large: a scenario may have at most 4 MiB")
		_, err = s.Save("max", big[:scenario.MaxFileSize])
		assert.NoError(t, err, "4 MiB is allowed")
		_, err = s.SaveDraft(string(big), "")
		assert.ErrorIs(t, err, ErrTooLarge)
		assert.Equal(t, []string{"max"}, names(t, s))
	})
}

func TestTheLibraryIsBounded(t *testing.T) {
	t.Parallel()
	fsys, err := mem.NewFS()
	require.NoError(t, err)
	s, err := New(fsys, Options{Now: newClock().now})
	require.NoError(t, err)
	for i := range MaxEntries {
		_, err := s.Save("s"+strings.Repeat("x", i%10)+string(rune('a'+i/26%26))+string(rune('a'+i%26)), []byte("x"))
		require.NoError(t, err)
	}
	_, err = s.Save("one more", []byte("x"))
	assert.ErrorIs(t, err, ErrFull)
	list, err := s.List()
	require.NoError(t, err)
	_, err = s.Save(list[0].Name, []byte("y"))
	assert.NoError(t, err, "replacing one is fine when full")
}

func TestBadNamesAreRefusedEverywhere(t *testing.T) {
	t.Parallel()
	bad := []struct{ name, want string }{
		{"", "invalid name: a name may not be empty"},
		{"../etc/passwd", `invalid name "../etc/passwd": a name may not start with "."`},
		{"a/b", `invalid name "a/b": a name may not contain "/"`},
		{`a\b`, `invalid name "a\\b": a name may not contain "\\"`},
		{"..", `invalid name "..": a name may not start with "."`},
		{".hidden", `invalid name ".hidden": a name may not start with "."`},
		{" web", `invalid name " web": a name may not start or end with a blank`},
		{"web\n", `invalid name "web\n": a name may not start or end with a blank`},
		{"a\tb", `invalid name "a\tb": a name may not contain control characters`},
		{"a\x00b", `invalid name "a\x00b": a name may not contain control characters`},
		{"a:b", `invalid name "a:b": a name may not contain ":"`},
		{"what?", `invalid name "what?": a name may not contain "?"`},
		{"\xff", `invalid name "\xff": a name must be valid UTF-8`},
		{strings.Repeat("é", 65), `invalid name "` + strings.Repeat("é", 65) + `": a name may have at most 64 characters`},
	}
	onEachFS(t, func(t *testing.T, s *Store, c *clock) {
		_, err := s.Save("ok", []byte("x"))
		require.NoError(t, err)
		for _, tc := range bad {
			err := CheckName(tc.name)
			assert.ErrorIs(t, err, ErrInvalidName, "%q", tc.name)
			assert.EqualError(t, err, tc.want)
			_, err = s.Save(tc.name, []byte("x"))
			assert.ErrorIs(t, err, ErrInvalidName)
			_, err = s.Open(tc.name)
			assert.ErrorIs(t, err, ErrInvalidName)
			_, err = s.Rename("ok", tc.name)
			assert.ErrorIs(t, err, ErrInvalidName)
			assert.ErrorIs(t, s.Delete(tc.name), ErrInvalidName)
		}
		assert.Equal(t, []string{"ok"}, names(t, s), "nothing was written")
		assert.NoError(t, CheckName(strings.Repeat("é", 64)))
		assert.NoError(t, CheckName("Rolling update (v2) — 25% surge, #3"))
	})
}

// Names that would hide or reorder text are refused: a right-to-left
// override, zero-width and other format characters, line separators.
func TestCheckNameRefusesInvisibleCharacters(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"evil\u202eLMY.exe", "a\u200bb", "a\u200db", "\ufeffbom", "a\u2066b\u2069", "a\u061cb", "a\u2028b", "a\u2029b"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			err := CheckName(name)
			require.ErrorIs(t, err, ErrInvalidName)
			assert.Contains(t, err.Error(), "a name may not contain invisible or direction-changing characters (U+")
		})
	}
	assert.NoError(t, CheckName("déjà vu ✓ 日本"), "visible letters and symbols are fine")
}

func TestSanitizeNameMakesValidNames(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"rolling-update.yaml", "rolling-update"},
		{"My Scenario.yml", "My Scenario"},
		{"../../etc/passwd", "-..-etc-passwd"},
		{".hidden.yaml", "hidden"},
		{"a:b?c", "a-b-c"},
		{"  lots   of\tblanks  ", "lots of-blanks"},
		{"", "scenario"},
		{"...", "scenario"},
		{strings.Repeat("x", 100), strings.Repeat("x", 64)},
		{"\xffbad", "-bad"},
		{"evil\u202eLMY.exe", "evilLMY.exe"},
		{"zero\u200bwidth\ufeff", "zerowidth"},
		{"iso\u2067late\u2069", "isolate"},
		{"line\u2028sep", "linesep"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got := SanitizeName(tc.in)
			assert.Equal(t, tc.want, got)
			assert.NoError(t, CheckName(got))
		})
	}
}

func FuzzSanitizeName(f *testing.F) {
	for _, s := range []string{"web.yaml", "../x", " . ", "\x00", strings.Repeat("é", 70) + " 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := SanitizeName(s)
		if err := CheckName(got); err != nil {
			t.Fatalf("SanitizeName(%q) = %q, which CheckName refuses: %v", s, got, err)
		}
	})
}

func TestFreeNameCountsUp(t *testing.T) {
	t.Parallel()
	onEachFS(t, func(t *testing.T, s *Store, c *clock) {
		n, err := s.FreeName("web.yaml")
		require.NoError(t, err)
		assert.Equal(t, "web", n)
		_, _ = s.Save("web", []byte("x"))
		_, _ = s.Save("web 2", []byte("x"))
		n, err = s.FreeName("web")
		require.NoError(t, err)
		assert.Equal(t, "web 3", n)
		long := strings.Repeat("x", 64)
		_, _ = s.Save(long, []byte("x"))
		n, err = s.FreeName(long)
		require.NoError(t, err)
		assert.Equal(t, strings.Repeat("x", 62)+" 2", n, "the suffix fits in 64 characters")
	})
}

// failingFS is a mem filesystem that refuses every write once full is
// set, as IndexedDB does past its quota.
type failingFS struct {
	*mem.FS
	full bool
}

var errQuota = errors.New("QuotaExceededError: the quota has been exceeded")

func (f *failingFS) OpenFile(name string, flag int, perm hackpadfs.FileMode) (hackpadfs.File, error) {
	if f.full && flag&(hackpadfs.FlagWriteOnly|hackpadfs.FlagReadWrite) != 0 {
		return nil, &hackpadfs.PathError{Op: "open", Path: name, Err: errQuota}
	}
	return f.FS.OpenFile(name, flag, perm)
}

// A store whose filesystem refuses writes goes on in memory, with what it
// had, and says why.
func TestAStoreThatCannotWriteMovesToItsFallback(t *testing.T) {
	t.Parallel()
	m, err := mem.NewFS()
	require.NoError(t, err)
	primary := &failingFS{FS: m}
	fallbacks := 0
	s, err := New(primary, Options{Now: newClock().now, Fallback: func() (hackpadfs.FS, error) {
		fallbacks++
		return mem.NewFS()
	}})
	require.NoError(t, err)
	_, err = s.Save("kept", []byte("name: kept\n"))
	require.NoError(t, err)
	_, err = s.SaveDraft("draft text", "basic-loop")
	require.NoError(t, err)
	assert.NoError(t, s.Degraded())

	primary.full = true
	_, err = s.Save("new", []byte("name: new\n"))
	require.NoError(t, err, "the write went to the fallback")
	require.ErrorIs(t, s.Degraded(), errQuota)
	assert.Equal(t, 1, fallbacks)
	assert.Equal(t, []string{"kept", "new"}, names(t, s), "what was saved before came along")
	d, ok, err := s.Draft()
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "draft text", d.Text)
	_, err = s.Save("third", []byte("x"))
	require.NoError(t, err)
	assert.Equal(t, 1, fallbacks, "it moves once")
	_, err = hackpadfs.Stat(m, file("new"))
	assert.ErrorIs(t, err, fs.ErrNotExist, "nothing more was written to the refusing filesystem")
}

// Without a fallback the write error is the caller's, with its cause.
func TestAStoreWithoutFallbackReportsTheWriteError(t *testing.T) {
	t.Parallel()
	m, err := mem.NewFS()
	require.NoError(t, err)
	primary := &failingFS{FS: m, full: false}
	s, err := New(primary, Options{Now: newClock().now})
	require.NoError(t, err)
	primary.full = true
	_, err = s.Save("x", []byte("x"))
	assert.ErrorIs(t, err, errQuota)
	assert.Contains(t, err.Error(), `save "x": `)
	assert.NoError(t, s.Degraded())
}

func TestNewNeedsAClock(t *testing.T) {
	t.Parallel()
	m, err := mem.NewFS()
	require.NoError(t, err)
	_, err = New(m, Options{})
	assert.EqualError(t, err, "library: Options.Now is required")
}
