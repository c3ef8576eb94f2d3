package export

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"converge/core/api"
	"converge/core/scenario"
	"converge/core/sim"
	"converge/core/store"
)

// The simulation names the ReplicaSets and pods it creates itself
// (web-6598877c79, web-6598877c79-czpqf); a real cluster chooses other
// hashes and suffixes. The replay script therefore pins each such name, at
// the first step that uses it, to the cluster's object that plays the same
// part (docs/sharing.md, "Replay on a cluster"):
//
//   - a ReplicaSet of a Deployment by the Deployment's name and the
//     ReplicaSet's revision at that second (pin_rs), which a real cluster
//     numbers as the simulation does;
//   - a pod of such a ReplicaSet by its owner and its rank among the owner's
//     pods that are not being deleted, oldest first, on the same node when
//     the cluster has any there (pin_pod).
//
// A pinned name stays for the rest of the replay, so that an expect that
// the pod or ReplicaSet is gone (`.metadata.name == null`) checks the same
// object, not whichever object now holds the prefix.

// resolver runs the simulation alongside the script's steps to learn what
// each generated name stands for.
type resolver struct {
	scn *scenario.Scenario
	s   *sim.Sim
	err error
	// declared are the names of the objects the scenario declares, by kind.
	declared map[string]map[string]bool
	// pinned are the names pin lines have been written for.
	pinned map[string]bool
	// pending are the pin lines for the step being written.
	pending []string
	// at is the second of the step being written.
	at time.Duration
	// waits are the steps the script runs in the background (waits.go),
	// whose end in the simulation advance notes.
	waits []*waitingStep
}

func newResolver(scn *scenario.Scenario) *resolver {
	r := &resolver{scn: scn, declared: map[string]map[string]bool{}, pinned: map[string]bool{}}
	for _, d := range scn.Objects {
		r.declare(d.Object)
	}
	for _, st := range scn.Steps {
		for _, d := range st.Apply {
			r.declare(d.Object)
		}
	}
	return r
}

func (r *resolver) declare(obj api.Object) {
	if obj == nil {
		return
	}
	kind := obj.GetTypeMeta().Kind
	if r.declared[kind] == nil {
		r.declared[kind] = map[string]bool{}
	}
	r.declared[kind][obj.GetObjectMeta().Name] = true
}

// generated reports whether name, of kind, is one the simulation chose.
func (r *resolver) generated(kind, name string) bool {
	if r == nil {
		return false
	}
	return (kind == api.KindPod || kind == api.KindReplicaSet) && !r.declared[kind][name]
}

// storeAt is the simulation's store as a step at the second at sees it:
// after the second before (steps run first in their second), or after the
// second itself when after is set.
func (r *resolver) storeAt(at time.Duration, after bool) *store.Store {
	t := int64(at/time.Second) - 1
	if after {
		t++
	}
	if !r.advance(t) {
		return nil
	}
	return r.s.Store()
}

// word is the bash word for the generated name of kind (a variable the pin
// line sets), with prefix before it; it queues the pin lines the step
// needs. A name the simulation never held stays as it is.
func (r *resolver) word(kind, prefix, name string) string {
	if r == nil || !r.pin(kind, name) {
		return shQuote(prefix + name)
	}
	return `"` + dqEscape(prefix) + `${pinned[` + name + `]}"`
}

// pin queues the pin line for name unless it has one; it reports whether
// the name is pinned.
func (r *resolver) pin(kind, name string) bool {
	if r.pinned[name] {
		return true
	}
	if !validName(name) {
		return false
	}
	for _, after := range []bool{false, true} {
		st := r.storeAt(r.at, after)
		if st == nil {
			return false
		}
		switch kind {
		case api.KindReplicaSet:
			rs, err := st.GetReplicaSet(api.NamespaceDefault, name)
			if err != nil {
				continue
			}
			dep, ok := deploymentOf(rs)
			if !ok {
				return false
			}
			r.pending = append(r.pending, "pin_rs "+name+" "+shQuote(dep)+" "+shQuote(rs.Annotations[api.RevisionAnnotation]))
			r.pinned[name] = true
			return true
		case api.KindPod:
			p, err := st.GetPod(api.NamespaceDefault, name)
			if err != nil {
				continue
			}
			r.pending = append(r.pending, r.podPin(st, p))
			r.pinned[name] = true
			return true
		}
	}
	return false
}

