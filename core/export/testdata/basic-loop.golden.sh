#!/usr/bin/env bash
# basic-loop: The basic loop, scaling up and down
#
# A replay of the Converge scenario basic-loop.yaml on a real cluster, written by
# converge export-kubectl (Converge 0.1.0). It applies the scenario's objects in a
# namespace of its own, runs each step at its second (counted from the start),
# checks each expect with kubectl get -o jsonpath and prints each mismatch, and
# says when to cause each fault by hand. A real cluster keeps its own pace (image
# pulls, probes), so an expect may miss by some seconds: EXPECT_WAIT=SECONDS
# tries each one again for that long.
#
# A kind cluster with the scenario's 3 nodes as workers:
#
#   kind create cluster --name converge --config - <<'EOF'
#   kind: Cluster
#   apiVersion: kind.x-k8s.io/v1alpha4
#   nodes:
#   - role: control-plane
#   - role: worker
#   - role: worker
#   - role: worker
#   EOF
#
# Then: bash basic-loop.sh   (NAMESPACE=NAME chooses the namespace, default converge-basic-loop)
#
# The scenario's nodes are the cluster's worker nodes (set NODE_1... to others):
#   node-1 is $NODE_1 (default converge-worker)
#   node-2 is $NODE_2 (default converge-worker2)
#   node-3 is $NODE_3 (default converge-worker3)
# The simulated capacity (cpu 4, memory 8Gi, 110 pods a node) is not the cluster's.
#
# Before it changes anything the script prints kubectl's current context and
# cluster and asks to go on (CONVERGE_YES=1 answers yes; without a terminal and
# without it, the script stops). It acts only inside its namespace, on the kinds
# Converge models, and reads no local file or URL.
#
# Pod and ReplicaSet names are the simulation's; a real cluster chooses its own,
# so the first step or expect that names one pins it to the cluster's object in
# the same place: a ReplicaSet by its Deployment and revision, a pod by its
# ReplicaSet, node and age (see pin_rs and pin_pod below).
#
# Exit status: 0 when every expect held, 1 when one did not, 2 when the replay
# could not start.

set -euo pipefail
export LC_ALL=C

scenario_file=basic-loop.yaml
namespace=${NAMESPACE:-converge-basic-loop}
in_namespace=(--namespace "$namespace")
node_steps=${CONVERGE_NODE_STEPS:-0}
expect_wait=${EXPECT_WAIT:-0}
NODE_1=${NODE_1:-converge-worker}
NODE_2=${NODE_2:-converge-worker2}
NODE_3=${NODE_3:-converge-worker3}

command -v kubectl >/dev/null || { echo "kubectl is not on PATH" >&2; exit 2; }

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

# time_slack: how many seconds a timestamp of the cluster may be off the
# simulation's (TIME_SLACK, default 2); see holds.
time_slack=${TIME_SLACK:-2}

# since_start TIME: the seconds from the replay's start to TIME (RFC 3339,
# UTC), with GNU's or BSD's date.
since_start() {
  local t
  t=$(date -u -d "$1" +%s 2>/dev/null || date -u -j -f '%Y-%m-%dT%H:%M:%SZ' "$1" +%s 2>/dev/null) || return 1
  echo $(( t - ($(date +%s) - (SECONDS - start)) ))
}
# The cluster's names for the simulation's generated ReplicaSet and pod
# names, pinned at the first step that uses each (pin_rs, pin_pod), so that
# later steps and expects name the same object.
declare -A pinned=()

