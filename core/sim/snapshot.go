package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"converge/core/api"
	"converge/core/controller"
	"converge/core/controller/endpoints"
	"converge/core/store"
)

// Snapshot is the whole state at one second plus what happened in it: the
// trace line of docs/trace.md. Objects are in Kubernetes' JSON shape, sorted
// by namespace and name as `kubectl get` lists them.
//
// A trace line is written field by field (WriteTraceLine), in this struct's
// order and with its json tags: a field added here appears in the trace
// without more code, an object list from the store's encoding cache.
type Snapshot struct {
	T           int64             `json:"t"`
	Time        string            `json:"time"`
	Deployments []*api.Deployment `json:"deployments"`
	ReplicaSets []*api.ReplicaSet `json:"replicaSets"`
	Pods        []*api.Pod        `json:"pods"`
	Nodes       []*api.Node       `json:"nodes"`
	Services    []*api.Service    `json:"services"`
	Endpoints   []*api.Endpoints  `json:"endpoints"`
	ConfigMaps  []*api.ConfigMap  `json:"configMaps"`
	// ResourceQuotas and PodDisruptionBudgets: v1 ResourceQuota and
	// policy/v1 PodDisruptionBudget.
	ResourceQuotas       []*api.ResourceQuota       `json:"resourceQuotas"`
	PodDisruptionBudgets []*api.PodDisruptionBudget `json:"podDisruptionBudgets"`
	// HorizontalPodAutoscalers: autoscaling/v2 HorizontalPodAutoscaler.
	HorizontalPodAutoscalers []*api.HorizontalPodAutoscaler `json:"horizontalPodAutoscalers"`
	Events                   []store.EmittedEvent           `json:"events"`
	Steps                    []StepResult                   `json:"steps"`
	Syncs                    []controller.SyncRecord        `json:"syncs"`
	Traffic                  []endpoints.ServiceTraffic     `json:"traffic"`
}

// Snapshot returns the current second's snapshot. Its objects are shared
// with the store: do not modify them.
func (s *Sim) Snapshot() *Snapshot {
	st := s.state
	snap := s.snapshotHead()
	for _, f := range snapshotPlan() {
		if f.kind != "" {
			f.setObjects(snap, st.store.ByName(f.kind))
		}
	}
	return snap
}

// snapshotHead is the current snapshot without its object lists.
func (s *Sim) snapshotHead() *Snapshot {
	st := s.state
	tick := st.tick
	return &Snapshot{
		T:       st.t,
		Time:    st.clock.Now().Format(api.RFC3339),
		Events:  nonNil(tick.Events),
		Steps:   nonNil(tick.Steps),
		Syncs:   nonNil(tick.Syncs),
		Traffic: nonNil(tick.Traffic),
	}
}

// TraceLine returns the current snapshot as one line of JSON (no newline),
// the same bytes natively and in the browser: WriteTraceLine's.
func (s *Sim) TraceLine() ([]byte, error) {
	var b bytes.Buffer
	b.Grow(s.lineSize + s.lineSize/8)
	if err := s.WriteTraceLine(&b); err != nil {
		return nil, err
	}
	s.lineSize = b.Len()
	return b.Bytes(), nil
}

// WriteTraceLine writes the current snapshot to w as one line of JSON (no
// newline): the bytes json.Marshal(s.Snapshot()) gives, written piece by
// piece without building them in one buffer. Each object's JSON comes from
// the store's cache (store.WriteJSONList), encoded once per version of the
// object; what happened in the second (events, steps, syncs, traffic) is
// encoded once per second, however many times the line is written.
//
// A line longer than MaxTraceLine is refused (ErrTraceLineTooLarge) before
// any of it is written: a first pass counts the bytes, stopping at the
// limit, so that no snapshot builds gigabytes (10,000 pods that each carry
// a 250 KB environment value would make a line of 2.5 GB).
func (s *Sim) WriteTraceLine(w io.Writer) error {
	if err := s.checkTraceLine(); err != nil {
		return err
	}
	return s.writeTraceLine(w, nil)
}

// WriteTraceDelta writes the snapshot for a reader that keeps the objects
// it was sent (d): the trace line, but for each object a number when the
// reader holds it (its last snapshot had it) and [number, object]
// otherwise (store.Store.WriteJSONList). It fails as WriteTraceLine does.
func (s *Sim) WriteTraceDelta(w io.Writer, d *store.Sent) error {
	if err := s.checkTraceLine(); err != nil {
		return err
	}
	d.Begin()
	return s.writeTraceLine(w, d)
}

// checkTraceLine fails when the trace line is over MaxTraceLine.
func (s *Sim) checkTraceLine() error {
	count := &budgetWriter{left: MaxTraceLine}
	if err := s.writeTraceLine(count, nil); err != nil {
		if errors.Is(err, errOverBudget) {
			return &ErrTraceLineTooLarge{T: s.state.t}
		}
		return err
	}
	return nil
}

// MaxTraceLine is the limit of one snapshot as JSON (a trace line, a
// snapshot the page asks for): 64 MiB, three times the snapshot of 10,000
// plain pods (about 20 MB). docs/limits.md lists every limit.
const MaxTraceLine = 64 << 20

// ErrTraceLineTooLarge is the error of a snapshot beyond MaxTraceLine.
type ErrTraceLineTooLarge struct {
	T int64 // the second
}

func (e *ErrTraceLineTooLarge) Error() string {
	return fmt.Sprintf("the snapshot at %ds is larger than %d MiB, the limit of one snapshot (a trace line): the objects hold too much to show at once", e.T, MaxTraceLine>>20)
}

// budgetWriter counts what is written to it, and fails beyond left.
type budgetWriter struct{ left int }

var errOverBudget = errors.New("over budget")

func (b *budgetWriter) Write(p []byte) (int, error) {
	if len(p) > b.left {
		return 0, errOverBudget
	}
	b.left -= len(p)
	return len(p), nil
}

func (s *Sim) writeTraceLine(w io.Writer, d *store.Sent) error {
	st := s.state
	if st.line == nil {
		head, err := s.encodeHead()
		if err != nil {
			return err
		}
		st.line = head
	}
	for i, f := range snapshotPlan() {
		if _, err := w.Write(f.key); err != nil {
			return err
		}
		var err error
		if f.kind != "" {
			err = st.store.WriteJSONList(w, f.kind, d)
		} else {
			_, err = w.Write(st.line[i])
		}
		if err != nil {
			return err
		}
	}
	_, err := w.Write(closeBrace)
	return err
}

var closeBrace = []byte("}")

// encodeHead encodes the fields of the snapshot that are not object lists,
// by the plan's index (nil at an object list).
func (s *Sim) encodeHead() ([][]byte, error) {
	head := s.snapshotHead()
	plan := snapshotPlan()
	out := make([][]byte, len(plan))
	for i, f := range plan {
		if f.kind != "" {
			continue
		}
		b, err := json.Marshal(f.value(head))
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
