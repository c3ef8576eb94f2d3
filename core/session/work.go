package session

import (
	"errors"

	"converge/core/library"
	"converge/core/sim"
	"converge/core/view"
)

// PageAddress is the address the page writes for what the session shows
// now (history.replaceState), from path, the page's own path: the
// built-in by name while the scenario is exactly it, else the scenario as
// a share, with &t= (Link.URL). ok is false when there is nothing to
// write: no simulation, or a scenario too large for a link (the address
// then stays as it was; Share says why).
func (s *Session) PageAddress(path string) (u string, ok bool) {
	l, err := s.Link()
	if err != nil {
		return "", false
	}
	u, err = l.URL(path)
	return u, err == nil
}

// AddressProblem is what the page says when PageAddress cannot write the
// address because the scenario is too large for a link
// (view.AddressTooLarge), and "" otherwise.
func (s *Session) AddressProblem() string {
	l, err := s.Link()
	if err != nil {
		return ""
	}
	if _, err := l.URL("/"); errors.Is(err, ErrTooLargeForLink) {
		return view.AddressTooLarge(len(l.YAML))
	}
	return ""
}

// Downloads are the page's downloads by key: the scenario as it runs
// (yaml), the kubectl replay script (sh), the trace (jsonl) and the charts
// (svg).
var Downloads = []string{"yaml", "sh", "jsonl", "svg"}

// Download makes the download kind (one of Downloads) of the session now;
// focus is the Deployment the charts show. ok is false for an unknown kind
// or without a simulation.
func (s *Session) Download(kind, focus string) (f File, ok bool, err error) {
	if s.Sim == nil {
		return File{}, false, nil
	}
	scn := s.Sim.Scenario()
	switch kind {
	case "yaml":
		f, err = ScenarioFile(scn)
	case "sh":
		f, err = KubectlFile(scn)
	case "jsonl":
		f, err = TraceFile(scn)
	case "svg":
		f = ChartsFile(s.Sim, focus)
	default:
		return File{}, false, nil
	}
	return f, true, err
}

// DownloadFailed is what the page says when a download could not be made.
func DownloadFailed(err error) string { return "The download failed: " + err.Error() }

// SaveTooLarge keeps a scenario too large for a link (the Share button's,
// l) in My scenarios, in st: under its own name made free, or, on a second
// Share of the same simulation, under the name the first one took. The
// session remembers the name (SavedAs). It returns the name.
func (s *Session) SaveTooLarge(st *library.Store, l Link) (string, error) {
	if s.Sim == nil {
		return "", ErrNoScenario
	}
	name := ""
	if s.tooLarge.sim == s.Sim && s.tooLarge.name != "" {
		name = s.tooLarge.name
	} else {
		var err error
		if name, err = st.FreeName(s.Sim.Scenario().Name); err != nil {
			return "", err
		}
	}
	if _, err := st.Save(name, l.YAML); err != nil {
		return "", err
	}
	s.tooLarge.sim, s.tooLarge.name = s.Sim, name
	s.SavedAs = name
	return name, nil
}

// tooLargeSave is where SaveTooLarge last saved, for which simulation.
type tooLargeSave struct {
	sim  *sim.Sim
	name string
}
