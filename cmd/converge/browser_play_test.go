package main

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// BenchmarkBrowserUIPlayFrames plays the 1,000-pod scenario of
// BenchmarkBrowserUIPlay through its rollout at 16x and 64x and splits
// each frame's work ("converge:frame") into the render inside it
// ("converge:render") and the rest, the simulation's: it reports the p95
// and the longest of each, and logs the longest frames with their parts,
// to tell what bounds a long frame (a render, or a piece of a second's
// work that has no pace point).
//
//	go test -run '^$' -bench BrowserUIPlayFrames -benchtime 3x ./cmd/converge
func BenchmarkBrowserUIPlayFrames(b *testing.B) {
	srv := startServe(b)
	p := openUI(b, srv, "/", 1280, 800, "light")
	require.True(b, evalJS[bool](b, p, `converge.load(`+jsString(uiBigScenario())+`).ok`))
	for _, speed := range []int{16, 64} {
		b.Run(fmt.Sprintf("speed=%d", speed), func(b *testing.B) {
			type frame struct{ Frame, Render, Sim float64 }
			var frames []frame
			for b.Loop() {
				got := evalJS[[]frame](b, p, `new Promise((resolve) => {
					converge.seek(25);
					const speed = document.querySelector(".cv-speed");
					speed.value = "`+strconv.Itoa(speed)+`";
					speed.dispatchEvent(new Event("change"));
					performance.clearMeasures();
					globalThis.convergeProfile = true;
					const done = () => {
						if (converge.time() < 60) { requestAnimationFrame(done); return; }
						if (converge.time() < converge.duration()) document.querySelector(".cv-play").click();
						globalThis.convergeProfile = false;
						const renders = performance.getEntriesByName("converge:render");
						resolve(performance.getEntriesByName("converge:frame").map((f) => {
							const r = renders.filter((e) => e.startTime >= f.startTime && e.startTime + e.duration <= f.startTime + f.duration + 0.001)
								.reduce((a, e) => a + e.duration, 0);
							return {Frame: f.duration, Render: r, Sim: f.duration - r};
						}));
					};
					document.querySelector(".cv-play").click();
					requestAnimationFrame(done);
				})`)
				require.NotEmpty(b, got)
				frames = append(frames, got...)
			}
			pick := func(f func(frame) float64) []float64 {
				out := make([]float64, len(frames))
				for i, x := range frames {
					out[i] = f(x)
				}
				return out
			}
			all := pick(func(f frame) float64 { return f.Frame })
			sims := pick(func(f frame) float64 { return f.Sim })
			renders := pick(func(f frame) float64 { return f.Render })
			b.ReportMetric(quantile(all, 0.95), "ms-p95/frame")
			b.ReportMetric(quantile(all, 1), "ms-max/frame")
			b.ReportMetric(quantile(sims, 0.95), "ms-p95/sim")
			b.ReportMetric(quantile(sims, 1), "ms-max/sim")
			b.ReportMetric(quantile(renders, 0.95), "ms-p95/render")
			b.ReportMetric(quantile(renders, 1), "ms-max/render")
			over := 0
			for _, x := range all {
				if x > 50 {
					over++
				}
			}
			b.ReportMetric(float64(over)/float64(b.N), "frames>50ms/run")
			b.ReportMetric(float64(len(frames))/float64(b.N), "frames/run")
			slices.SortFunc(frames, func(x, y frame) int { return int(y.Frame*1000 - x.Frame*1000) })
			b.Logf("longest frames (frame, render, sim ms): %v", frames[:min(len(frames), 6)])
		})
	}
	p.assertNoConsoleErrors(b)
}

// TestUIPlayAcrossFramesShowsWholeSeconds: at 64x through the 1,000-pod
// rollout, whose seconds are computed across frames, the clock the page
// shows is the second the API reads at every frame (never a second half
// computed, never ahead); pausing mid-rollout stops on a whole second that
// stays put, and a step from there lands one second later.
func TestUIPlayAcrossFramesShowsWholeSeconds(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openUI(t, srv, "/", 1280, 800, "light")
	require.True(t, evalJS[bool](t, p, `converge.load(`+jsString(uiBigScenario())+`).ok`))
	got := evalJS[struct {
		Frames   int      `json:"frames"`
		Mismatch []string `json:"mismatch"`
		Paused   int      `json:"paused"`
		Now      string   `json:"now"`
		Pressed  string   `json:"pressed"`
	}](t, p, `new Promise((resolve) => {
		converge.seek(29);
		const speed = document.querySelector(".cv-speed");
		speed.value = "64";
		speed.dispatchEvent(new Event("change"));
		const now = () => document.querySelector(".cv-now").textContent;
		const mismatch = [];
		let frames = 0;
		const probe = () => {
			frames++;
			const t = converge.time();
			if (now() !== "t = " + t + "s of 5m") mismatch.push(t + ": " + now());
			if (t < 36 && frames < 2000) { requestAnimationFrame(probe); return; }
			const b = document.querySelector(".cv-play");
			b.click();
			resolve({frames, mismatch, paused: converge.time(), now: now(), pressed: b.getAttribute("aria-pressed")});
		};
		document.querySelector(".cv-play").click();
		requestAnimationFrame(probe);
	})`)
	assert.Empty(t, got.Mismatch)
	assert.Equal(t, "false", got.Pressed)
	assert.GreaterOrEqual(t, got.Paused, 36)
	assert.Equal(t, fmt.Sprintf("t = %ds of 5m", got.Paused), got.Now)
	later := evalJS[[2]int](t, p, `new Promise((r) => setTimeout(() => {
		const t = converge.time();
		converge.step(1);
		r([t, converge.time()]);
	}, 300))`)
	assert.Equal(t, [2]int{got.Paused, got.Paused + 1}, later, "paused on a whole second")
	p.assertNoConsoleErrors(t)
}
