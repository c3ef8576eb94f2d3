package realcluster

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Sample is what the cluster held in the replay's namespace at one moment,
// in the shape of a line of Converge's trace (docs/trace.md): T is the
// second since the replay's start, Wall the Unix time in seconds.
type Sample struct {
	T                        int64             `json:"t"`
	Wall                     float64           `json:"wall"`
	Deployments              []json.RawMessage `json:"deployments"`
	ReplicaSets              []json.RawMessage `json:"replicaSets"`
	Pods                     []json.RawMessage `json:"pods"`
	HorizontalPodAutoscalers []json.RawMessage `json:"horizontalPodAutoscalers,omitempty"`
	PodDisruptionBudgets     []json.RawMessage `json:"podDisruptionBudgets,omitempty"`
}

// recorded are the namespace's collections a sample holds.
var recorded = []struct {
	path string
	set  func(*Sample, []json.RawMessage)
}{
	{"/apis/apps/v1/namespaces/%s/deployments", func(s *Sample, v []json.RawMessage) { s.Deployments = v }},
	{"/apis/apps/v1/namespaces/%s/replicasets", func(s *Sample, v []json.RawMessage) { s.ReplicaSets = v }},
	{"/api/v1/namespaces/%s/pods", func(s *Sample, v []json.RawMessage) { s.Pods = v }},
	{"/apis/autoscaling/v2/namespaces/%s/horizontalpodautoscalers", func(s *Sample, v []json.RawMessage) { s.HorizontalPodAutoscalers = v }},
	{"/apis/policy/v1/namespaces/%s/poddisruptionbudgets", func(s *Sample, v []json.RawMessage) { s.PodDisruptionBudgets = v }},
}

// Record writes a Sample of namespace ns to file once a second, each at
// start + N seconds, until ctx ends; then the namespace's events to
// eventsFile.
func (c *Cluster) Record(ctx context.Context, ns string, start time.Time, file, eventsFile string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for n := int64(0); ; n++ {
		at := start.Add(time.Duration(n) * time.Second)
		select {
		case <-ctx.Done():
			if err := w.Flush(); err != nil {
				return err
			}
			return c.saveEvents(ns, eventsFile)
		case <-time.After(time.Until(at)):
		}
		s := Sample{T: n, Wall: float64(time.Now().UnixNano()) / 1e9}
		for _, r := range recorded {
			var list struct {
				Items []json.RawMessage `json:"items"`
			}
			if err := c.get(c.API+sprintf(r.path, ns), &list); err == nil {
				r.set(&s, list.Items)
			}
		}
		if err := enc.Encode(s); err != nil {
			return err
		}
	}
}

func (c *Cluster) saveEvents(ns, file string) error {
	raw, err := c.GetRaw(sprintf("/api/v1/namespaces/%s/events", ns))
	if err != nil {
		return err
	}
	return os.WriteFile(file, raw, 0o644)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
