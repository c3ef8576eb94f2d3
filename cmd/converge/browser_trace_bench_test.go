package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// traceEvent is one event of a Chromium trace (the JSON trace format):
// complete events ("X") have a duration; begin and end events ("B", "E")
// are paired by the reader.
type traceEvent struct {
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	Pid  int             `json:"pid"`
	Tid  int             `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// traceCategories are what the summary needs: the renderer's tasks, the
// scripts they ran, V8's compile and wasm work, blink's style, layout and
// paint.
var traceCategories = []string{"toplevel", "devtools.timeline", "v8", "v8.wasm", "v8.execute", "blink", "blink.user_timing", "loading",
	"disabled-by-default-devtools.timeline", "disabled-by-default-v8.compile", "disabled-by-default-v8.wasm.detailed"}

// traced records a Chromium trace of the tab while act runs.
func traced(b *testing.B, p *page, act func()) []traceEvent {
	b.Helper()
	var (
		mu     sync.Mutex
		events []traceEvent
		done   = make(chan struct{})
	)
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	go func() {
		for ev, err := range chromedp.Events(ctx, tracing.DataCollected) {
			if err != nil {
				return
			}
			mu.Lock()
			for _, v := range ev.Value {
				var e traceEvent
				if json.Unmarshal(v, &e) == nil {
					events = append(events, e)
				}
			}
			mu.Unlock()
		}
	}()
	go func() {
		for _, err := range chromedp.Events(ctx, tracing.TracingComplete) {
			if err == nil {
				close(done)
			}
			return
		}
	}()
	tctx, tcancel := context.WithTimeout(p.ctx, pageTimeout)
	defer tcancel()
	require.NoError(b, chromedp.Do(tctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.Start, tracing.StartParams{TransferMode: tracing.StartTransferModeReportEvents,
			TraceConfig: &tracing.TraceConfig{IncludedCategories: traceCategories}})
		return err
	})), "starting the trace")
	act()
	require.NoError(b, chromedp.Do(tctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, tracing.End, cdp.Empty{})
		return err
	})), "ending the trace")
	select {
	case <-done:
	case <-tctx.Done():
		b.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(events)
}

// longestTaskSummary finds the longest task of a renderer's main thread in
// the trace and says what it spent its time on: the events inside it, by
// name, with their total and self times (a nested event's time is counted
// under its own name, not under its parent's self time).
func longestTaskSummary(events []traceEvent) string {
	main := map[[2]int]bool{}
	for _, e := range events {
		if e.Ph == "M" && e.Name == "thread_name" && strings.Contains(string(e.Args), "CrRendererMain") {
			main[[2]int{e.Pid, e.Tid}] = true
		}
	}
	// Pair B and E events into complete ones, per thread.
	type key = [2]int
	open := map[key][]traceEvent{}
	var spans []traceEvent
	for _, e := range events {
		k := key{e.Pid, e.Tid}
		if !main[k] {
			continue
		}
		switch e.Ph {
		case "X":
			spans = append(spans, e)
		case "B":
			open[k] = append(open[k], e)
		case "E":
			if s := open[k]; len(s) > 0 {
				begin := s[len(s)-1]
				open[k] = s[:len(s)-1]
				begin.Dur = e.Ts - begin.Ts
				begin.Ph = "X"
				spans = append(spans, begin)
			}
		}
	}
	var task traceEvent
	for _, e := range spans {
		if (e.Name == "RunTask" || e.Name == "ThreadControllerImpl::RunTask") && e.Dur > task.Dur {
			task = e
		}
	}
	if task.Dur == 0 {
		return "no task on a renderer's main thread"
	}
	var inside []traceEvent
	for _, e := range spans {
		if e.Pid == task.Pid && e.Tid == task.Tid && e.Ts >= task.Ts && e.Ts+e.Dur <= task.Ts+task.Dur && !(e.Ts == task.Ts && e.Dur == task.Dur && e.Name == task.Name) {
			inside = append(inside, e)
		}
	}
	slices.SortFunc(inside, func(a, b traceEvent) int { return cmp.Or(cmp.Compare(a.Ts, b.Ts), cmp.Compare(b.Dur, a.Dur)) })
	type tally struct {
		name        string
		total, self float64
		count       int
	}
	byName := map[string]*tally{}
	// Self time: a span's duration less its direct children's.
	var stack []traceEvent
	self := make([]float64, len(inside))
	var stackIdx []int
	for i, e := range inside {
		for len(stack) > 0 && e.Ts >= stack[len(stack)-1].Ts+stack[len(stack)-1].Dur {
			stack, stackIdx = stack[:len(stack)-1], stackIdx[:len(stackIdx)-1]
		}
		self[i] = e.Dur
		if len(stack) > 0 {
			self[stackIdx[len(stackIdx)-1]] -= e.Dur
		}
		stack, stackIdx = append(stack, e), append(stackIdx, i)
	}
	for i, e := range inside {
		name := e.Name
		if e.Name == "FunctionCall" || e.Name == "EvaluateScript" || e.Name == "v8.callFunction" {
			var a struct {
				Data struct {
					FunctionName string `json:"functionName"`
					URL          string `json:"url"`
				} `json:"data"`
			}
			if json.Unmarshal(e.Args, &a) == nil && (a.Data.FunctionName != "" || a.Data.URL != "") {
				u := a.Data.URL[strings.LastIndexByte(a.Data.URL, '/')+1:]
				name += " " + a.Data.FunctionName + " (" + u + ")"
			}
		}
		t := byName[name]
		if t == nil {
			t = &tally{name: name}
			byName[name] = t
		}
		t.total += e.Dur
		t.self += self[i]
		t.count++
	}
	all := make([]*tally, 0, len(byName))
	var selfSum float64
	for _, t := range byName {
		all = append(all, t)
		selfSum += t.self
	}
	slices.SortFunc(all, func(a, b *tally) int { return cmp.Compare(b.self, a.self) })
	var sb strings.Builder
	fmt.Fprintf(&sb, "longest task %.0f ms; self time by event (ms, total in brackets):", task.Dur/1000)
	for _, t := range all[:min(len(all), 12)] {
		fmt.Fprintf(&sb, " %s ×%d %.0f [%.0f];", t.name, t.count, t.self/1000, t.total/1000)
	}
	fmt.Fprintf(&sb, " in no event %.0f", (task.Dur-selfSum)/1000)
	return sb.String()
}

// BenchmarkBrowserEmbedTrace records a Chromium trace while one demo of a
// docs page of another origin boots from `converge serve` on loopback (as
// BenchmarkBrowserEmbedLongestTask's loopback/1), cold and warm, and logs
// what the longest main-thread task spent its time on: the profile behind
// the longest-task figures of docs/performance.md.
//
//	go test -run '^$' -bench BrowserEmbedTrace -benchtime 3x ./cmd/converge
func BenchmarkBrowserEmbedTrace(b *testing.B) {
	page := docsSite(b, embedHosts[0].url(b), `<div class="spacer">Scroll down.</div><converge-sim scenario="rolling-update" t="30"></converge-sim>`)
	const waiting = `[...document.querySelectorAll("converge-sim")].every((e) => e.shadowRoot?.querySelector(".cv-wait-btn") != null) && document.readyState === "complete"`
	for b.Loop() {
		p := openPageSetup(b, page, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: bootMarks})
			return err
		}))
		p.waitFor(b, waiting)
		for _, pass := range []string{"cold", "warm"} {
			if pass == "warm" {
				ctx, cancel := context.WithTimeout(p.ctx, pageTimeout)
				require.NoError(b, chromedp.Do(ctx, chromedp.Navigate(page)), "navigating again to %s", page)
				cancel()
				p.waitFor(b, waiting)
			}
			var l longTasks
			events := traced(b, p, func() { l = evalJS[longTasks](b, p, longTaskJS) })
			b.Logf("%s: longest task %.0f ms (page's own), first frame %.0f ms; trace: %s", pass, l.Longest, l.Frame, longestTaskSummary(events))
		}
	}
}
