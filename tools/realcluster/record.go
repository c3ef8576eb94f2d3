package realcluster

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"time"
)

// Sample is what the cluster held in the replay's namespace at one moment,
// in the shape of a line of Converge's trace (docs/trace.md): T is the
// second of the scenario (counted from the replay script's start), Wall the
// Unix time in seconds the sample was taken.
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

// SampleOffset is when, within each second of the scenario, the recorder
// takes its sample: Converge's trace line of second N is the state at the
// end of that second (after the steps at N and the controllers' reactions),
// so the sample of second N is taken at origin + N s + SampleOffset.
const SampleOffset = 700 * time.Millisecond

// Record writes a Sample of namespace ns to file for each second of the
// scenario, second N at origin + N s + SampleOffset, until ctx ends. It
// waits for the origin (the replay script's start) on origin; when ctx ends
// first, it writes nothing and returns errNoOrigin.
func (c *Cluster) Record(ctx context.Context, ns string, origin <-chan time.Time, file string) error {
	var t0 time.Time
	select {
	case <-ctx.Done():
		return errNoOrigin
	case t0 = <-origin:
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for n := int64(0); ; n++ {
		at := t0.Add(time.Duration(n)*time.Second + SampleOffset)
		select {
		case <-ctx.Done():
			return w.Flush()
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

var errNoOrigin = fmt.Errorf("the replay script never started its clock (no %q line)", originLine)

// WatchedEvent is one line of the events file WatchEvents writes: a watch
// event on the namespace's core/v1 Events and when it arrived.
type WatchedEvent struct {
	Wall   float64         `json:"wall"`
	Type   string          `json:"type"`
	Object json.RawMessage `json:"object"`
}

// WatchEvents watches namespace ns's Events (core/v1, the API the
// controllers' event recorders write) until ctx ends, and writes each
// watch event to file: every creation and every update of an event, so
// that an event the recorder's correlator updates (its count, or its
// message "(combined from similar events): ...") is seen each time, which
// a list taken at the end cannot show. The watch is restarted from the last
// resourceVersion when the API server closes it.
func (c *Cluster) WatchEvents(ctx context.Context, ns, file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	enc := json.NewEncoder(w)
	client := &http.Client{Transport: c.http.Transport}
	rv := ""
	for ctx.Err() == nil {
		url := c.API + sprintf("/api/v1/namespaces/%s/events?watch=1&allowWatchBookmarks=false", ns)
		if rv != "" {
			url += "&resourceVersion=" + rv
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := client.Do(req)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			select {
			case <-ctx.Done():
			case <-time.After(200 * time.Millisecond):
			}
			continue
		}
		dec := json.NewDecoder(resp.Body)
		for {
			var ev struct {
				Type   string          `json:"type"`
				Object json.RawMessage `json:"object"`
			}
			if err := dec.Decode(&ev); err != nil {
				break
			}
			if ev.Type == "ERROR" {
				// Too old a resourceVersion: start over from now.
				rv = ""
				continue
			}
			var meta struct {
				Metadata struct {
					ResourceVersion string `json:"resourceVersion"`
				} `json:"metadata"`
			}
			if json.Unmarshal(ev.Object, &meta) == nil && meta.Metadata.ResourceVersion != "" {
				rv = meta.Metadata.ResourceVersion
			}
			if err := enc.Encode(WatchedEvent{Wall: float64(time.Now().UnixNano()) / 1e9, Type: ev.Type, Object: ev.Object}); err != nil {
				resp.Body.Close()
				return err
			}
		}
		resp.Body.Close()
	}
	return nil
}

// SaveEvents writes the namespace's events as listed now (a v1 EventList).
func (c *Cluster) SaveEvents(ns, file string) error {
	raw, err := c.GetRaw(sprintf("/api/v1/namespaces/%s/events", ns))
	if err != nil {
		return err
	}
	return os.WriteFile(file, raw, 0o644)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
