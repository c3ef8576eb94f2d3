package poster

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"converge/core/kubectl"
	"converge/core/sim"
)

// The truth harness of the poster (docs/page.md, "The page tells the
// truth"; docs/embedding.md, "Posters"): every library scenario without
// variants, every second, the poster's SVG read back as a reader's
// browser reads it and checked against what kubectl prints at that second.

// drawn is what a poster shows, read from its SVG: its text lines in
// order and its pod tiles (their titles).
type drawn struct {
	texts []string
	tiles []string // "NAME · STATUS[, ready|, available] · ..."
	shape []string // each tile's symbol
	bars  int      // status bars (a column of more than MaxTiles pods)
}

func readSVG(t testing.TB, svg []byte) drawn {
	t.Helper()
	var d drawn
	dec := xml.NewDecoder(strings.NewReader(string(svg)))
	var stack []string
	var title string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		require.NoError(t, err, "the poster is well-formed XML")
		switch tok := tok.(type) {
		case xml.StartElement:
			stack = append(stack, tok.Name.Local)
			if tok.Name.Local == "use" && len(stack) >= 2 && stack[len(stack)-2] == "g" {
				for _, a := range tok.Attr {
					if a.Name.Local == "href" {
						d.tiles = append(d.tiles, title)
						d.shape = append(d.shape, strings.TrimPrefix(a.Value, "#"))
					}
				}
			}
			if tok.Name.Local == "rect" {
				for _, a := range tok.Attr {
					if a.Name.Local == "class" && strings.HasPrefix(a.Value, "f-") {
						d.bars++
					}
				}
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 {
				continue
			}
			switch {
			case stack[len(stack)-1] == "text":
				d.texts = append(d.texts, string(tok))
			case stack[len(stack)-1] == "title" && len(stack) >= 2 && stack[len(stack)-2] == "g":
				title = string(tok)
			}
		}
	}
	return d
}

// kubectlRows is `kubectl get KIND -A` at the current second, by
// NAMESPACE/NAME, each row by column title.
func kubectlRows(t testing.TB, s *sim.Sim, kind string) map[string]map[string]string {
	t.Helper()
	res := kubectl.Run(s.Env(), "get "+kind+" -A")
	require.Empty(t, res.Error, kind)
	lines := strings.Split(res.Output, "\n")
	out := map[string]map[string]string{}
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "NAMESPACE") {
		return out
	}
	head := lines[0]
	var starts []int
	var names []string
	for i := 0; i < len(head); i++ {
		if head[i] != ' ' && (i == 0 || head[i-1] == ' ') {
			starts = append(starts, i)
			names = append(names, strings.Fields(head[i:])[0])
		}
	}
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		row := map[string]string{}
		for k, st := range starts {
			end := len(l)
			if k+1 < len(starts) && starts[k+1] < end {
				end = starts[k+1]
			}
			if st < len(l) {
				row[names[k]] = strings.TrimSpace(l[st:end])
			}
		}
		out[row["NAMESPACE"]+"/"+row["NAME"]] = row
	}
	return out
}

// shapeWords are the symbols each kubectl STATUS may be drawn with: the
// harness's own reading of the page's legend (docs/page.md).
func shapeAgrees(shape, status string) bool {
	letter := strings.TrimPrefix(shape, "cvp-")
	switch {
	case status == "Running, available":
		return letter == "a"
	case status == "Running, ready":
		return letter == "d"
	case status == "Running" || status == "NotReady":
		return letter == "r"
	case status == "Pending" || status == "SchedulingGated":
		return letter == "p"
	case status == "ContainerCreating" || status == "PodInitializing" || strings.HasPrefix(status, "Init:"):
		return letter == "h"
	case status == "Terminating":
		return letter == "t"
	case status == "Completed":
		return letter == "o"
	case status == "CrashLoopBackOff":
		return letter == "x"
	case status == "ImagePullBackOff" || status == "ErrImagePull" || status == "InvalidImageName":
		return letter == "w"
	case status == "Evicted":
		return letter == "v"
	case status == "Unknown" || status == "Failed" || status == "Succeeded":
		return letter == "n"
	}
	return letter == "e" // Error, OOMKilled, ExitCode:N, Signal:N ...
}

