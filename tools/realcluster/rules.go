package realcluster

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The tolerance model's rules for what timing alone changes
// (docs/fidelity.md, "The tolerance model").

// matchSteps pairs two sequences of values (a ReplicaSet's sizes, say):
// they agree when equal, or when one refines the other, that is, has the
// same values plus values strictly inside some of its steps, in the step's
// direction (10,8,7,3,0 refines 10,8,3,0: the real controller took the
// step 8 to 3 in two, as it syncs on each informer event where Converge
// syncs once a second). pairs are the indexes of the values both have, (a,
// b); nil when the sequences do not agree. refined says that they agree
// only as a refinement.
func matchSteps(a, b []string) (pairs [][2]int, refined bool) {
	if strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b) {
		pairs = [][2]int{}
		for i := range a {
			pairs = append(pairs, [2]int{i, i})
		}
		return pairs, false
	}
	if idx := refine(b, a); idx != nil {
		for i, j := range idx {
			pairs = append(pairs, [2]int{i, j})
		}
		return pairs, true
	}
	if idx := refine(a, b); idx != nil {
		for j, i := range idx {
			pairs = append(pairs, [2]int{i, j})
		}
		return pairs, true
	}
	return nil, false
}

// refine returns, when fine refines coarse, the index in fine of each value
// of coarse; else nil.
func refine(fine, coarse []string) []int {
	if len(coarse) == 0 || len(fine) <= len(coarse) || fine[0] != coarse[0] {
		return nil
	}
	idx := []int{0}
	j := 0
	for i := 1; i < len(coarse); i++ {
		lo, errLo := strconv.Atoi(coarse[i-1])
		hi, errHi := strconv.Atoi(coarse[i])
		prev := lo
		for j++; j < len(fine) && fine[j] != coarse[i]; j++ {
			v, err := strconv.Atoi(fine[j])
			if errLo != nil || errHi != nil || err != nil || !((prev < v && v < hi) || (prev > v && v > hi)) {
				return nil
			}
			prev = v
		}
		if j == len(fine) {
			return nil
		}
		idx = append(idx, j)
	}
	if j != len(fine)-1 {
		return nil
	}
	return idx
}

// transient are the Progressing reasons a sync sets and, when the new
// ReplicaSet's pods come, the next sync replaces: on the cluster within
// milliseconds to a second (the ReplicaSet controller's status update, then
// the deployment controller's next sync; sync.go's getNewReplicaSet, then
// progress.go's syncRolloutStatus), in Converge within the same tick's
// rounds. "" is a Deployment not yet synced at all.
var transient = map[string]bool{"NewReplicaSetCreated": true, "FoundNewReplicaSet": true, "": true}

// withoutTransient is s's values without the transient ones that lasted at
// most one second (one sample), duplicates then collapsed.
func withoutTransient(s *series) []string {
	var out []string
	for i, v := range s.vals {
		if transient[v] && i+1 < len(s.at) && s.at[i+1]-s.at[i] <= 1 {
			continue
		}
		if n := len(out); n > 0 && out[n-1] == v {
			continue
		}
		out = append(out, v)
	}
	return out
}

var scaledRe = regexp.MustCompile(`^Scaled (?:up|down) replica set (.+) from (\d+) to (\d+)$`)

// scalingChains are, per ReplicaSet, the sizes its ScalingReplicaSet
// messages (names replaced by identities) take it through: "10,8,3,0".
// Messages of another form are kept whole under "other".
func scalingChains(msgs []string) map[string][]string {
	out := map[string][]string{}
	for _, m := range msgs {
		g := scaledRe.FindStringSubmatch(m)
		if g == nil {
			out["other"] = append(out["other"], m)
			continue
		}
		c := out[g[1]]
		if len(c) == 0 || c[len(c)-1] != g[2] {
			c = append(c, g[2])
		}
		out[g[1]] = append(c, g[3])
	}
	return out
}

func unionKeys(a, b map[string][]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string][]string{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// aggregatePrefix begins the message of an event the recorder's correlator
// combined from similar ones (client-go's events_cache.go); Converge's
// store uses the same (docs/fidelity.md).
const aggregatePrefix = "(combined from similar events): "

// watchedEvents reads WatchEvents' file: each ScalingReplicaSet message as
// often as the recorder emitted it (on the event's creation and on each
// update that raised its count, with the message that update carried,
// without the correlator's prefix), in the order they came, names replaced
// by identities; and the set of the controllers' event reasons.
func watchedEvents(data []byte, s *side) ([]string, map[string]bool, error) {
	reasons := map[string]bool{}
	counts := map[string]int{}
	var scaling []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	for sc.Scan() {
		var line WatchedEvent
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, nil, err
		}
		if line.Type != "ADDED" && line.Type != "MODIFIED" {
			continue
		}
		var e struct {
			Metadata struct {
				UID string `json:"uid"`
			} `json:"metadata"`
			Reason             string `json:"reason"`
			Message            string `json:"message"`
			Count              int    `json:"count"`
			ReportingComponent string `json:"reportingComponent"`
			Source             struct {
				Component string `json:"component"`
			} `json:"source"`
		}
		if err := json.Unmarshal(line.Object, &e); err != nil {
			return nil, nil, err
		}
		count := max(1, e.Count)
		if count <= counts[e.Metadata.UID] {
			continue
		}
		counts[e.Metadata.UID] = count
		src := e.Source.Component
		if src == "" {
			src = e.ReportingComponent
		}
		if controllers[src] {
			reasons[src+" "+e.Reason] = true
		}
		if e.Reason == "ScalingReplicaSet" {
			scaling = append(scaling, replaceNames(strings.TrimPrefix(e.Message, aggregatePrefix), s))
		}
	}
	return scaling, reasons, sc.Err()
}

// watchAgrees says whether the real output of a watched step (kubectl
// rollout status or wait) agrees with Converge's under the tolerance
// model, both normalised, each without consecutive repeated lines (kubectl
// prints a line for each watch event, Converge one per change): a replay
// that ran the step once (--watch=false, one line) agrees when its line is
// one of Converge's; a watched replay when both end with the same line and
// one's lines are a subsequence of the other's (a progress line one side
// passed within a second is missing on that side).
func watchAgrees(sim, real string) bool {
	a, b := uniqLines(sim), uniqLines(real)
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	if len(b) == 1 {
		for _, l := range a {
			if l == b[0] {
				return true
			}
		}
		return false
	}
	return a[len(a)-1] == b[len(b)-1] && (subsequence(a, b) || subsequence(b, a))
}

func uniqLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l == "" || (len(out) > 0 && out[len(out)-1] == l) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// subsequence says whether a's items appear in b in order.
func subsequence(a, b []string) bool {
	j := 0
	for _, x := range b {
		if j < len(a) && a[j] == x {
			j++
		}
	}
	return j == len(a)
}

// replaceWord replaces word in s where it stands alone: not inside a
// longer name of lower-case letters, digits and dashes (the namespace
// "default", but not "default-scheduler").
func replaceWord(s, word, repl string) string {
	if word == "" {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, word)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(word)
		if (i > 0 && nameByte(s[i-1])) || (end < len(s) && nameByte(s[end])) {
			b.WriteString(s[:end])
		} else {
			b.WriteString(s[:i] + repl)
		}
		s = s[end:]
	}
}

func nameByte(c byte) bool {
	return c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')
}
