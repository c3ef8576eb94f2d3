package session

import (
	"converge/core/library"
	"converge/core/view"
)

// UseStore runs f with the page's library of saved scenarios (package
// wasm's storage.use: one use at a time, off the event loop).
type UseStore func(f func(st *library.Store) error) error

// SavedOutcome is what a My scenarios row's action did: the message to
// show (Bad when it failed), and, for a download, the file to offer.
type SavedOutcome struct {
	Msg string
	Bad bool
	// Download is the file of a download; nil otherwise.
	Download *File
	// Opened is set when the saved scenario was opened (the page then
	// writes its address).
	Opened bool
}

// SavedAction does what a My scenarios row's button asks (action "open",
// "download", "rename-ok" with newName, "duplicate", "delete-ok") on the
// saved scenario name, through use, and keeps SavedAs true to a rename or
// a delete. Opening loads the scenario (OpenSaved) after use returns.
func (s *Session) SavedAction(use UseStore, action, name, newName string) SavedOutcome {
	var data []byte
	var msg string
	err := use(func(st *library.Store) (err error) {
		switch action {
		case "open", "download":
			data, err = st.Open(name)
		case "rename-ok":
			var e library.Entry
			if e, err = st.Rename(name, newName); err == nil {
				msg = "Renamed “" + name + "” to “" + e.Name + "”."
				if s.SavedAs == name {
					s.SavedAs = e.Name
				}
			}
		case "duplicate":
			var e library.Entry
			if e, err = st.Duplicate(name); err == nil {
				msg = "Saved a copy of “" + name + "” as “" + e.Name + "”."
			}
		case "delete-ok":
			if err = st.Delete(name); err == nil {
				msg = "Deleted “" + name + "”."
				if s.SavedAs == name {
					s.SavedAs = ""
				}
			}
		}
		return err
	})
	if err != nil {
		return SavedOutcome{Msg: err.Error(), Bad: true}
	}
	switch action {
	case "open":
		if probs := s.OpenSaved(name, data); probs.HasErrors() {
			return SavedOutcome{Msg: "“" + name + "” cannot be opened: " + NewLoadResult(probs).Summary(), Bad: true}
		}
		return SavedOutcome{Msg: "Opened “" + name + "”.", Opened: true}
	case "download":
		return SavedOutcome{Download: &File{Name: library.SanitizeName(name) + ".yaml", Type: TypeYAML, Data: data}}
	}
	return SavedOutcome{Msg: msg}
}

// SaveAs saves the scenario as it runs in My scenarios under name,
// through use, and remembers the name (SavedAs). edited says whether the
// editor holds edits not applied, which the message mentions
// (view.Saved).
func (s *Session) SaveAs(use UseStore, name string, edited bool) SavedOutcome {
	if s.Sim == nil {
		return SavedOutcome{Msg: ErrNoScenario.Error(), Bad: true}
	}
	y, err := s.Sim.Scenario().Marshal()
	if err == nil {
		err = use(func(st *library.Store) error {
			_, err := st.Save(name, y)
			return err
		})
	}
	if err != nil {
		return SavedOutcome{Msg: err.Error(), Bad: true}
	}
	s.SavedAs = name
	return SavedOutcome{Msg: view.Saved(name, edited)}
}

// ImportOutcome is what importing a file did (Import).
type ImportOutcome struct {
	SavedOutcome
	// Invalid is set when the file is no valid scenario: the page puts
	// its text in the editor, which shows the problems.
	Invalid bool
}

// Import imports data, the file fileName (the page's Import, or a file
// dropped on it): a valid scenario is saved in My scenarios under the
// file's name made free, through use, and opened (OpenSaved); an invalid
// one is neither.
func (s *Session) Import(use UseStore, fileName string, data []byte) ImportOutcome {
	if p := Prepare(data, fileName); p.Sim == nil {
		return ImportOutcome{SavedOutcome: SavedOutcome{Msg: view.Imported(fileName, "", len(p.Problems.Errors())), Bad: true}, Invalid: true}
	}
	var name string
	err := use(func(st *library.Store) (err error) {
		if name, err = st.FreeName(fileName); err != nil {
			return err
		}
		_, err = st.Save(name, data)
		return err
	})
	if err != nil {
		return ImportOutcome{SavedOutcome: SavedOutcome{Msg: "“" + fileName + "” cannot be saved: " + err.Error(), Bad: true}}
	}
	s.OpenSaved(name, data)
	return ImportOutcome{SavedOutcome: SavedOutcome{Msg: view.Imported(fileName, name, 0), Opened: true}}
}
