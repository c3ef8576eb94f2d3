package library

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/hack-pad/hackpadfs"

	"converge/core/scenario"
)

// Draft is the editor's text as the user last typed it, applied or not, so
// that a reload can offer it back.
type Draft struct {
	Text string `json:"text"`
	// From says what the text was edited from, for the offer to restore
	// it: a built-in scenario's name, a saved one's, or "" for a scenario
	// of the user's own.
	From     string    `json:"from,omitempty"`
	Modified time.Time `json:"modified"`
}

// maxDraftFile bounds draft.json: the text at most scenario.MaxFileSize,
// with room for JSON's escapes.
const maxDraftFile = 2*scenario.MaxFileSize + 4096

// SaveDraft stores the draft text (edited from from), replacing the last
// one, with the modified time now. A text beyond scenario.MaxFileSize is
// refused (ErrTooLarge) and the last draft stays.
func (s *Store) SaveDraft(text, from string) (Draft, error) {
	if len(text) > scenario.MaxFileSize {
		return Draft{}, ErrTooLarge
	}
	d := Draft{Text: text, From: from, Modified: s.opts.Now().UTC().Truncate(time.Millisecond)}
	data, err := marshalJSON(d)
	if err != nil {
		return Draft{}, fmt.Errorf("save the draft: %w", err)
	}
	if err := s.write(DraftFile, data, d.Modified); err != nil {
		return Draft{}, fmt.Errorf("save the draft: %w", err)
	}
	return d, nil
}

// Draft returns the last draft, and false when there is none. A draft
// file that cannot be read as one is reported as an error (and
// DiscardDraft removes it).
func (s *Store) Draft() (Draft, bool, error) {
	info, err := hackpadfs.Stat(s.fs, DraftFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Draft{}, false, nil
	case err != nil:
		return Draft{}, false, fmt.Errorf("read the draft: %w", err)
	case info.Size() > maxDraftFile:
		return Draft{}, false, fmt.Errorf("read the draft: %w", ErrTooLarge)
	}
	data, err := hackpadfs.ReadFile(s.fs, DraftFile)
	if err != nil {
		return Draft{}, false, fmt.Errorf("read the draft: %w", err)
	}
	var d Draft
	if err := json.Unmarshal(data, &d); err != nil {
		return Draft{}, false, fmt.Errorf("read the draft: %w", err)
	}
	if len(d.Text) > scenario.MaxFileSize {
		return Draft{}, false, fmt.Errorf("read the draft: %w", ErrTooLarge)
	}
	return d, true, nil
}

// DiscardDraft removes the draft; without one it does nothing.
func (s *Store) DiscardDraft() error {
	err := hackpadfs.Remove(s.fs, DraftFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("discard the draft: %w", err)
	}
	return nil
}
