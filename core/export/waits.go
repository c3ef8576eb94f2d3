package export

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"converge/core/kubectl"
	"converge/core/scenario"
	"converge/core/sim"
)

// The steps that wait. In the simulation a command that waits (`drain` as
// it retries evictions a PodDisruptionBudget refuses and waits for the
// evicted pods to go, `wait` until its condition holds or its timeout,
// `rollout status` watching until a progress deadline) is a waiting step: it goes on beside the later steps, which keep their
// seconds (core/sim/waits.go). The replay does the same: such a step runs in
// the background (watch_start), its output kept; at the second after the
// one in which the simulation's step ended, watch_end prints its output
// under the second it started and checks its outcome (an error containing
// its expectError, or none), or says it is still running; watches_end, at
// the end, checks the rest, after up to 30 s more for those the simulation
// ended (a real cluster keeps its own pace), and stops what still runs, as
// the exit does whatever ends the replay (on_exit).

// waitingStep is a step the replay runs in the background.
type waitingStep struct {
	// index is the step's position in the scenario: its ID in the script.
	index int
	// start is its second; end the second in which the simulation's step
	// ended, -1 while it waits.
	start, end int64
	// checked: watch_end is written for it.
	checked bool
}

// advance moves the simulation to the end of second t, one second at a
// time, noting where the tracked steps end; false when the simulation
// cannot run.
func (r *resolver) advance(t int64) bool {
	if r.err != nil {
		return false
	}
	if r.s == nil {
		r.s, r.err = sim.New(r.scn, sim.Options{CheckpointEvery: -1})
		if r.err != nil {
			return false
		}
	}
	for r.s.T() < t {
		r.s.Step(1)
		r.noteEnds()
	}
	return true
}

// track notes a step the script runs in the background, to learn where
// the simulation's ends.
func (r *resolver) track(w *waitingStep) {
	r.waits = append(r.waits, w)
	if r.s != nil {
		r.noteEnds()
	}
}

// noteEnds notes the tracked steps that have run and no longer wait.
func (r *resolver) noteEnds() {
	running := map[int]bool{}
	for _, u := range r.s.Unfinished() {
		running[u.Index] = true
	}
	for _, w := range r.waits {
		if w.end < 0 && r.s.T() >= w.start && !running[w.index] {
			w.end = r.s.T()
		}
	}
}

// background writes a step that runs in the background: watch_start with
// the step's ID, its text, the error it must end with ("" none) and
// kubectl's words.
func (g *script) background(st scenario.Step, words []string) string {
	w := &waitingStep{index: g.index, start: int64(st.At / time.Second), end: -1}
	g.res.track(w)
	return "watch_start " + strconv.Itoa(w.index) + " " + shQuote(st.Kubectl) + " " + shQuote(st.ExpectError) + " " + strings.Join(words, " ")
}

// endWaits writes watch_end for each background step whose simulated
// counterpart ended before the second at (a step at that second sees the
// second before), at the second after the one it ended in.
func (g *script) endWaits(at int64) {
	if g.res == nil || len(g.res.waits) == 0 || !g.res.advance(at-1) {
		return
	}
	var ended []*waitingStep
	for _, w := range g.res.waits {
		if !w.checked && w.end >= 0 && w.end < at {
			ended = append(ended, w)
		}
	}
	sort.SliceStable(ended, func(i, j int) bool { return ended[i].end < ended[j].end })
	for _, w := range ended {
		w.checked = true
		g.wait(time.Duration(w.end+1) * time.Second)
		g.line("watch_end " + strconv.Itoa(w.index) + " " + strconv.FormatInt(w.end, 10))
	}
}

// watchesEnd writes the end of the background steps: watch_end for those
// the simulation ended before its last second, then watches_end with the
// IDs of those it ended in its last second, which get up to 30 s more.
func (g *script) watchesEnd() {
	if g.res == nil || len(g.res.waits) == 0 {
		return
	}
	dur := int64(g.scn.Duration / time.Second)
	g.endWaits(dur)
	g.res.advance(dur)
	line := "\nwatches_end"
	for _, w := range g.res.waits {
		if !w.checked && w.end >= 0 {
			line += " " + strconv.Itoa(w.index)
		}
	}
	g.line(line)
}

// waitsInBackground writes a step that waits in the simulation, so that the
// steps after it keep their seconds, and reports whether it did:
//   - `kubectl wait`, which the simulation polls until every object meets
//     its condition or its --timeout (kubectl's 30 s by default) runs out,
//     as kubectl does;
//   - a `rollout status` with expectError, which the simulation watches
//     until the Deployment exceeds its progress deadline: in the
//     background with a timeout at the scenario's end (one without
//     expectError runs at once with --watch=false, commandWords).
func (g *script) waitsInBackground(st scenario.Step, words []string) bool {
	cmd, err := kubectl.Parse(st.Kubectl)
	if err != nil {
		return false
	}
	switch strings.Join(cmd.Path, " ") {
	case "wait":
		g.line(g.background(st, words))
		return true
	case "rollout status":
		if st.ExpectError == "" {
			return false
		}
	default:
		return false
	}
	timeout := false
	for _, f := range cmd.Flags {
		switch {
		case f.Name == "watch" && f.Value == "false":
			return false
		case f.Name == "timeout":
			timeout = true
		}
	}
	out := make([]string, 0, len(words)+1)
	for _, w := range words {
		if w == noWatch {
			if !timeout {
				out = append(out, timeoutFlag(g.scn, st.At))
			}
			continue
		}
		out = append(out, w)
	}
	g.line(g.background(st, out))
	return true
}

