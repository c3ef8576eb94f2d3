package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxShareSize is the most a share link may carry once inflated: 64 KiB.
const MaxShareSize = 64 << 10

// Share errors, for errors.Is.
var (
	// ErrShareTooLarge: the scenario inflates beyond MaxShareSize.
	ErrShareTooLarge = errors.New("share link is too large: the scenario inflates beyond 64 KiB")
	// ErrShareCorrupt: the link is not base64url of raw DEFLATE data.
	ErrShareCorrupt = errors.New("share link is corrupt")
)

// EncodeShare returns the share payload of a scenario's YAML (docs/embedding.md, share links):
// base64url without padding of its raw DEFLATE (RFC 1951) at the best
// compression. YAML larger than 64 KiB is refused.
func EncodeShare(yaml []byte) (string, error) {
	if len(yaml) > MaxShareSize {
		return "", ErrShareTooLarge
	}
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", fmt.Errorf("encode share: %w", err)
	}
	if _, err := w.Write(yaml); err != nil {
		return "", fmt.Errorf("encode share: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("encode share: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(buf.Bytes()), nil
}

// maxShareLink bounds the link's length before decoding: DEFLATE never
// grows data by more than a few bytes per 16 KiB block, so a valid link of
// 64 KiB of YAML is far shorter.
const maxShareLink = (MaxShareSize + MaxShareSize/8 + 64) * 4 / 3

// DecodeShare returns the scenario YAML a share payload carries. Trailing
// '=' padding and surrounding blanks are tolerated. It stops inflating at 64
// KiB and refuses larger (ErrShareTooLarge) and corrupt (ErrShareCorrupt)
// payloads.
func DecodeShare(s string) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if len(s) > maxShareLink {
		return nil, ErrShareTooLarge
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrShareCorrupt, err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, MaxShareSize+1))
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			err = errors.New("the data ends too early")
		}
		return nil, fmt.Errorf("%w: %v", ErrShareCorrupt, err)
	}
	if len(out) > MaxShareSize {
		return nil, ErrShareTooLarge
	}
	return out, nil
}
