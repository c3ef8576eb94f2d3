package manifest

import "unicode/utf8"

// SourceLines splits data into lines where the YAML parser counts them:
// at CR LF, CR and LF, and, as libyaml (YAML 1.1) does, at NEL (U+0085),
// LS (U+2028) and PS (U+2029). The breaks are not part of the lines.
// Line n of a problem is SourceLines(data)[n-1].
func SourceLines(data []byte) []string {
	var lines []string
	start := 0
	for i := 0; i < len(data); {
		n := breakLen(data[i:])
		if n == 0 {
			i++
			continue
		}
		lines = append(lines, string(data[start:i]))
		i += n
		start = i
	}
	return append(lines, string(data[start:]))
}

// breakLen is the length of the line break data starts with, 0 for none.
func breakLen(data []byte) int {
	switch {
	case len(data) == 0:
		return 0
	case data[0] == '\r' && len(data) > 1 && data[1] == '\n':
		return 2
	case data[0] == '\r', data[0] == '\n':
		return 1
	case data[0] < utf8.RuneSelf:
		return 0
	}
	switch r, size := utf8.DecodeRune(data); r {
	case 0x85, 0x2028, 0x2029:
		return size
	}
	return 0
}
