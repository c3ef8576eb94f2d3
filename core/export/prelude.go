package export

// helpers are the replay script's functions, after its settings. Each
// says what it does; docs/sharing.md describes the script as a whole. They
// keep to bash 4 and POSIX tools (sed, awk, sort), so that they run where
// kind and kubectl do.
const helpers = `command -v kubectl >/dev/null || { echo "kubectl is not on PATH" >&2; exit 2; }

start=$SECONDS
now=0
saved_nodes=()
saved_unschedulable=()
gone_nodes=()
untaints=()
passed=0
failed=0
number_re='^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$'

# at SECONDS: waits until that second of the scenario, counted from the start.
at() {
  now=$1
  local wait=$(( $1 - (SECONDS - start) ))
  if (( wait > 0 )); then sleep "$wait"; fi
}

# say TEXT: one line of the replay's log, after the scenario's second.
say() { printf '%6s  %s\n' "${now}s" "$1"; }

# indent: a command's output, under its line.
indent() { sed 's/^/          /'; }

# mismatch TEXT: counts a failure and prints it as 'converge run' does.
mismatch() {
  failed=$(( failed + 1 ))
  printf '%s: at %ss: %s\n' "$scenario_file" "$now" "$1" >&2
}

# step TEXT ARGS...: runs kubectl ARGS in the namespace (its stdin is the
# step's). A failure is printed and the replay goes on, as in the simulation.
step() {
  local text=$1
  shift
  say "\$ kubectl $text"
  if ! kubectl ${in_namespace[@]+"${in_namespace[@]}"} "$@" 2>&1 | indent; then
    say "  the step failed"
  fi
}

# objects TEXT: applies the scenario's objects (its stdin) at t=0; the
# replay cannot go on without them, so a refusal ends it (exit status 2).
objects() {
  say "\$ kubectl $1"
  if ! kubectl --namespace "$namespace" apply -f - 2>&1 | indent; then
    echo "the cluster refused the scenario's objects; the replay stops" >&2
    exit 2
  fi
}

# step_fails TEXT WANT ARGS...: runs kubectl ARGS, which must fail with an
# error that contains WANT (expectError).
step_fails() {
  local text=$1 want=$2 out
  shift 2
  say "\$ kubectl $text"
  if out=$(kubectl ${in_namespace[@]+"${in_namespace[@]}"} "$@" 2>&1); then
    printf '%s\n' "$out" | indent
    mismatch "kubectl $text: succeeded, but an error containing \"$want\" was expected"
  else
    printf '%s\n' "$out" | indent
    if [[ $out == *"$want"* ]]; then
      passed=$(( passed + 1 ))
      say "ok   it failed as expected"
    else
      mismatch "kubectl $text: the error does not contain \"$want\""
    fi
  fi
}

# holds GOT MISSING OP TYPE WANT: whether GOT (MISSING=1: the path leads
# nowhere) compares to WANT as an expect does: TYPE number compares
# numerically (a string holding a number too), string by bytes, bool and
# null only with == and !=; what cannot be compared is only !=. TYPE time
# is one of the simulation's timestamps, WANT seconds from its start: GOT,
# the cluster's time, counts from the replay's start, within time_slack.
holds() {
  local got=$1 missing=$2 op=$3 type=$4 want=$5
  case $type in
  time)
    if (( missing )) || ! got=$(since_start "$got"); then
      [[ $op == '!=' ]]
      return
    fi
    if (( got - want <= time_slack && want - got <= time_slack )); then got=$want; fi
    holds "$got" 0 "$op" number "$want"
    ;;
  null)
    if (( missing )); then [[ $op == '==' ]]; else [[ $op == '!=' ]]; fi
    ;;
  bool)
    if (( !missing )) && [[ $got == "$want" ]]; then [[ $op == '==' ]]; else [[ $op == '!=' ]]; fi
    ;;
  number)
    if (( missing )) || ! [[ $got =~ $number_re ]]; then
      [[ $op == '!=' ]]
      return
    fi
    awk -v a="$got" -v b="$want" -v op="$op" 'BEGIN {
      a += 0; b += 0
      if (op == "==") r = a == b; else if (op == "!=") r = a != b
      else if (op == "<") r = a < b; else if (op == "<=") r = a <= b
      else if (op == ">") r = a > b; else r = a >= b
      exit !r
    }'
    ;;
  string)
    if (( missing )); then
      [[ $op == '!=' ]]
      return
    fi
    case $op in
    '==') [[ $got == "$want" ]] ;;
    '!=') [[ $got != "$want" ]] ;;
    '<') [[ $got < "$want" ]] ;;
    '<=') [[ $got < "$want" || $got == "$want" ]] ;;
    '>') [[ $got > "$want" ]] ;;
    *) [[ $got > "$want" || $got == "$want" ]] ;;
    esac
    ;;
  esac
}

# expect TEXT TARGET TEMPLATE OP TYPE WANT [zero:VALUE [parent:TEMPLATE]]:
# checks one expect with kubectl get TARGET -o jsonpath=TEMPLATE. zero:VALUE
# is what a missing field stands for (Kubernetes omits zero values) when
# the field's parent, parent:TEMPLATE, is there; a missing parent (a filter
# that matches nothing) leaves the path missing. With EXPECT_WAIT=SECONDS
# it tries again each second for that long before it reports a mismatch.
expect() {
  local text=$1 target=$2 template=$3 op=$4 type=$5 want=$6 zero=${7-} parent=${8-}
  local deadline=$(( SECONDS + expect_wait )) got missing shown
  while :; do
    missing=0
    if got=$(kubectl --namespace "$namespace" get "$target" -o "jsonpath=$template" 2>/dev/null); then
      if [[ -z $got ]]; then
        if [[ $zero == zero:* ]]; then got=${zero#zero:}; else missing=1; fi
        if [[ $parent == parent:* ]] && [[ -z $(kubectl --namespace "$namespace" get "$target" -o "jsonpath=${parent#parent:}" 2>/dev/null) ]]; then
          got=
          missing=1
        fi
      fi
    else
      got=
      missing=1
    fi
    if holds "$got" "$missing" "$op" "$type" "$want"; then
      passed=$(( passed + 1 ))
      say "ok   expect $text"
      return 0
    fi
    if (( SECONDS >= deadline )); then break; fi
    sleep 1
  done
  shown=$got
  if (( missing )); then shown='<missing>'; fi
  say "FAIL expect $text: got $shown"
  mismatch "expect $text: got $shown"
}

# fault TEXT HOW: a fault the replay cannot cause itself: it says what to do
# by hand, now, and goes on.
fault() {
  say "FAULT $1: cause it by hand now: $2"
}

# node_step TEXT [node:NODE|untaint:NODE:TAINT-|gone:NODE]... -- HELPER
# ARGS...: a step on the scenario's nodes, run only with
# CONVERGE_NODE_STEPS=1 by HELPER (step, step_fails or watch_start), without
# --namespace. Before it runs, it notes each node's schedulability and each
# taint it adds, which restore_nodes puts back on exit, and each node it
# deletes, which restore_nodes cannot put back.
node_step() {
  local text=$1 w
  local -a in_namespace=()
  shift
  if [[ $node_steps != 1 ]]; then
    say "SKIP kubectl $text: a step on a node (CONVERGE_NODE_STEPS=1 runs it)"
    return
  fi
  while [[ $1 != -- ]]; do
    w=$1
    shift
    case $w in
    node:*) remember_node "${w#node:}" ;;
    untaint:*) untaints+=("${w#untaint:}") ;;
    gone:*) is_gone "${w#gone:}" || gone_nodes+=("${w#gone:}") ;;
    esac
  done
  shift
  "$@"
}

# remember_node NODE: notes NODE's .spec.unschedulable, once.
remember_node() {
  local n
  for n in ${saved_nodes[@]+"${saved_nodes[@]}"}; do
    if [[ $n == "$1" ]]; then return; fi
  done
  saved_nodes+=("$1")
  saved_unschedulable+=("$(kubectl get node "$1" -o 'jsonpath={.spec.unschedulable}' 2>/dev/null || true)")
}

# is_gone NODE: whether a node step deleted NODE.
is_gone() {
  local n
  for n in ${gone_nodes[@]+"${gone_nodes[@]}"}; do
    if [[ $n == "$1" ]]; then return 0; fi
  done
  return 1
}

# restore_nodes: on exit, removes the taints the node steps added and puts
# back each node's schedulability; a node they deleted it cannot put back,
# and says how.
restore_nodes() {
  local i spec n
  for (( i = ${#untaints[@]} - 1; i >= 0; i-- )); do
    spec=${untaints[i]}
    if is_gone "${spec%%:*}"; then continue; fi
    kubectl taint nodes "${spec%%:*}" "${spec#*:}" >/dev/null 2>&1 || true
    echo "restored: the taint ${spec#*:} is off ${spec%%:*}"
  done
  for (( i = 0; i < ${#saved_nodes[@]}; i++ )); do
    if is_gone "${saved_nodes[i]}"; then
      continue
    elif [[ ${saved_unschedulable[i]} == true ]]; then
      kubectl cordon "${saved_nodes[i]}" >/dev/null 2>&1 || true
      echo "restored: ${saved_nodes[i]} is cordoned, as it was"
    else
      kubectl uncordon "${saved_nodes[i]}" >/dev/null 2>&1 || true
      echo "restored: ${saved_nodes[i]} is schedulable, as it was"
    fi
  done
  for n in ${gone_nodes[@]+"${gone_nodes[@]}"}; do
    echo "NOT restored: the replay deleted the node $n; its kubelet registers it again when it restarts (a kind node: docker restart $n)"
  done
}

# note TEXT: a step the replay cannot run (see the comment above it).
note() { say "NOTE $1"; }
`

