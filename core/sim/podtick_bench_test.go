package sim

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

// cpuTime is the process's CPU time so far (user+sys): the collector's
// background work counts, and other processes on a shared machine do not.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	require.NoError(tb, syscall.Getrusage(syscall.RUSAGE_SELF, &ru))
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// podTicks is what a run of perf-5000 costs, split by its seconds: quiet
// ones (no store write) and busy ones, with the pod-ticks (pods that exist
// at the second's end, summed over the seconds) and the writes.
type podTicks struct {
	quiet, busy           time.Duration
	quietPods, busyPods   int64
	quietTicks, busyTicks int
	writes, events        int64
}

func runPodTicks(b *testing.B, scn perfScenario) podTicks {
	var r podTicks
	s, err := New(rolloutScenario(b, scn.replicas, scn.nodes, scn.seconds), Options{CheckpointEvery: -1})
	require.NoError(b, err)
	for s.T() < int64(scn.seconds) {
		w := s.Store().Writes()
		start := cpuTime(b)
		s.Step(1)
		spent := cpuTime(b) - start
		pods := int64(s.Store().Count(api.KindPod))
		r.events += int64(len(s.Tick().Events))
		if s.Store().Writes() == w {
			r.quiet, r.quietPods, r.quietTicks = r.quiet+spent, r.quietPods+pods, r.quietTicks+1
			continue
		}
		r.busy, r.busyPods, r.busyTicks = r.busy+spent, r.busyPods+pods, r.busyTicks+1
	}
	r.writes = s.Store().Writes()
	return r
}

// BenchmarkPodTick runs perf-5000 (5,000 pods, a rolling update at 10s,
// 600 s) and reports the process's CPU time per pod-tick on its quiet
// seconds (nothing written: what most of a long simulation is) and its busy
// ones, against "floor": a tight loop doing as many store writes of pods
// (the creates, status writes and deletes) and events as the run did, with
// no controller deciding anything. ns/op is the whole run's wall time.
func BenchmarkPodTick(b *testing.B) {
	scn := perfScenarios[1]
	var r podTicks
	b.Run("run", func(b *testing.B) {
		for b.Loop() {
			r = runPodTicks(b, scn)
		}
		b.ReportMetric(float64(r.quiet.Nanoseconds())/float64(max(r.quietPods, 1)), "quiet-ns/pod-tick")
		b.ReportMetric(float64(r.busy.Nanoseconds())/float64(max(r.busyPods, 1)), "busy-ns/pod-tick")
		b.ReportMetric(float64(r.quiet+r.busy)/float64(time.Second), "cpu-s")
		b.ReportMetric(float64(r.quietTicks), "quiet-ticks")
		b.ReportMetric(float64(r.writes), "writes")
		b.ReportMetric(float64(r.events), "events")
	})
	b.Run("floor", func(b *testing.B) {
		if r.writes == 0 {
			b.Skip("needs the run")
		}
		// perf-5000 creates 10,000 pods and removes 5,000 of them.
		creates, removed := int64(2*scn.replicas), int64(scn.replicas)
		statuses := r.writes - creates - removed
		var spent time.Duration
		for b.Loop() {
			spent = storeWriteFloor(b, scn.nodes, creates, removed, statuses, r.events)
		}
		b.ReportMetric(float64(spent)/float64(time.Second), "cpu-s")
		b.ReportMetric(float64(spent.Nanoseconds())/float64(r.writes+r.events), "ns/write")
	})
}

// storeWriteFloor creates pods, writes their status round-robin, records
// events about them and deletes some at once: the store's own cost for a
// run's writes. It returns the CPU time it took.
func storeWriteFloor(b *testing.B, nodes int, creates, removed, statuses, events int64) time.Duration {
	b.StopTimer()
	s := simtest.NewStore()
	names := simtest.Nodes(b, s, nodes, "64", "256Gi", 500)
	b.StartTimer()
	start := cpuTime(b)
	pods := make([]*api.Pod, 0, creates)
	for i := range creates {
		p := simtest.NewPod(fmt.Sprintf("web-%06d", i), simtest.WithPodLabels(map[string]string{"app": "web"}),
			simtest.WithPodNode(names[int(i)%len(names)]))
		created, err := s.Create(p)
		require.NoError(b, err)
		pods = append(pods, created.(*api.Pod))
	}
	for i := range statuses {
		k := int(i) % len(pods)
		x := *pods[k]
		x.ResourceVersion = ""
		x.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue,
			LastTransitionTime: api.NewTime(s.Clock().Now().Add(time.Duration(i) * time.Second))}}
		updated, err := s.UpdateStatus(&x)
		require.NoError(b, err)
		pods[k] = updated.(*api.Pod)
	}
	for i := range events {
		p := pods[int(i)%len(pods)]
		s.RecordEvent(p, "kubelet", p.Spec.NodeName, api.EventTypeNormal, "Pulled", fmt.Sprintf("event %d", i))
	}
	zero := int64(0)
	for _, p := range pods[:removed] {
		require.NoError(b, s.Delete(api.KindPod, p.Namespace, p.Name, store.DeleteOptions{GracePeriodSeconds: &zero}))
	}
	return cpuTime(b) - start
}
