package kubectl

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/api"
	"converge/core/simtest"
	"converge/core/store"
)

func TestDelete(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		steps []step
		check func(t *testing.T, f *fixture)
	}{
		{"a pod, gracefully", []step{{"delete pod web-66b6c48dd5-4jw2m", `pod "web-66b6c48dd5-4jw2m" deleted from default namespace`, ""}},
			func(t *testing.T, f *fixture) {
				p, err := f.st.GetPod("default", "web-66b6c48dd5-4jw2m")
				require.NoError(t, err)
				require.NotNil(t, p.DeletionTimestamp)
				assert.Equal(t, int64(30), *p.DeletionGracePeriodSeconds)
			}},
		{"grace period", []step{{"delete po/web-66b6c48dd5-4jw2m --grace-period=5", `pod "web-66b6c48dd5-4jw2m" deleted from default namespace`, ""}},
			func(t *testing.T, f *fixture) {
				p, _ := f.st.GetPod("default", "web-66b6c48dd5-4jw2m")
				assert.Equal(t, int64(5), *p.DeletionGracePeriodSeconds)
			}},
		{"grace period 0 means 1 without --force", []step{{"delete pod web-66b6c48dd5-4jw2m --grace-period=0", `pod "web-66b6c48dd5-4jw2m" deleted from default namespace`, ""}},
			func(t *testing.T, f *fixture) {
				p, _ := f.st.GetPod("default", "web-66b6c48dd5-4jw2m")
				assert.Equal(t, int64(1), *p.DeletionGracePeriodSeconds)
			}},
		{"now", []step{{"delete pod web-66b6c48dd5-4jw2m --now", `pod "web-66b6c48dd5-4jw2m" deleted from default namespace`, ""}},
			func(t *testing.T, f *fixture) {
				p, _ := f.st.GetPod("default", "web-66b6c48dd5-4jw2m")
				assert.Equal(t, int64(1), *p.DeletionGracePeriodSeconds)
			}},
		{"force", []step{{"delete pod web-66b6c48dd5-4jw2m --force", "Warning: " + msgDeleteForceWarning +
			"\npod \"web-66b6c48dd5-4jw2m\" force deleted from default namespace", ""}},
			func(t *testing.T, f *fixture) {
				_, err := f.st.GetPod("default", "web-66b6c48dd5-4jw2m")
				assert.True(t, isNotFound(err))
			}},
		{"force with grace", []step{{"delete pod x --force --grace-period=3", "", "error: " + msgDeleteForceGrace}}, nil},
		{"now with grace", []step{{"delete pod x --now --grace-period=3", "", "error: " + msgDeleteNowGrace}}, nil},
		{"by selector", []step{{"delete pod -l app=web", `pod "web-66b6c48dd5-4jw2m" deleted from default namespace` + "\n" +
			`pod "web-66b6c48dd5-8xk2p" deleted from default namespace` + "\n" + `pod "web-66b6c48dd5-tz7qw" deleted from default namespace`, ""}}, nil},
		{"selector matching nothing", []step{{"delete pods -l app=none", "No resources found", ""}}, nil},
		{"all and selector", []step{{"delete pods --all -l a=b", "", "error: " + msgDeleteAllSelector}}, nil},
		{"type without name", []step{{"delete pods", "", "error: " + msgNoNameSpecified}}, nil},
		{"not found", []step{{"delete deployment nope", "", `Error from server (NotFound): deployments.apps "nope" not found`}}, nil},
		{"not found ignored", []step{{"delete deployment nope --ignore-not-found", "No resources found", ""}}, nil},
		{"several names", []step{{"delete cm settings nope", `configmap "settings" deleted from default namespace`,
			`Error from server (NotFound): configmaps "nope" not found`}}, nil},
		{"a deployment orphaning its replica sets", []step{{"delete deployment web --cascade=orphan", `deployment.apps "web" deleted from default namespace`, ""}},
			func(t *testing.T, f *fixture) {
				rs, err := f.st.GetReplicaSet("default", "web-66b6c48dd5")
				require.NoError(t, err)
				assert.Empty(t, rs.OwnerReferences)
			}},
		{"cascade foreground", []step{{"delete deploy/web --cascade=foreground", `deployment.apps "web" deleted from default namespace`, ""}},
			func(t *testing.T, f *fixture) {
				rs, _ := f.st.GetReplicaSet("default", "web-66b6c48dd5")
				assert.NotEmpty(t, rs.OwnerReferences, "the garbage collector deletes dependents later")
			}},
		{"deprecated cascade", []step{{"delete deploy/web --cascade=false", "warning: --cascade=false is deprecated (boolean value) and can be replaced with --cascade=orphan.\n" +
			`deployment.apps "web" deleted from default namespace`, ""}}, nil},
		{"bad cascade", []step{{"delete deploy/web --cascade=sideways", "", `error: invalid cascade value (sideways). Must be "background", "foreground", or "orphan"`}}, nil},
		{"name output", []step{{"delete svc web -o name", "service/web", ""}}, nil},
		{"bad output", []step{{"delete svc web -o yaml", "", "error: unexpected -o output mode: yaml. We only support '-o name'"}}, nil},
		{"a node", []step{{"delete node node-2", `node "node-2" deleted`, ""}}, nil},
		{"a node in a namespace warns", []step{{"delete node node-2 -n default", "Warning: " + msgDeleteClusterScoped + "\n" + `node "node-2" deleted`, ""}}, nil},
		{"dry run", []step{{"delete pod web-66b6c48dd5-4jw2m --dry-run=client", `pod "web-66b6c48dd5-4jw2m" deleted (dry run) from default namespace`, ""}},
			func(t *testing.T, f *fixture) {
				p, _ := f.st.GetPod("default", "web-66b6c48dd5-4jw2m")
				assert.Nil(t, p.DeletionTimestamp)
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			runSteps(t, f, tc.steps)
			if tc.check != nil {
				tc.check(t, f)
			}
		})
	}
}

