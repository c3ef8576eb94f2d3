package realcluster

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/export"
	"converge/core/scenario"
)

func loadScenario(t *testing.T, name string) *scenario.Scenario {
	t.Helper()
	file := filepath.Join("..", "..", "scenarios", name+".yaml")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	scn, probs := scenario.Parse(data, file)
	require.False(t, probs.HasErrors(), "%v", probs)
	return scn
}

func traceOf(t *testing.T, scn *scenario.Scenario) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, export.Trace(&b, scn, scn.Duration))
	return b.Bytes()
}

// fakeReal turns Converge's trace into what a cluster that did exactly the
// same would give: the recording (shift seconds late, sizes changed by
// edit), its events as an EventList and the replay's output.
func fakeReal(t *testing.T, trace []byte, shift int64, edit func(t int64, rs map[string]any)) (real []byte, events []byte, replay string) {
	t.Helper()
	var lines []map[string]any
	for _, l := range bytes.Split(bytes.TrimSpace(trace), []byte("\n")) {
		var m map[string]any
		require.NoError(t, json.Unmarshal(l, &m))
		lines = append(lines, m)
	}
	var out bytes.Buffer
	var items []map[string]any
	var log strings.Builder
	rv := 0
	for i := range lines {
		src := i - int(shift)
		if src < 0 {
			src = 0
		}
		m := lines[src]
		tt := int64(i)
		rss, _ := m["replicaSets"].([]any)
		var copied []any
		for _, r := range rss {
			b, _ := json.Marshal(r)
			var c map[string]any
			require.NoError(t, json.Unmarshal(b, &c))
			if edit != nil {
				edit(tt, c)
			}
			copied = append(copied, c)
		}
		b, _ := json.Marshal(map[string]any{"t": tt, "deployments": m["deployments"], "replicaSets": copied, "pods": m["pods"]})
		out.Write(b)
		out.WriteByte('\n')
		evs, _ := lines[i]["events"].([]any)
		for _, e := range evs {
			em := e.(map[string]any)
			rv++
			items = append(items, map[string]any{"metadata": map[string]any{"resourceVersion": fmt.Sprint(rv)},
				"reason": em["reason"], "message": em["message"], "count": 1, "source": map[string]any{"component": em["source"]}})
		}
		steps, _ := lines[i]["steps"].([]any)
		for _, s := range steps {
			sm := s.(map[string]any)
			action := sm["action"].(string)
			switch {
			case strings.HasPrefix(action, "expect "):
				word := "FAIL"
				if sm["ok"] == true {
					word = "ok  "
				}
				fmt.Fprintf(&log, "%6s  %s %s\n", sm["at"], word, action)
			default:
				fmt.Fprintf(&log, "%6s  $ %s\n", sm["at"], action)
				for _, l := range strings.Split(sm["output"].(string), "\n") {
					fmt.Fprintf(&log, "          %s\n", l)
				}
			}
		}
	}
	events, _ = json.Marshal(map[string]any{"items": items})
	return out.Bytes(), events, log.String()
}

func TestCompare(t *testing.T) {
	t.Parallel()
	scn := loadScenario(t, "rolling-update")
	trace := traceOf(t, scn)
	dur := int64(scn.Duration / time.Second)
	tests := []struct {
		name    string
		shift   int64
		edit    func(int64, map[string]any)
		verdict Verdict
		aspect  string
	}{
		{"the same", 0, nil, Agrees, ""},
		{"two seconds late", 2, nil, Agrees, ""},
		{"ten seconds late", 10, nil, Differs, "timing"},
		{"another size", 0, func(t int64, rs map[string]any) {
			if t >= 30 {
				rs["spec"].(map[string]any)["replicas"] = json.Number("7")
			}
		}, Differs, "sizes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			real, events, replay := fakeReal(t, trace, tt.shift, tt.edit)
			res, err := Compare("rolling-update", Inputs{Trace: bytes.NewReader(trace), Real: bytes.NewReader(real),
				Events: events, Replay: replay, Duration: dur}, DefaultTolerance)
			require.NoError(t, err)
			assert.Equal(t, tt.verdict, res.Verdict, "%v", res.Differences)
			if tt.aspect != "" {
				require.NotNil(t, res.First())
				assert.Equal(t, tt.aspect, res.First().Aspect, "%v", res.Differences)
			}
			assert.Positive(t, res.Checked["expects"])
			assert.Positive(t, res.Checked["sizes"])
		})
	}
}

