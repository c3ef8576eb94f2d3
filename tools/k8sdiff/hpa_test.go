package k8sdiff

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"

	"converge/core/k8scase"
)

// TestHPADiff is the HPA half of `make k8sdiff`: the regression cases
// under testdata/hpa/, then K8SDIFF_HPA_CASES (4000) generated cases from
// K8SDIFF_SEED, each a run of syncs of Kubernetes' HorizontalController
// (reconcileAutoscaler: the replica calculator, the normalization with or
// without behavior, conditions, status, events and the scale write) and of
// Converge's, compared sync by sync. K8SDIFF_SAVE=dir writes the smallest
// case of each kind of difference there.
func TestHPADiff(t *testing.T) {
	seed := uint64(setting("K8SDIFF_SEED", 1))
	start := time.Now()
	type job struct {
		group string
		c     *k8scase.HPACase
	}
	var jobs []job
	files, err := filepath.Glob("testdata/hpa/*.json")
	require.NoError(t, err)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		c := &k8scase.HPACase{}
		require.NoError(t, json.Unmarshal(b, c), f)
		if c.Name == "" {
			c.Name = strings.TrimSuffix(filepath.Base(f), ".json")
		}
		jobs = append(jobs, job{"regression", c})
	}
	for i := range setting("K8SDIFF_HPA_CASES", 4000) {
		jobs = append(jobs, job{"generated", newGen(seed^0x687061, uint64(i)).hpaCase(fmt.Sprintf("hpa-seed%d-case%d", seed, i))}) // "hpa"
	}
	for i := range setting("K8SDIFF_HPA_MULTI_CASES", 1000) {
		jobs = append(jobs, job{"multi", newGen(seed^0x6870616d, uint64(i)).hpaMultiCase(fmt.Sprintf("hpa-seed%d-multi%d", seed, i))}) // "hpam"
	}
	var mu sync.Mutex
	counts := map[string][2]int{} // group -> cases, equal
	syncs, renamed := 0, 0
	seen := map[string]int{} // event reasons and condition reasons, for the report
	var diffs []string
	var worst *k8scase.HPACase
	next := make(chan job)
	go func() {
		for _, j := range jobs {
			next <- j
		}
		close(next)
	}()
	t.Run("cases", func(t *testing.T) {
		for w := range runtime.GOMAXPROCS(0) {
			t.Run(fmt.Sprintf("worker%d", w), func(t *testing.T) {
				t.Parallel()
				for j := range next {
					synctest.Test(t, func(t *testing.T) {
						conv, err := k8scase.RunHPA(j.c)
						require.NoError(t, err, j.c.Name)
						kube, err := runKubeHPA(j.c)
						require.NoError(t, err, j.c.Name)
						sortAmbiguous(conv)
						sortAmbiguous(kube)
						a, b := normalizeRequestErrors(conv), normalizeRequestErrors(kube)
						listerOrder := a || b
						d := k8scase.HPADiff(conv, kube)
						mu.Lock()
						defer mu.Unlock()
						if listerOrder {
							renamed++
						}
						for _, o := range kube {
							for _, e := range o.Events {
								seen[e.Reason]++
							}
							for _, c := range o.Status.Conditions {
								seen[c.Type+"="+c.Reason]++
							}
						}
						n := counts[j.group]
						n[0]++
						syncs += len(j.c.Syncs)
						if len(d) == 0 {
							n[1]++
						} else {
							if worst == nil || len(j.c.Pods)+len(j.c.Syncs) < len(worst.Pods)+len(worst.Syncs) {
								worst = j.c
							}
							if len(diffs) < 20 {
								diffs = append(diffs, j.c.Name+": "+strings.Join(d, "; "))
							}
						}
						counts[j.group] = n
					})
				}
			})
		}
	})
	total, equal := 0, 0
	fmt.Printf("\nk8sdiff: Kubernetes v1.35.4 HorizontalController against Converge's, run by run\n")
	for _, g := range []string{"regression", "generated", "multi"} {
		n := counts[g]
		total, equal = total+n[0], equal+n[1]
		label := "hpa " + g + ":"
		if g == "multi" {
			label = "hpa two HPAs, edits, new pods:"
		}
		fmt.Printf("  %-34s %6d runs,  %6d equal\n", label, n[0], n[1])
	}
	fmt.Printf("  hpa total: %d runs (%d syncs), equal: %d, differing: %d (%.1fs)\n", total, syncs, equal, total-equal, time.Since(start).Seconds())
	var reasons []string
	for k, n := range seen {
		reasons = append(reasons, fmt.Sprintf("%s %d", k, n))
	}
	slices.Sort(reasons)
	fmt.Printf("  what the syncs did (events, conditions): %s\n", strings.Join(reasons, ", "))
	if renamed > 0 {
		fmt.Printf("  the pod named by \"missing request for ...\" left out (it depends on the pod lister's order): %d runs\n", renamed)
	}
	for _, d := range diffs {
		fmt.Println("  " + d)
	}
	if worst != nil {
		b, _ := json.Marshal(worst)
		fmt.Printf("  smallest differing case: %s\n", b)
		if dir := os.Getenv("K8SDIFF_SAVE"); dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, worst.Name+".json"), append(b, '\n'), 0o644))
		}
	}
	if equal != total {
		t.Errorf("%d of %d HPA runs differ; see the report above", total-equal, total)
	}
}

// missingRequest is calculateRequests' error; which pod it names depends on
// the order the pod lister (a map) returns the pods in, so the harness
// compares it without the pod.
var missingRequest = regexp.MustCompile(`(missing request for \S+ in container \S+ of Pod) \S+`)

// normalizeRequestErrors rewrites that error in an outcome's conditions and
// events and reports whether there was one.
func normalizeRequestErrors(out []k8scase.HPAOutcome) bool {
	found := false
	fix := func(s string) string {
		if missingRequest.MatchString(s) {
			found = true
			return missingRequest.ReplaceAllString(s, "$1 {pod}")
		}
		return s
	}
	for i := range out {
		for _, o := range []*k8scase.HPAOutcome{&out[i], out[i].Second} {
			if o == nil {
				continue
			}
			for j := range o.Status.Conditions {
				o.Status.Conditions[j].Message = fix(o.Status.Conditions[j].Message)
			}
			for j := range o.Events {
				o.Events[j].Message = fix(o.Events[j].Message)
			}
		}
	}
	return found
}

// ambiguous is validateAndParseSelector's AmbiguousSelector text, whose
// list of HPAs upstream builds from a map (hpasControllingPodsUnderSelector):
// its order is random, so the harness sorts it on both sides (Converge
// prints it sorted).
var ambiguous = regexp.MustCompile(`(controlled by multiple HPAs: \[)([^\]]*)(\])`)

func sortAmbiguous(out []k8scase.HPAOutcome) {
	fix := func(s string) string {
		return ambiguous.ReplaceAllStringFunc(s, func(m string) string {
			p := ambiguous.FindStringSubmatch(m)
			keys := strings.Fields(p[2])
			slices.Sort(keys)
			return p[1] + strings.Join(keys, " ") + p[3]
		})
	}
	for i := range out {
		for _, o := range []*k8scase.HPAOutcome{&out[i], out[i].Second} {
			if o == nil {
				continue
			}
			for j := range o.Status.Conditions {
				o.Status.Conditions[j].Message = fix(o.Status.Conditions[j].Message)
			}
			for j := range o.Events {
				o.Events[j].Message = fix(o.Events[j].Message)
			}
		}
	}
}