// podPin is the pin_pod line for p: its owning ReplicaSet (pinned first
// when generated), its rank among the owner's pods on its node that are
// not being deleted, and its node.
func (r *resolver) podPin(st *store.Store, p *api.Pod) string {
	owner := controllerOf(&p.ObjectMeta, api.KindReplicaSet)
	ownerWord := "''"
	if owner != "" {
		ownerWord = shQuote(owner)
		if r.generated(api.KindReplicaSet, owner) && r.pin(api.KindReplicaSet, owner) {
			ownerWord = `"${pinned[` + owner + `]}"`
		}
	}
	var mates []*api.Pod
	for _, q := range st.Pods() {
		if q.Namespace != p.Namespace || q.DeletionTimestamp != nil || q.Spec.NodeName != p.Spec.NodeName {
			continue
		}
		if owner != "" && controllerOf(&q.ObjectMeta, api.KindReplicaSet) != owner {
			continue
		}
		mates = append(mates, q)
	}
	sort.SliceStable(mates, func(i, j int) bool {
		a, b := mates[i].CreationTimestamp.Time, mates[j].CreationTimestamp.Time
		if !a.Equal(b) {
			return a.Before(b)
		}
		return mates[i].Name < mates[j].Name
	})
	index := 0
	for i, q := range mates {
		if q.Name == p.Name {
			index = i
		}
	}
	node := "''"
	for i, n := range r.scn.Cluster.Nodes {
		if n.Name == p.Spec.NodeName && p.Spec.NodeName != "" {
			node = `"$NODE_` + strconv.Itoa(i+1) + `"`
		}
	}
	return "pin_pod " + p.Name + " " + ownerWord + " " + strconv.Itoa(index) + " " + node
}

// flush writes the queued pin lines.
func (r *resolver) flush(g *script) {
	if r == nil {
		return
	}
	for _, l := range r.pending {
		g.line(l)
	}
	r.pending = r.pending[:0]
}

// deploymentOf is the Deployment a ReplicaSet belongs to: its controller,
// or, for an orphan, the name before its hash (NAME-HASH), with the
// revision annotation Deployments put on theirs.
func deploymentOf(rs *api.ReplicaSet) (string, bool) {
	if rs.Annotations[api.RevisionAnnotation] == "" {
		return "", false
	}
	if d := controllerOf(&rs.ObjectMeta, api.KindDeployment); d != "" {
		return d, true
	}
	i := strings.LastIndex(rs.Name, "-")
	if i <= 0 {
		return "", false
	}
	return rs.Name[:i], true
}

// controllerOf is the name of m's controller of kind, or "".
func controllerOf(m *api.ObjectMeta, kind string) string {
	for _, o := range m.OwnerReferences {
		if o.Kind == kind && o.Controller != nil && *o.Controller {
			return o.Name
		}
	}
	return ""
}

// validName reports whether name can be a bash associative array key
// unquoted: a DNS subdomain name (lower-case letters, digits, - and .).
func validName(name string) bool {
	if name == "" || len(name) > 253 {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// simTime is the offset from the simulation's start of a string that is
// one of its timestamps (2026-01-01T00:00:40Z: 40s), for an expect that
// compares one: the replay compares it with the cluster's time since its
// own start.
func simTime(v any) (int64, bool) {
	s, ok := v.(string)
	if !ok || len(s) != len("2026-01-01T00:00:00Z") {
		return 0, false
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return 0, false
	}
	d := t.Sub(api.Epoch)
	if d < 0 || d > scenario.MaxDuration {
		return 0, false
	}
	return int64(d / time.Second), true
}

// pinHelpers are the replay script's functions for generated names, after
// helpers.
const pinHelpers = `
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
`

// timeoutFlag is rollout status's --timeout for a watch started at at: to
// the scenario's end, and 30 seconds more, since a real cluster keeps its
// own pace.
func timeoutFlag(scn *scenario.Scenario, at time.Duration) string {
	left := scn.Duration - at
	if left < 0 {
		left = 0
	}
	return fmt.Sprintf("--timeout=%ds", int64(left/time.Second)+30)
}

// noWatch is the flag rollout status gets in the replay, as the simulation
// runs a step that does not wait.
const noWatch = "--watch=false"