// watchHelpers are the replay script's functions for the steps that run in
// the background, after pinHelpers.
const watchHelpers = `
# The steps that wait (drain, wait, rollout status until a progress deadline):
# each runs in the background, as the simulation's waiting step goes on
# beside the later steps. watch_end checks one where the simulation's ended,
# watches_end the rest at the end; the exit stops what still runs.
watch_dir=
watch_ids=()
declare -A watch_at=() watch_want=() watch_text=() watch_pid=() watch_done=()

# watch_start ID TEXT WANT ARGS...: starts kubectl ARGS in the background,
# its output kept; WANT is the error it must end with ("": none).
watch_start() {
  local id=$1 text=$2 want=$3
  shift 3
  say "\$ kubectl $text (watching in the background)"
  if [[ -z $watch_dir ]]; then watch_dir=$(mktemp -d); fi
  (
    k=
    trap '[[ -z $k ]] || { kill "$k" 2>/dev/null; wait "$k" 2>/dev/null; }; exit 143' TERM
    kubectl ${in_namespace[@]+"${in_namespace[@]}"} "$@" > "$watch_dir/$id.out" 2>&1 &
    k=$!
    if wait "$k"; then rc=0; else rc=$?; fi
    echo "$rc" > "$watch_dir/$id.rc"
  ) &
  watch_pid[$id]=$!
  watch_ids+=("$id")
  watch_at[$id]=$now
  watch_want[$id]=$want
  watch_text[$id]=$text
}

# watch_report ID: prints the output of the background step ID under the
# second it started, and checks its outcome as step (a failure is printed)
# or step_fails (WANT) does; one stopped at the end was still running.
watch_report() {
  local id=$1 text=${watch_text[$1]} want=${watch_want[$1]} at=$now out rc
  watch_done[$id]=1
  now=${watch_at[$id]}
  out=$(cat "$watch_dir/$id.out" 2>/dev/null || true)
  rc=$(cat "$watch_dir/$id.rc" 2>/dev/null || true)
  say "\$ kubectl $text (watched)"
  printf '%s\n' "$out" | indent
  if [[ -z $rc ]]; then
    if [[ -n $want ]]; then
      mismatch "kubectl $text: still running at the end, but an error containing \"$want\" was expected"
    else
      say "  still running at the end: stopped"
    fi
  elif [[ -z $want ]]; then
    if [[ $rc != 0 ]]; then say "  the step failed"; fi
  elif [[ $rc == 0 ]]; then
    mismatch "kubectl $text: succeeded, but an error containing \"$want\" was expected"
  elif [[ $out == *"$want"* ]]; then
    passed=$(( passed + 1 ))
    say "ok   it failed as expected"
  else
    mismatch "kubectl $text: the error does not contain \"$want\""
  fi
  now=$at
}

# watch_end ID END: the simulation's step ID ended in second END. If the
# cluster's has ended too (EXPECT_WAIT waits that long for it), it is
# checked now; else it is checked at the end. Nothing for a step not run.
watch_end() {
  local id=$1 i=0
  if [[ -z ${watch_pid[$id]+set} || -n ${watch_done[$id]+set} ]]; then return 0; fi
  while [[ ! -e $watch_dir/$id.rc ]] && (( i < expect_wait )); do
    sleep 1
    i=$(( i + 1 ))
  done
  if [[ -e $watch_dir/$id.rc ]]; then
    watch_report "$id"
  else
    say "NOTE kubectl ${watch_text[$id]} (from ${watch_at[$id]}s) is still running; the simulation's ended at $2s"
  fi
}

# watches_end [ID...]: at the end, checks the background steps not yet
# checked, after up to 30 s more for the IDs given (those the simulation
# ended); what still runs then is stopped.
watches_end() {
  local id i=0
  (( ${#watch_ids[@]} > 0 )) || return 0
  for id in "$@"; do
    while [[ -n ${watch_pid[$id]+set} && ! -e $watch_dir/$id.rc ]] && (( i < 30 )); do
      sleep 1
      i=$(( i + 1 ))
    done
  done
  stop_watches
  for id in "${watch_ids[@]}"; do
    if [[ -z ${watch_done[$id]+set} ]]; then watch_report "$id"; fi
  done
  rm -rf "$watch_dir"
  watch_dir=
}

# stop_watches: stops the background steps still running.
stop_watches() {
  local id
  for id in ${watch_ids[@]+"${watch_ids[@]}"}; do
    if [[ ! -e $watch_dir/$id.rc ]]; then
      kill "${watch_pid[$id]}" 2>/dev/null || true
      wait "${watch_pid[$id]}" 2>/dev/null || true
    fi
  done
}

# on_exit: however the replay ends, it stops the background steps, then
# puts the nodes back (restore_nodes).
on_exit() {
  stop_watches
  if [[ -n $watch_dir ]]; then rm -rf "$watch_dir"; fi
  restore_nodes
}
`