// posterProblems checks the poster of s now against kubectl: one line
// per contradiction.
func posterProblems(t testing.TB, s *sim.Sim, name string) []string {
	t.Helper()
	var out []string
	bad := func(format string, args ...any) {
		out = append(out, fmt.Sprintf("%ds: ", s.T())+fmt.Sprintf(format, args...))
	}
	d := readSVG(t, SVG(s, Options{Title: name}))
	pods, rss, deps := kubectlRows(t, s, "pods"), kubectlRows(t, s, "replicasets"), kubectlRows(t, s, "deployments")
	ns := "default"
	if len(deps) == 0 {
		if len(d.tiles) > 0 {
			bad("no Deployment, but %d tiles", len(d.tiles))
		}
		return out
	}
	// The Deployment: its name, then its summary.
	var dep map[string]string
	for i, text := range d.texts {
		if rest, ok := strings.CutPrefix(text, "deployment/"); ok {
			depName := strings.Fields(rest)[0]
			for key, row := range deps {
				if row["NAME"] == depName {
					dep, ns = row, strings.SplitN(key, "/", 2)[0]
				}
			}
			if dep == nil {
				bad("deployment/%s is drawn, kubectl get deploy has no such Deployment", depName)
				return out
			}
			badge := d.texts[i-1]
			ready := strings.SplitN(dep["READY"], "/", 2)
			if badge == "IN SYNC" && (ready[0] != ready[1] || dep["UP-TO-DATE"] != ready[1] || dep["AVAILABLE"] != ready[1]) {
				bad("badge IN SYNC while kubectl get deploy says READY %s UP-TO-DATE %s AVAILABLE %s", dep["READY"], dep["UP-TO-DATE"], dep["AVAILABLE"])
			}
			found := false
			for _, tx := range d.texts[i:] {
				if strings.Contains(tx, " desired · ") && strings.Contains(tx, " updated · ") {
					found = true
					want := fmt.Sprintf("%s desired · ", ready[1])
					parts := strings.Split(tx, " · ")
					if !strings.HasPrefix(tx, want) || len(parts) != 5 || parts[2] != dep["UP-TO-DATE"]+" updated" ||
						parts[3] != ready[0]+" ready" || parts[4] != dep["AVAILABLE"]+" available" {
						bad("summary %q, kubectl get deploy says READY %s UP-TO-DATE %s AVAILABLE %s", tx, dep["READY"], dep["UP-TO-DATE"], dep["AVAILABLE"])
					}
					break
				}
			}
			if !found {
				bad("no summary drawn")
			}
			break
		}
	}
	if dep == nil {
		bad("no Deployment drawn, kubectl lists %d", len(deps))
		return out
	}
	// The ReplicaSets: a head line ("new · NAME · ...") and its counts.
	drawnRS := map[string]bool{}
	for i, text := range d.texts {
		role, rest, _ := strings.Cut(text, " · ")
		if (role != "new" && role != "old") || i+1 >= len(d.texts) {
			continue
		}
		rsName := strings.SplitN(rest, " · ", 2)[0]
		drawnRS[rsName] = true
		row, ok := rss[ns+"/"+rsName]
		if !ok {
			bad("ReplicaSet %s is drawn, kubectl get rs has no such ReplicaSet", rsName)
			continue
		}
		if want := row["DESIRED"] + " desired · " + row["READY"] + " ready · "; !strings.HasPrefix(d.texts[i+1], want) {
			bad("ReplicaSet %s: %q, kubectl get rs says DESIRED %s READY %s", rsName, d.texts[i+1], row["DESIRED"], row["READY"])
		}
	}
	// The pods: each tile is a pod kubectl lists, with its STATUS and a
	// shape that agrees; every pod of a drawn ReplicaSet is drawn.
	seen := map[string]bool{}
	for i, title := range d.tiles {
		parts := strings.Split(title, " · ")
		podName, status := parts[0], parts[1]
		seen[podName] = true
		row, ok := pods[ns+"/"+podName]
		if !ok {
			bad("pod %s is drawn, kubectl get pods has no such pod", podName)
			continue
		}
		word, split, _ := strings.Cut(status, ", ")
		if word != row["STATUS"] {
			bad("pod %s is drawn %q, kubectl says %s", podName, status, row["STATUS"])
		}
		ready := strings.SplitN(row["READY"], "/", 2)
		if (split == "ready" || split == "available") && ready[0] != ready[1] {
			bad("pod %s is drawn %q, kubectl says READY %s", podName, status, row["READY"])
		}
		if !shapeAgrees(d.shape[i], status) {
			bad("pod %s (%s) is drawn as %s", podName, status, d.shape[i])
		}
	}
	if d.bars == 0 {
		for key, row := range pods {
			podNS, podName, _ := strings.Cut(key, "/")
			if podNS != ns || seen[podName] {
				continue
			}
			if i := strings.LastIndexByte(podName, '-'); i > 0 && drawnRS[podName[:i]] {
				bad("pod %s (%s) of ReplicaSet %s is not drawn", podName, row["STATUS"], podName[:i])
			}
		}
	}
	return out
}

func TestPosterTellsKubectlsTruthEverySecond(t *testing.T) {
	t.Parallel()
	names := Builtins()
	require.Greater(t, len(names), 30)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			scn, err := Scenario(name)
			require.NoError(t, err)
			s, err := sim.New(scn, sim.Options{CheckpointEvery: -1})
			require.NoError(t, err)
			end := int64(scn.Duration.Seconds())
			var problems []string
			for sec := int64(0); sec <= end; sec++ {
				if sec > 0 {
					s.Step(1)
				}
				problems = append(problems, posterProblems(t, s, name)...)
			}
			if len(problems) > 12 {
				problems = append(problems[:12], fmt.Sprintf("... and %d more", len(problems)-12))
			}
			assert.Empty(t, problems, "%s", strings.Join(problems, "\n"))
		})
	}
}