// A failed expect on the cluster is a difference of its own, named by the
// expect.
func TestCompareExpects(t *testing.T) {
	t.Parallel()
	scn := loadScenario(t, "rolling-update")
	trace := traceOf(t, scn)
	real, events, replay := fakeReal(t, trace, 0, nil)
	replay = strings.Replace(replay, "ok   expect deployment/web .status.availableReplicas == 10", "FAIL expect deployment/web .status.availableReplicas == 10: got 9", 1)
	res, err := Compare("rolling-update", Inputs{Trace: bytes.NewReader(trace), Real: bytes.NewReader(real), Events: events, Replay: replay,
		Duration: int64(scn.Duration / time.Second)}, DefaultTolerance)
	require.NoError(t, err)
	require.NotNil(t, res.First())
	assert.Equal(t, Difference{Aspect: "expects", What: "deployment/web .status.availableReplicas == 10", Converge: "holds", Real: "fails"}, *res.First())
}

func TestNormalise(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, a, b string }{
		{"get rs", "NAME             DESIRED   CURRENT   READY   AGE\nweb-55cd9cf788   5         5         0       1s",
			"NAME              DESIRED   CURRENT   READY   AGE\nweb-7d9c8b6f4d   5         5         0       2s"},
		{"pods", "web-5dd764dfcc-6w667   1/1   Running   0   21s   10.244.1.3   node-1",
			"web-6b8d9f7c5-x2k9p   1/1   Running   0   20s   10.0.0.7   converge-worker"},
		{"nodes: kwok's kubelet version", "NAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   11s   v1.35.0",
			"NAME              STATUS   ROLES    AGE   VERSION\nconverge-worker   Ready    <none>   12s   kwok-v0.8.0"},
		{"describe: the kubelet's events", "Events:\n  Type     Reason         Age   From               Message\n  ----     ------         ----  ----               -------\n" +
			"  Normal   Scheduled      10s   default-scheduler  Successfully assigned default/web-589d49fbdc-crqzn to node-1\n" +
			"  Warning  InspectFailed  9s (x2 over 10s)   kubelet            Failed to apply default image tag \"Nginx:1.27\"\n" +
			"  Warning  Failed         9s    kubelet            Error: InvalidImageName",
			"Events:\n  Type    Reason     Age   From               Message\n  ----    ------     ----  ----               -------\n" +
				"  Normal  Scheduled  11s   default-scheduler  Successfully assigned converge-x-r1/web-7d9c8b6f4d-x2k9p to converge-worker"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			assert.Equal(t, normalise(tt.a, "default"), normalise(tt.b, "converge-x-r1"))
		})
	}
}

// A replay that recorded nothing (the objects refused, say) differs from
// the first expect on; objects without a status do not trip the
// comparison.
func TestCompareNothingRecorded(t *testing.T) {
	t.Parallel()
	scn := loadScenario(t, "rolling-update")
	trace := traceOf(t, scn)
	real := []byte(`{"t":0,"deployments":[{"metadata":{"name":"web"}}],"replicaSets":[{"metadata":{"name":"x"}}],"pods":[{"metadata":{"name":"p"}}]}` + "\n")
	res, err := Compare("rolling-update", Inputs{Trace: bytes.NewReader(trace), Real: bytes.NewReader(real), Duration: 90}, DefaultTolerance)
	require.NoError(t, err)
	assert.Equal(t, Differs, res.Verdict)
	require.NotNil(t, res.First())
	assert.Equal(t, Difference{Aspect: "expects", What: "deployment/web .status.availableReplicas == 10", Converge: "holds", Real: "not run"}, *res.First())
	_, err = ReadyDelays(bytes.NewReader(real))
	require.NoError(t, err)
}
