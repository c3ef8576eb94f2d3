package main

// Browser tests of compact demos (docs/embedding.md#views): the view
// attribute chooses the parts; the default fits one screen at 820 px and
// on a phone; the time bar stays in view while the element is on screen.

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEmbedViews(t *testing.T) {
	t.Parallel()
	srv := startServe(t)
	p := openPage(t, docsSite(t, srv.URL, `<h1>Views</h1>
<converge-sim id="default" scenario="rolling-update" t="20" loading="eager"></converge-sim>
<converge-sim id="rollout" scenario="rolling-update" t="20" view="rollout" loading="eager"></converge-sim>
<converge-sim id="rollout-why" scenario="rolling-update" t="20" view="rollout why" loading="eager"></converge-sim>
<converge-sim id="pods-loop" scenario="rolling-update" t="20" view="pods,loop" loading="eager"></converge-sim>
<converge-sim id="compare" scenario="rolling-update" view="compare" loading="eager"></converge-sim>
<div class="spacer"></div>`))
	type shown struct {
		ID                                        string
		Height                                    float64
		Why, Rollout, Gauges, Pods, Loop, Compare bool
	}
	for _, width := range []int64{820, 375} {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			p.emulate(t, width, 800, "light")
			p.waitFor(t, drawnJS)
			p.waitFor(t, `[...document.querySelectorAll("converge-sim")].every((e) => e.id === "compare" ? e.simulation?.compared() :
				e.shadowRoot.querySelector(".cv-rollout-title")?.textContent && e.simulation?.time() === 20)`)
			got := evalJS[[]shown](t, p, `[...document.querySelectorAll("converge-sim")].map((e) => {
				const vis = (sel) => e.shadowRoot.querySelector(sel)?.checkVisibility() ?? false;
				return {ID: e.id, Height: e.getBoundingClientRect().height, Why: vis(".cv-why"), Rollout: vis(".cv-rollout-head"),
					Gauges: vis(".cv-rollout .cv-gauges"), Pods: vis(".cv-rollout .cv-columns"), Loop: vis(".cv-loop"),
					Compare: e.simulation.compared()};
			})`)
			want := map[string]shown{
				"default":     {Why: true, Rollout: true, Gauges: true, Pods: true},
				"rollout":     {Rollout: true, Gauges: true, Pods: true},
				"rollout-why": {Why: true, Rollout: true, Gauges: true, Pods: true},
				"pods-loop":   {Rollout: true, Pods: true, Loop: true},
				"compare":     {Compare: true},
			}
			for _, g := range got {
				w := want[g.ID]
				w.ID, w.Height = g.ID, g.Height
				if g.ID == "compare" {
					w.Why, w.Rollout, w.Gauges, w.Pods, w.Loop = g.Why, g.Rollout, g.Gauges, g.Pods, g.Loop
				}
				assert.Equal(t, w, g, g.ID)
				t.Logf("%s: %.0f px tall at %d px", g.ID, g.Height, width)
			}
			assert.LessOrEqual(t, got[0].Height, 700.0, "the default embed fits one screen at %d px", width)
			parts := evalJS[[]string](t, p, `[...document.getElementById("default").shadowRoot.querySelectorAll(".cv-embed > *, .cv-rollout > *, .cv-why-line > *")]
				.filter((e) => e.checkVisibility()).map((e) => e.className + " " + Math.round(e.getBoundingClientRect().height))`)
			t.Logf("the default's parts at %d px: %v", width, parts)
			p.shot(t, fmt.Sprint("views-", width), true)
			elementShot(t, p, "#default", fmt.Sprint("embed-default-", width))

			// The time bar stays in view while its element is on screen.
			bar := evalJS[struct{ Top, ElTop float64 }](t, p, `(async () => {
				const el = document.getElementById("default");
				window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY + el.getBoundingClientRect().height / 2);
				await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
				const top = el.shadowRoot.querySelector(".cv-timeline").getBoundingClientRect().top;
				const out = {Top: top, ElTop: el.getBoundingClientRect().top};
				window.scrollTo(0, 0);
				return out;
			})()`)
			assert.Less(t, bar.ElTop, 0.0, "the element's top is above the screen")
			assert.InDelta(t, 0, bar.Top, 1, "its time bar sticks to the top of the screen")
		})
	}
	p.assertNoConsoleErrors(t)
}