func TestCordonUncordon(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	runSteps(t, f, []step{
		{"cordon node-1", "node/node-1 cordoned", ""},
		{"cordon node/node-1", "node/node-1 already cordoned", ""},
		{"uncordon node-1", "node/node-1 uncordoned", ""},
		{"uncordon node-1", "node/node-1 already uncordoned", ""},
		{"cordon -l kubernetes.io/os=linux", "node/node-1 cordoned\nnode/node-2 cordoned", ""},
		{"cordon", "", "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples"},
		{"cordon node-1 -l a=b", "", "error: cannot specify both a node name and a --selector option\nSee 'kubectl cordon -h' for help and examples"},
		{"cordon node-9", "", `Error from server (NotFound): nodes "node-9" not found`},
		{"cordon pod/x", "", `error: expected resource of type node, got "pods"`},
		{"uncordon node-2 --dry-run=server", "node/node-2 uncordoned (server dry run)", ""},
	})
	n, _ := f.st.GetNode("node-2")
	assert.True(t, n.Spec.Unschedulable)
}

func TestDrain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		setup func(t *testing.T, f *fixture)
		line  string
		out   string
		err   string
		gone  []string // pods left terminating
	}{
		{"evicts the node's pods", nil, "drain node-1",
			"node/node-1 cordoned\nevicting pod default/web-66b6c48dd5-4jw2m\nevicting pod default/web-66b6c48dd5-tz7qw", "",
			[]string{"web-66b6c48dd5-4jw2m", "web-66b6c48dd5-tz7qw"}},
		{"bare pod needs force", bare, "drain node-1", "node/node-1 cordoned",
			"error: unable to drain node \"node-1\" due to error: cannot delete Pods that declare no controller (use --force to override): default/bare, continuing command...\n" +
				"There are pending nodes to be drained:\n node-1\ncannot delete Pods that declare no controller (use --force to override): default/bare", nil},
		{"force", bare, "drain node-1 --force --ignore-daemonsets",
			"node/node-1 cordoned\nWarning: deleting Pods that declare no controller: default/bare\nevicting pod default/bare\n" +
				"evicting pod default/web-66b6c48dd5-4jw2m\nevicting pod default/web-66b6c48dd5-tz7qw", "",
			[]string{"bare", "web-66b6c48dd5-4jw2m"}},
		{"local storage", emptyDir, "drain node-1",
			"node/node-1 cordoned", "error: unable to drain node \"node-1\" due to error: cannot delete Pods with local storage (use --delete-emptydir-data to override): default/scratch, continuing command...\n" +
				"There are pending nodes to be drained:\n node-1\ncannot delete Pods with local storage (use --delete-emptydir-data to override): default/scratch", nil},
		{"local storage allowed", emptyDir, "drain node-1 --delete-emptydir-data --pod-selector=app=scratch",
			"node/node-1 cordoned\nWarning: deleting Pods with local storage: default/scratch\nevicting pod default/scratch", "",
			[]string{"scratch"}},
		{"two problems", func(t *testing.T, f *fixture) { bare(t, f); emptyDir(t, f) }, "drain node-1",
			"node/node-1 cordoned", "error: unable to drain node \"node-1\" due to error: [cannot delete Pods that declare no controller (use --force to override): default/bare, " +
				"cannot delete Pods with local storage (use --delete-emptydir-data to override): default/scratch], continuing command...\n" +
				"There are pending nodes to be drained:\n node-1\ncannot delete Pods that declare no controller (use --force to override): default/bare\n" +
				"cannot delete Pods with local storage (use --delete-emptydir-data to override): default/scratch", nil},
		{"finished and mirror pods", func(t *testing.T, f *fixture) {
			done := simtest.NewPod("done", simtest.WithPodNode("node-1"), simtest.WithPodPhase(api.PodSucceeded))
			simtest.MustCreate(t, f.st, done)
			f.editPod(t, "done", func(p *api.Pod) { p.Status.Phase = api.PodSucceeded })
			simtest.MustCreate(t, f.st, simtest.NewPod("mirror", simtest.WithPodNode("node-1"),
				simtest.WithPodAnnotations(map[string]string{"kubernetes.io/config.mirror": "x"})))
		}, "drain node-1 --disable-eviction --grace-period=0",
			"node/node-1 cordoned\npod/done deleted\npod/web-66b6c48dd5-4jw2m deleted\npod/web-66b6c48dd5-tz7qw deleted\nnode/node-1 drained", "", nil},
		{"dry run", bare, "drain node-1 --force --dry-run=client",
			"node/node-1 cordoned (dry run)\nWarning: deleting Pods that declare no controller: default/bare\nevicting pod default/bare (dry run)\n" +
				"evicting pod default/web-66b6c48dd5-4jw2m (dry run)\nevicting pod default/web-66b6c48dd5-tz7qw (dry run)\nnode/node-1 drained (dry run)", "", nil},
		{"a disruption budget allows one of two", budget(2, 3, 1), "drain node-1",
			"node/node-1 cordoned\nevicting pod default/web-66b6c48dd5-4jw2m\nevicting pod default/web-66b6c48dd5-tz7qw\n" +
				`error when evicting pods/"web-66b6c48dd5-tz7qw" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
			"", []string{"web-66b6c48dd5-4jw2m"}},
		{"a disruption budget allows both", budget(1, 3, 2), "drain node-1",
			"node/node-1 cordoned\nevicting pod default/web-66b6c48dd5-4jw2m\nevicting pod default/web-66b6c48dd5-tz7qw", "",
			[]string{"web-66b6c48dd5-4jw2m", "web-66b6c48dd5-tz7qw"}},
		{"--disable-eviction bypasses the budget", budget(3, 3, 0), "drain node-1 --disable-eviction",
			"node/node-1 cordoned", "", []string{"web-66b6c48dd5-4jw2m"}},
		{"server dry run", budget(1, 3, 2), "drain node-1 --dry-run=server",
			"node/node-1 cordoned (server dry run)\nevicting pod default/web-66b6c48dd5-4jw2m (server dry run)\nevicting pod default/web-66b6c48dd5-tz7qw (server dry run)\nnode/node-1 drained (server dry run)", "", nil},
		{"no node", nil, "drain", "", "error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples", nil},
		{"bad pod selector", nil, "drain node-1 --pod-selector='a b'", "", "error: " + msgPodSelectorInvalid, nil},
		{"daemon set pods", func(t *testing.T, f *fixture) {
			simtest.MustCreate(t, f.st, simtest.NewPod("ds", simtest.WithPodNode("node-1"), simtest.WithPodOwnerRef(api.OwnerReference{
				APIVersion: "apps/v1", Kind: "DaemonSet", Name: "agent", UID: "u", Controller: api.Bool(true)})))
		}, "drain node-1", "node/node-1 cordoned",
			"error: unable to drain node \"node-1\" due to error: cannot delete daemonsets.apps \"agent\" not found: default/ds, continuing command...\n" +
				"There are pending nodes to be drained:\n node-1\ncannot delete daemonsets.apps \"agent\" not found: default/ds", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newFixture(t)
			if tc.setup != nil {
				tc.setup(t, f)
			}
			r := f.run(tc.line)
			assert.Equal(t, tc.out, r.Output)
			assert.Equal(t, tc.err, r.Error)
			for _, name := range tc.gone {
				p, err := f.st.GetPod("default", name)
				require.NoError(t, err)
				assert.NotNil(t, p.DeletionTimestamp, name)
			}
		})
	}
}

// budget adds PodDisruptionBudget web (minAvailable, selecting app=web)
// with the status the disruption controller would write for the
// fixture's three Ready pods.
func budget(minAvailable, healthy, allowed int32) func(t *testing.T, f *fixture) {
	return func(t *testing.T, f *fixture) {
		b := simtest.MustCreate(t, f.st, simtest.NewPDB("web", map[string]string{"app": "web"}, strconv.Itoa(int(minAvailable)), ""))
		next := b.DeepCopy()
		next.Status = api.PodDisruptionBudgetStatus{ObservedGeneration: 1, DisruptionsAllowed: allowed, CurrentHealthy: healthy,
			DesiredHealthy: minAvailable, ExpectedPods: 3}
		_, err := f.st.UpdateStatus(next)
		require.NoError(t, err)
	}
}

// bare adds a pod without a controller on node-1.
func bare(t *testing.T, f *fixture) {
	simtest.MustCreate(t, f.st, simtest.NewPod("bare", simtest.WithPodNode("node-1"), simtest.WithPodPhase(api.PodRunning)))
}

// emptyDir adds a ReplicaSet-owned pod with an emptyDir volume on node-1.
func emptyDir(t *testing.T, f *fixture) {
	rs, err := f.st.GetReplicaSet("default", "web-66b6c48dd5")
	require.NoError(t, err)
	simtest.MustCreate(t, f.st, simtest.NewPod("scratch", simtest.WithPodNode("node-1"), simtest.WithPodOwner(rs),
		simtest.WithPodLabels(map[string]string{"app": "scratch"}), func(p *api.Pod) { p.Spec.Volumes = api.Raw(`[{"name":"tmp","emptyDir":{}}]`) }))
}

// gone finishes a terminating pod's deletion, as its kubelet would once
// its containers stopped.
func gone(t *testing.T, f *fixture, name string) {
	t.Helper()
	zero := int64(0)
	require.NoError(t, f.st.Delete(api.KindPod, "default", name, store.DeleteOptions{GracePeriodSeconds: &zero}))
}

// allow sets budget web's disruptionsAllowed, as the disruption controller
// does once the replacements are Ready.
func allow(t *testing.T, f *fixture, n int32) {
	t.Helper()
	b, err := f.st.Get(api.KindPodDisruptionBudget, "default", "web")
	require.NoError(t, err)
	next := b.(*api.PodDisruptionBudget).DeepCopy()
	next.Status.DisruptionsAllowed = n
	_, err = f.st.UpdateStatus(next)
	require.NoError(t, err)
}

// TestDrainWaits: drain goes on as kubectl's does (drain.go evictPods and
// waitForDelete): an evicted pod is "evicted" once it is gone, a refused
// eviction is announced and tried again every 5 seconds, and the node is
// "drained" when all its pods are; --timeout ends the evictions and waits
// with kubectl's errors.
func TestDrainWaits(t *testing.T) {
	t.Parallel()
	const (
		a = "web-66b6c48dd5-4jw2m"
		b = "web-66b6c48dd5-tz7qw"
	)
	refused := `error when evicting pods/"` + b + `" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`
	t.Run("a budget paces the evictions", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		budget(2, 3, 1)(t, f)
		r := f.run("drain node-1")
		require.True(t, r.OK(), r.Error)
		require.NotNil(t, r.Wait)
		assert.True(t, strings.HasSuffix(r.Output, refused), r.Output)
		out, p := polls(t, f, r.Wait, 20, func(sec int) {
			switch sec {
			case 2:
				gone(t, f, a)
			case 3:
				allow(t, f, 1)
			case 6:
				gone(t, f, b)
			}
		})
		assert.Equal(t, []string{"", "pod/" + a + " evicted", "", "", "evicting pod default/" + b, "pod/" + b + " evicted\nnode/node-1 drained"}, out,
			"the retry 5 s after the refusal; each pod reported once gone")
		assert.True(t, p.Done)
		assert.Empty(t, p.Error)
	})
	t.Run("a budget that never allows: --timeout", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		budget(3, 3, 0)(t, f)
		r := f.run("drain node-1 --timeout=12s")
		require.True(t, r.OK(), r.Error)
		require.NotNil(t, r.Wait)
		out, p := polls(t, f, r.Wait, 30, nil)
		retryA := `error when evicting pods/"` + a + `" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`
		assert.Equal(t, []string{"", "", "", "", "evicting pod default/" + a + "\n" + retryA + "\nevicting pod default/" + b + "\n" + refused,
			"", "", "", "", "evicting pod default/" + a + "\n" + retryA + "\nevicting pod default/" + b + "\n" + refused,
			"", "", "", "", "evicting pod default/" + a + "\nevicting pod default/" + b}, out)
		require.True(t, p.Done)
		timeout := func(pod string) string {
			return `error when evicting pods/"` + pod + `" -n "default": global timeout reached: 12s`
		}
		assert.Equal(t, `There are pending pods in node "node-1" when an error occurred: [`+timeout(a)+`, `+timeout(b)+`]`+"\npod/"+a+"\npod/"+b+"\n"+
			`error: unable to drain node "node-1" due to error: [`+timeout(a)+`, `+timeout(b)+`], continuing command...`+"\n"+
			"There are pending nodes to be drained:\n node-1\n"+timeout(a)+"\n"+timeout(b), p.Error)
	})
	t.Run("deleted pods are waited for too", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		r := f.run("drain node-1 --disable-eviction")
		require.True(t, r.OK(), r.Error)
		assert.Equal(t, "node/node-1 cordoned", r.Output)
		require.NotNil(t, r.Wait)
		out, p := polls(t, f, r.Wait, 5, func(sec int) {
			if sec == 1 {
				gone(t, f, a)
				gone(t, f, b)
			}
		})
		assert.Equal(t, []string{"pod/" + a + " deleted\npod/" + b + " deleted\nnode/node-1 drained"}, out)
		assert.True(t, p.Done)
		assert.Empty(t, p.Error)
	})
	t.Run("a pod that stays: the wait's timeout", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		r := f.run("drain node-1 --timeout=3s")
		require.True(t, r.OK(), r.Error)
		_, p := polls(t, f, r.Wait, 10, nil)
		require.True(t, p.Done)
		assert.Contains(t, p.Error, `error when waiting for pod "`+a+`" in namespace "default" to terminate: context deadline exceeded`)
		assert.Contains(t, p.Error, "There are pending nodes to be drained:\n node-1")
	})
	t.Run("the clone goes on alone", func(t *testing.T) {
		t.Parallel()
		f := newFixture(t)
		r := f.run("drain node-1")
		require.NotNil(t, r.Wait)
		c := r.Wait.Clone()
		gone(t, f, a)
		gone(t, f, b)
		assert.Equal(t, "pod/"+a+" evicted\npod/"+b+" evicted\nnode/node-1 drained", r.Wait.Poll(f.env).Output)
		assert.Equal(t, "pod/"+a+" evicted\npod/"+b+" evicted\nnode/node-1 drained", c.Poll(f.env).Output, "the clone had not printed them")
	})
}
