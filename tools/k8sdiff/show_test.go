package k8sdiff

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"testing/synctest"
)

// TestShow prints a generated case and the writes that differ for every
// index K8SDIFF_SHOW lists ("5,12"; seed K8SDIFF_SEED): a debugging aid.
func TestShow(t *testing.T) {
	v := os.Getenv("K8SDIFF_SHOW")
	if v == "" {
		t.Skip("K8SDIFF_SHOW not set")
	}
	seed := uint64(setting("K8SDIFF_SEED", 1))
	for _, s := range strings.Split(v, ",") {
		i, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("K8SDIFF_SHOW: %v", err)
		}
		c := newGen(seed, uint64(i)).singleCase(fmt.Sprintf("seed%d-case%d", seed, i))
		b, _ := json.Marshal(c)
		fmt.Println(string(b))
		synctest.Test(t, func(t *testing.T) {
			r, _, err := compare(c)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range r.Lines() {
				fmt.Println("  " + l)
			}
		})
	}
}

// TestStuckRuns lists the multi-sync runs that did not complete (both sides
// agreeing), for K8SDIFF_STUCK=1: a debugging aid.
func TestStuckRuns(t *testing.T) {
	if os.Getenv("K8SDIFF_STUCK") == "" {
		t.Skip("K8SDIFF_STUCK not set")
	}
	seed := uint64(setting("K8SDIFF_SEED", 1))
	for i := range setting("K8SDIFF_RUNS", 300) {
		synctest.Test(t, func(t *testing.T) {
			g := newGen(seed^0x6d756c7469, uint64(i))
			start := g.multiStart(fmt.Sprintf("seed%d-run%d", seed, i))
			out, err := g.multiRun(start)
			if err != nil {
				t.Fatal(err)
			}
			if !out.complete {
				b, _ := json.Marshal(start)
				fmt.Printf("%s: %d syncs, not complete; start %s\n", start.Name, out.syncs, b)
			}
		})
	}
}
