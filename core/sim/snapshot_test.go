package sim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/scenario"
	"converge/scenarios"
)

// shipped returns every scenario the repository ships: the library and
// the golden traces' inputs.
func shipped(t *testing.T) map[string]*scenario.Scenario {
	t.Helper()
	out := map[string]*scenario.Scenario{}
	names, err := fs.Glob(scenarios.FS, "*.yaml")
	require.NoError(t, err)
	for _, n := range names {
		out[n] = load(t, scenarios.FS, n)
	}
	files, err := filepath.Glob("testdata/*.yaml")
	require.NoError(t, err)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		scn, probs := scenario.Parse(data, f)
		require.False(t, probs.HasErrors(), "%v", probs)
		out[f] = scn
	}
	require.Greater(t, len(out), 20)
	return out
}

// TestWriteTraceLineIsJSONMarshal: the streamed trace line is, byte for
// byte, json.Marshal of the Snapshot, for every shipped scenario at several
// seconds, written twice in a second (the second time from the caches),
// after a seek back (a clone, without caches) and after a step added at
// run time.
func TestWriteTraceLineIsJSONMarshal(t *testing.T) {
	t.Parallel()
	for name, scn := range shipped(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := New(scn, Options{CheckpointEvery: 7})
			require.NoError(t, err)
			end := int64(scn.Duration.Seconds())
			check := func(what string) {
				want, err := json.Marshal(s.Snapshot())
				require.NoError(t, err)
				for range 2 {
					var b bytes.Buffer
					require.NoError(t, s.WriteTraceLine(&b))
					require.Equal(t, string(want), b.String(), "%s at t=%d", what, s.T())
				}
			}
			for _, at := range []int64{0, 1, 5, 12, 13, 31, end / 2, end} {
				s.SeekTo(at)
				check("forward")
			}
			for _, at := range []int64{end / 3, 3, end - 1} {
				s.SeekTo(at)
				check("after a seek back")
			}
			s.Run("kubectl scale deployment/web --replicas=1")
			check("after a step added at run time")
		})
	}
}

// TestSnapshotListsAreSortedByName: each object list of a snapshot is the
// store's objects of that kind sorted by namespace and name, every second
// of a scenario with creations and deletions.
func TestSnapshotListsAreSortedByName(t *testing.T) {
	t.Parallel()
	s, err := New(load(t, scenarios.FS, "rolling-update.yaml"), Options{})
	require.NoError(t, err)
	for s.T() < int64(s.Duration().Seconds()) {
		snap := reflect.ValueOf(s.Snapshot()).Elem()
		for _, f := range snapshotPlan() {
			if f.kind == "" {
				continue
			}
			want := s.Store().List(f.kind)
			slices.SortStableFunc(want, func(a, b api.Object) int {
				ma, mb := a.GetObjectMeta(), b.GetObjectMeta()
				if c := strings.Compare(ma.Namespace, mb.Namespace); c != 0 {
					return c
				}
				return strings.Compare(ma.Name, mb.Name)
			})
			got := snap.Field(f.index)
			require.Equal(t, len(want), got.Len(), "%s at t=%d", f.kind, s.T())
			for i := range want {
				assert.Same(t, want[i], got.Index(i).Interface(), "%s[%d] at t=%d", f.kind, i, s.T())
			}
		}
		s.Step(1)
	}
}

// TestPlanCoversSnapshot: every field of Snapshot is written, in order,
// and each object list names its kind.
func TestPlanCoversSnapshot(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[Snapshot]()
	require.Len(t, snapshotPlan(), typ.NumField())
	assert.Equal(t, `{"t":`, string(snapshotPlan()[0].key))
	for i, f := range snapshotPlan() {
		assert.Equal(t, i, f.index)
		if typ.Field(i).Type.Kind() == reflect.Slice && typ.Field(i).Type.Elem().Kind() == reflect.Pointer {
			assert.NotEmpty(t, f.kind, typ.Field(i).Name)
		}
	}
	assert.Equal(t, api.KindPod, snapshotPlan()[4].kind)
}

// TestPlanRefusesWhatItCannotWrite: a field with omitempty would make the
// writer's bytes differ from json.Marshal's, so the plan refuses it.
func TestPlanRefusesWhatItCannotWrite(t *testing.T) {
	t.Parallel()
	type bad struct {
		T    int64      `json:"t"`
		Pods []*api.Pod `json:"pods,omitempty"`
	}
	assert.PanicsWithValue(t, `sim: Snapshot.Pods: the trace writer needs a plain json name, not "pods,omitempty"`,
		func() { newPlan(reflect.TypeFor[bad]()) })
}

// bigEnv is the legal file, scaled: a Deployment of replicas pods,
// each with an environment value of size bytes.
func bigEnv(replicas, size int) string {
	return `name: big-env
duration: 60s
cluster:
  nodes:
  - {name: node-1, pods: 500, cpu: "1000", memory: 1000Gi}
objects:
- apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: ` + itoa(replicas) + `
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
        - name: web
          image: nginx
          env: [{name: BIG, value: "` + strings.Repeat("x", size) + `"}]
`
}

func itoa(n int) string { return strconv.Itoa(n) }

// A snapshot larger than MaxTraceLine is refused with a clear error before
// any of it is written, and the simulation goes on; a snapshot within it is
// written whole.
func TestTraceLineHasAByteBudget(t *testing.T) {
	t.Parallel()
	scn, probs := scenario.Parse([]byte(bigEnv(300, 250_000)), "big.yaml")
	require.False(t, probs.HasErrors(), "%v", probs)
	s, err := New(scn, Options{CheckpointEvery: -1})
	require.NoError(t, err)
	var refused *ErrTraceLineTooLarge
	for s.T() < 30 {
		var b bytes.Buffer
		err := s.WriteTraceLine(&b)
		if err != nil {
			require.ErrorAs(t, err, &refused)
			assert.Zero(t, b.Len(), "nothing of the line is written")
			break
		}
		assert.LessOrEqual(t, b.Len(), MaxTraceLine)
		s.Step(1)
	}
	require.NotNil(t, refused, "300 pods of 250 KB make a line of 75 MB")
	assert.Equal(t, fmt.Sprintf("the snapshot at %ds is larger than 64 MiB, the limit of one snapshot (a trace line): the objects hold too much to show at once", refused.T), refused.Error())
	_, err = s.TraceLine()
	require.ErrorAs(t, err, &refused)
	s.Step(1) // the simulation goes on
	line, err := New(load(t, scenarios.FS, "basic-loop.yaml"), Options{})
	require.NoError(t, err)
	got, err := line.TraceLine()
	require.NoError(t, err)
	assert.True(t, json.Valid(got))
}
