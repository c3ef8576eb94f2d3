// Package humanize writes counts and second counts as the page, the
// command line and the simulated components say them: "1 pod", "3 pods",
// "45s", "2m5s", "1h2m". It is the one place for them, so that every text
// says them alike.
package humanize

import "strconv"

// Integer is any integer type a count comes in.
type Integer interface {
	~int | ~int32 | ~int64
}

// Noun is word for n of them: "pod" for 1, "pods" otherwise (a plural in
// s, which every word the code counts takes).
func Noun[N Integer](n N, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// Count is n and its noun: "1 pod", "0 pods", "3 pods".
func Count[N Integer](n N, word string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, word)
}

// Seconds renders a second count as 45s, 2m5s, 1h2m: minutes from a
// minute on, hours from an hour on, leaving out a zero part.
func Seconds(s int64) string {
	switch {
	case s < 60:
		return strconv.FormatInt(s, 10) + "s"
	case s < 3600:
		if s%60 == 0 {
			return strconv.FormatInt(s/60, 10) + "m"
		}
		return strconv.FormatInt(s/60, 10) + "m" + strconv.FormatInt(s%60, 10) + "s"
	}
	if s%3600/60 == 0 {
		return strconv.FormatInt(s/3600, 10) + "h"
	}
	return strconv.FormatInt(s/3600, 10) + "h" + strconv.FormatInt(s%3600/60, 10) + "m"
}