// begin checks the namespace, says which cluster kubectl points at and
// makes sure the namespace is new.
const begin = `
namespace_re='^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$'
if ! [[ $namespace =~ $namespace_re ]]; then
  echo "NAMESPACE=$namespace is not a namespace name (lower-case letters, digits and -, at most 63)" >&2
  exit 2
fi
context=$(kubectl config current-context 2>/dev/null) || context=
cluster=$(kubectl config view --minify -o 'jsonpath={.clusters[0].name} at {.clusters[0].cluster.server}' 2>/dev/null) || cluster=
echo "kubectl's current context: ${context:-(none)}; its cluster: ${cluster:-(unknown)}"
if kubectl get namespace "$namespace" >/dev/null 2>&1; then
  echo "the namespace $namespace exists already: delete it (kubectl delete namespace $namespace) or set NAMESPACE" >&2
  exit 2
fi
echo "The replay of $scenario_file creates the namespace $namespace and acts only inside it."
`

// nodeStepsBanner says whether the node steps run.
const nodeStepsBanner = `if [[ $node_steps == 1 ]]; then
  echo "CONVERGE_NODE_STEPS=1: it also cordons, drains, taints or deletes the scenario's nodes (${nodes[*]}), and puts them back on exit (a deleted node it cannot)."
else
  echo "CONVERGE_NODE_STEPS is off: it skips the steps on the scenario's nodes (cordon, drain, taint, delete)."
fi
`

// confirm asks before the first change, and starts the clock.
const confirm = `if [[ ${CONVERGE_YES:-} != 1 ]]; then
  if ! [[ -t 0 ]]; then
    echo "nothing changed: with no terminal to ask on, set CONVERGE_YES=1 to replay on this cluster" >&2
    exit 2
  fi
  answer=
  read -r -p "Replay on this cluster? [y/N] " answer || true
  if [[ $answer != [yY]* ]]; then
    echo "nothing changed" >&2
    exit 2
  fi
fi
trap on_exit EXIT
kubectl create namespace "$namespace" >/dev/null || exit 2
echo "Replaying $scenario_file in the namespace $namespace"
start=$SECONDS
`

// epilogue ends the replay script: the summary and the exit status.
const epilogue = `
echo "expectations: $passed passed, $failed failed"
echo "The namespace $namespace is left for you to look at; delete it with: kubectl delete namespace $namespace"
if (( failed > 0 )); then exit 1; fi
`