# pin_rs NAME DEPLOYMENT REVISION: pins the simulation's ReplicaSet NAME to
# the cluster's ReplicaSet of DEPLOYMENT (named DEPLOYMENT-HASH) whose
# revision annotation is REVISION. With EXPECT_WAIT it waits that long for
# one; without one, NAME stays as it is (and is not found).
pin_rs() {
  local sim=$1 dep=$2 rev=$3 deadline=$(( SECONDS + expect_wait )) name
  if [[ -n ${pinned[$sim]+set} ]]; then return 0; fi
  while :; do
    name=$(kubectl --namespace "$namespace" get replicasets -o 'jsonpath={range .items[*]}{.metadata.name}{"|"}{.metadata.annotations.deployment\.kubernetes\.io/revision}{"\n"}{end}' 2>/dev/null |
      awk -F'|' -v d="$dep-" -v r="$rev" 'index($1, d) == 1 && substr($1, length(d) + 1) !~ /-/ && $2 == r { print $1; exit }') || name=
    if [[ -n $name ]]; then
      pinned[$sim]=$name
      return 0
    fi
    if (( SECONDS >= deadline )); then break; fi
    sleep 1
  done
  pinned[$sim]=$sim
  say "NOTE no ReplicaSet of deployment/$dep has revision $rev: $sim stays as it is"
}

# pin_pod NAME OWNER INDEX NODE: pins the simulation's pod NAME to a pod of
# the cluster's ReplicaSet OWNER that is not being deleted: the INDEX-th
# oldest (0: the oldest) among those on NODE, or among all when none is on
# NODE. An empty OWNER matches the pods whose name starts like NAME without
# its last two parts.
pin_pod() {
  local sim=$1 owner=$2 index=$3 node=$4 deadline=$(( SECONDS + expect_wait )) prefix name
  if [[ -n ${pinned[$sim]+set} ]]; then return 0; fi
  prefix=${sim%-*}
  prefix=${prefix%-*}-
  while :; do
    name=$(kubectl --namespace "$namespace" get pods -o 'jsonpath={range .items[*]}{.metadata.creationTimestamp}{"|"}{.metadata.name}{"|"}{.metadata.ownerReferences[0].name}{"|"}{.spec.nodeName}{"|"}{.metadata.deletionTimestamp}{"\n"}{end}' 2>/dev/null |
      sort | awk -F'|' -v o="$owner" -v p="$prefix" -v i="$index" -v n="$node" '
        $5 == "" && ((o != "" && $3 == o) || (o == "" && index($2, p) == 1)) {
          all[c++] = $2
          if (n != "" && $4 == n) on[k++] = $2
        }
        END {
          if (k > 0) print on[i < k ? i : k - 1]
          else if (c > 0) print all[i < c ? i : c - 1]
        }') || name=
    if [[ -n $name ]]; then
      pinned[$sim]=$name
      return 0
    fi
    if (( SECONDS >= deadline )); then break; fi
    sleep 1
  done
  pinned[$sim]=$sim
  say "NOTE no pod of ${owner:-$prefix...} to stand for $sim: it stays as it is"
}

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
if [[ ${CONVERGE_YES:-} != 1 ]]; then
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
# t=0: the scenario's objects
objects 'apply deployment/web' <<'CONVERGE_EOF'
apiVersion: apps/v1
kind: Deployment
metadata:
  labels:
    app: web
  name: web
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - image: nginx:1.27
        name: web
        ports:
        - containerPort: 80
CONVERGE_EOF

at 15
expect 'deployment/web .status.availableReplicas == 3' deployment/web '{.status.availableReplicas}' == number 3 zero:0 'parent:{.status}'

at 20
step 'scale deployment/web --replicas=5' scale deployment/web --replicas=5
expect 'deployment/web .spec.replicas == 5' deployment/web '{.spec.replicas}' == number 5

at 40
expect 'deployment/web .status.availableReplicas == 5' deployment/web '{.status.availableReplicas}' == number 5 zero:0 'parent:{.status}'
expect 'deployment/web .status.updatedReplicas == 5' deployment/web '{.status.updatedReplicas}' == number 5 zero:0 'parent:{.status}'

at 45
step 'scale deployment/web --replicas=2' scale deployment/web --replicas=2

at 46
expect 'deployment/web .status.replicas == 2' deployment/web '{.status.replicas}' == number 2 zero:0 'parent:{.status}'

at 75
expect 'deployment/web .status.availableReplicas == 2' deployment/web '{.status.availableReplicas}' == number 2 zero:0 'parent:{.status}'

echo "expectations: $passed passed, $failed failed"
echo "The namespace $namespace is left for you to look at; delete it with: kubectl delete namespace $namespace"
if (( failed > 0 )); then exit 1; fi
