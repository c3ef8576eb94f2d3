// @ts-check
// converge-sim.js defines <converge-sim>, the element a docs page embeds:
//
//   <script type="module" src=".../converge.js"></script>
//   <converge-sim scenario="rolling-update" t="30"></converge-sim>
//   <converge-sim share="SHARE" autoplay speed="8" controls="compact" theme="dark"></converge-sim>
//   <converge-sim scenario="compare-strategies" compare></converge-sim>
//
// Each element owns one simulation (converge.create()) of the page's one Go
// runtime, opens what its attributes ask for (share wins over scenario;
// neither opens the default scenario; t is the second to open at; compare
// asks for the Compare view, which a scenario with variants gets anyway) and draws
// it in its shadow root in the compact embed view. Changing an attribute
// reopens (scenario, share, t, compare) or redraws (controls, autoplay, speed);
// removing the element disposes its simulation. The Go side decides
// everything it draws; this class forwards the attributes and the shadow
// root, and shows the element until the runtime has loaded.
//
// Loading is lazy: the runtime (a few megabytes) loads when the first
// element comes within one viewport of the screen, or when one is clicked;
// loading="eager" loads it at once. Until then, and while it downloads, the
// element shows what it will show and the download's progress in bytes.
// docs/embedding.md has the attributes.
//
// converge.js imports this module and calls defineElement once the API
// object exists, so that there is no import cycle.

/** @typedef {import("./converge.js").Converge} Converge */
/** @typedef {import("./converge.js").Simulation} Simulation */
/** @typedef {import("./converge.js").OpenResult} OpenResult */
/** @typedef {import("./converge.js").Runtime} Runtime */
/** @typedef {import("./converge.js").Progress} Progress */

/** The attributes that reopen the element's scenario. */
const openAttrs = ["scenario", "share", "t", "compare"];
/** The attributes that redraw it (the mount's options). */
const drawAttrs = ["controls", "autoplay", "speed", "captions"];

/**
 * The parts the view attribute chooses from, and what each is in the
 * embed view's drawing.
 */
const viewParts = ["rollout", "why", "pods", "loop", "legend", "compare"];

/** The parts of an element without a view attribute: fits one screen. */
const defaultView = ["rollout", "why"];

/**
 * The parts view (space- or comma-separated names of viewParts; "all" is
 * every one) chooses, in viewParts' order; unknown names are ignored, and
 * none known is the default.
 * @param {string | null} view
 * @returns {string[]}
 */
export function viewOf(view) {
  const words = (view ?? "").toLowerCase().split(/[\s,]+/).filter(Boolean);
  if (words.includes("all")) return [...viewParts];
  const chosen = viewParts.filter((p) => words.includes(p));
  return chosen.length ? chosen : [...defaultView];
}

/**
 * What the default view (no view attribute) also leaves out, so that an
 * element fits one screen (700 px at 820 px wide): the why-card's title,
 * its pods line, what the controllers did, its times and writers (its
 * headline stays); the rollout card's
 * strategy line and each gauge's arithmetic (the gauges and pods stay).
 * In a column under 560 px (a phone) it also packs what stays: the title
 * on one line, a smaller headline, the two gauges (without their flag:
 * the gauge's border says pacing or blocking) and the ReplicaSets side by
 * side, tighter cards; 700 px at 375 px wide.
 */
const compactCSS =
  ".cv-embed .cv-why-title,.cv-embed .cv-why-pods,.cv-embed .cv-why-acted,.cv-embed .cv-why-line .cv-times," +
  ".cv-embed .cv-writers,.cv-embed .cv-rollout .cv-strategy," +
  ".cv-embed .cv-gauge .cv-math{display:none}" +
  "@container (max-width:560px){" +
  ".cv-embed .cv-embed-title{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}" +
  ".cv-embed .cv-headline{font-size:.875rem;line-height:1.3}.cv-embed .cv-why-head{margin-bottom:2px}" +
  ".cv-embed .cv-card{padding:8px 10px;margin-bottom:8px}" +
  ".cv-embed .cv-rollout .cv-gauges{grid-template-columns:1fr 1fr;gap:6px;margin-bottom:8px}" +
  ".cv-embed .cv-gauge{padding:6px 8px}.cv-embed .cv-gauge-head{flex-wrap:wrap;gap:0 6px;margin-bottom:4px}" +
  ".cv-embed .cv-gauge-label{font-size:.85rem}.cv-embed .cv-gauge .cv-flag{display:none}" +
  ".cv-embed .cv-gauge .cv-meaning{display:none}" +
  ".cv-embed .cv-columns{grid-template-columns:repeat(auto-fit,minmax(140px,1fr));gap:6px}" +
  ".cv-embed .cv-col{padding:6px 8px}.cv-embed .cv-rollout-head{margin-bottom:6px}.cv-embed .cv-summary{font-size:.8rem}" +
  ".cv-embed .cv-rollout-title{font-size:.95rem}.cv-embed .cv-counts{font-size:.8rem}}";

/**
 * The shadow root's CSS that hides what a view leaves out, and keeps the
 * time bar in view (sticky) while the element is on screen. The compare
 * view shows its own columns whole.
 * @param {string[]} parts from viewOf
 * @param {boolean} [compact] the default view: compactCSS too
 * @returns {string}
 */
export function viewCSS(parts, compact = false) {
  const has = (/** @type {string} */ p) => parts.includes(p);
  const hide = [];
  if (!has("compare")) {
    if (!has("why")) hide.push(".cv-why");
    if (!has("loop")) hide.push(".cv-loop");
    if (!has("rollout") && !has("pods")) hide.push(".cv-rollout");
    if (!has("rollout") && has("pods")) hide.push(".cv-rollout .cv-gauges");
    if (!has("legend")) hide.push(".cv-rollout .cv-legend");
  }
  return (
    ".cv-embed .cv-timeline{position:sticky;top:0;z-index:5}" +
    (hide.length ? `${hide.map((h) => `.cv-embed ${h}`).join(",")}{display:none}` : "") +
    (compact ? compactCSS : "")
  );
}

/**
 * A CSS height for the height attribute: a number is pixels; a length
 * with a unit (px, em, rem, vh, %) is itself; anything else is none.
 * @param {string | null} v
 * @returns {string}
 */
export function cssHeight(v) {
  const s = (v ?? "").trim();
  if (/^\d+(\.\d+)?$/.test(s)) return `${s}px`;
  if (/^\d+(\.\d+)?(px|em|rem|vh|svh|dvh|%)$/.test(s)) return s;
  return "";
}

/**
 * The path of a built-in scenario's poster at 0s, relative to converge.js
 * (core/poster's Path): posters/NAME.svg, which `converge serve`,
 * export-site and the npm package all have. "" for another second (a
 * static host has no poster of it: the page puts one inside the element,
 * docs/embedding.md) or a name that is not a built-in's.
 * @param {string | null} name
 * @param {string | null} t
 * @returns {string}
 */
export function posterPath(name, t) {
  if (!name || !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(name)) return "";
  return /^(0+s?)?$/.test((t ?? "").trim()) ? `posters/${name}.svg` : "";
}

/**
 * bytes as "412 kB" or "1.4 MB".
 * @param {number} n
 */
function size(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1e3))} kB`;
}

/**
 * Defines <converge-sim> (once per page) on top of converge.
 * @param {Converge} converge
 * @param {Runtime} runtime
 */
export function defineElement(converge, runtime) {
  if (!globalThis.customElements || customElements.get("converge-sim")) return;

  const stylesheet = new URL("style.css", import.meta.url).href;

  /** @type {IntersectionObserver | null} one for every element: within a viewport of the screen */
  let observer = null;
  /** @param {Element} el */
  const watch = (el) => {
    if (!globalThis.IntersectionObserver) {
      runtime.load();
      return;
    }
    observer ??= new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          observer?.disconnect();
          runtime.load();
        }
      },
      { rootMargin: "100% 0px 100% 0px" },
    );
    observer.observe(el);
  };

  class ConvergeSim extends HTMLElement {
    static observedAttributes = [...openAttrs, ...drawAttrs, "height", "theme", "loading", "view"];

    /** @type {Simulation | null} */
    #sim = null;
    /** counts connections, so that a late boot does not open a removed element */
    #generation = 0;
    /** @type {Promise<OpenResult | null>} */
    #opened = Promise.resolve(null);
    /** @type {HTMLElement | null} the message shown when nothing else is drawn */
    #message = null;
    /**
     * The host's layout and its size, from height: a constructed sheet,
     * which a page's Content-Security-Policy (style-src 'self') allows,
     * where a <style> element it would refuse.
     * @type {CSSStyleSheet}
     */
    #hostStyle;
    /** @type {(() => void) | null} stops following the download */
    #unwatch = null;

    constructor() {
      super();
      this.attachShadow({ mode: "open" });
      this.#hostStyle = new CSSStyleSheet();
      /** @type {ShadowRoot} */ (this.shadowRoot).adoptedStyleSheets = [this.#hostStyle];
    }

    /** @returns {Simulation | null} this element's simulation, once it has opened */
    get simulation() {
      return this.#sim;
    }

    /**
     * Resolves with what the element opened (null if it was removed first).
     * It waits for the runtime, which it does not load itself.
     * @returns {Promise<OpenResult | null>}
     */
    get opened() {
      return this.#opened;
    }

    connectedCallback() {
      const generation = ++this.#generation;
      this.#sizeHost();
      this.#waiting();
      this.#opened = new Promise((resolve) => {
        // The open and the first render are tasks of their own, queued
        // after the other elements' (runtime.queue): no task holds the
        // page for the sum of every demo's.
        const later = runtime.queue ?? ((/** @type {() => void} */ f) => setTimeout(f, 0));
        const current = () => generation === this.#generation && this.isConnected;
        runtime.booted(
          () => later(() => {
            if (!current()) return resolve(null);
            this.#unwatch?.();
            const sim = converge.create();
            if (!sim.ok) {
              this.#showOnly(/** @type {{error: string}} */ (sim).error); // the page's memory budget
              resolve({ ok: false, error: /** @type {{error: string}} */ (sim).error, name: "", t: 0, embed: true });
              return;
            }
            this.#sim = /** @type {Simulation} */ (sim);
            // The open itself goes in slices (openAsync), then the first
            // render is a task of its own.
            this.#sim.openAsync(this.#request()).then((result) => later(() => {
              if (!current()) return resolve(null);
              this.#mount(result);
              resolve(result);
            }));
          }),
          (err) => {
            if (generation !== this.#generation) return resolve(null);
            const message = `The simulator failed to start: ${err instanceof Error ? err.message : String(err)}`;
            this.#unwatch?.();
            this.#fallback(message);
            resolve({ ok: false, error: message, name: "", t: 0, embed: true });
          },
        );
      });
      if (this.getAttribute("loading") === "eager") runtime.load();
      else watch(this);
    }

    disconnectedCallback() {
      this.#generation++;
      this.#unwatch?.();
      observer?.unobserve(this);
      this.#sim?.dispose();
      this.#sim = null;
      this.#show("");
    }

    /** @param {string} name */
    attributeChangedCallback(name) {
      if (name === "height" || name === "view") this.#sizeHost();
      if (name === "view" && this.#sim && viewOf(this.getAttribute("view")).includes("compare") !== this.#sim.compared()) {
        this.#open();
      }
      if (name === "loading" && this.getAttribute("loading") === "eager" && this.isConnected) runtime.load();
      if (!this.#sim) return;
      if (openAttrs.includes(name)) {
        const result = this.#open();
        if (this.#message) this.#show(result.error);
      } else if (drawAttrs.includes(name)) {
        this.#mount({ ok: true, error: this.#sim.error(), name: "", t: 0, embed: true });
      }
    }

    /** @returns {OpenResult} */
    #open() {
      return /** @type {Simulation} */ (this.#sim).open(this.#request());
    }

    /** @returns {import("./converge.js").OpenRequest} what the attributes ask to open */
    #request() {
      /** @type {import("./converge.js").OpenRequest} */
      const request = { embed: true };
      for (const name of openAttrs) {
        const value = this.getAttribute(name);
        if (value !== null && name !== "compare") /** @type {any} */ (request)[name] = value;
      }
      const compare = this.getAttribute("compare");
      if ((compare !== null && compare !== "false") || viewOf(this.getAttribute("view")).includes("compare")) {
        request.compare = true;
      }
      return request;
    }

    /**
     * Draws the simulation into the shadow root with the attributes'
     * options (the Go renderer replaces what was there).
     * @param {OpenResult} result
     */
    #mount(result) {
      const root = /** @type {ShadowRoot} */ (this.shadowRoot);
      const sim = /** @type {Simulation} */ (this.#sim);
      this.#message = null;
      const speed = Number(this.getAttribute("speed") ?? "");
      const controls = this.getAttribute("controls") ?? "full";
      const drawn = sim.mount(root, {
        embed: true,
        controls: ["full", "compact", "none"].includes(controls) ? controls : "full",
        autoplay: this.hasAttribute("autoplay") && this.getAttribute("autoplay") !== "false",
        captions: this.hasAttribute("captions") && this.getAttribute("captions") !== "false",
        speed: Number.isFinite(speed) && speed > 0 ? speed : 0,
      });
      this.#show(drawn ? "" : result.error);
    }

    /** Applies height to the host, the host's own layout, and the view. */
    #sizeHost() {
      const h = cssHeight(this.getAttribute("height"));
      this.#hostStyle.replaceSync(
        ":host{display:block;max-width:100%;min-width:0;box-sizing:border-box}" +
          (h ? `:host{height:${h};overflow:auto}` : "") +
          viewCSS(viewOf(this.getAttribute("view")), !this.hasAttribute("view")),
      );
    }

    /**
     * Shows what the element will show, until the runtime has loaded: the
     * scenario's name, a button that loads it, and the download's
     * progress.
     */
    #waiting() {
      if (this.#sim) return;
      const root = /** @type {ShadowRoot} */ (this.shadowRoot);
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = stylesheet;
      const box = document.createElement("div");
      box.className = "cv-app cv-embed cv-wait";
      box.setAttribute("part", "loading");
      const title = document.createElement("p");
      title.className = "cv-embed-title";
      const share = this.getAttribute("share");
      const name = this.getAttribute("scenario");
      title.textContent = share ? "A shared scenario" : name || "rolling-update";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "cv-btn cv-play cv-wait-btn";
      button.textContent = "▶ Load the simulation";
      const status = document.createElement("p");
      status.className = "cv-status cv-wait-status";
      status.setAttribute("role", "status");
      status.textContent = "The simulator loads when this comes into view.";
      const bar = document.createElement("progress");
      bar.className = "cv-wait-progress";
      bar.hidden = true;
      box.append(title);
      // The element's own content (a poster: docs/embedding.md) shows at
      // once, before and while the runtime loads; without any, the
      // built-in scenario's poster next to converge.js, if the host has it.
      if (this.childElementCount > 0) box.append(document.createElement("slot"));
      else this.#poster(box);
      box.append(button, status, bar);
      root.replaceChildren(link, box);
      button.addEventListener("click", () => runtime.load());
      this.#unwatch?.();
      this.#unwatch = runtime.onProgress((p) => {
        if (!p.started) return;
        button.disabled = true;
        button.textContent = "Loading…";
        box.dataset.loaded = String(p.loaded);
        box.dataset.total = String(p.total);
        bar.hidden = Boolean(p.error);
        if (p.total) {
          bar.max = p.total;
          bar.value = p.loaded;
        } else {
          bar.removeAttribute("value");
        }
        if (p.error) status.textContent = `The simulator failed to start: ${p.error}`;
        else if (p.done) status.textContent = "Starting the simulator…";
        else if (p.loaded === 0) status.textContent = "Loading the simulator…";
        else if (p.total) status.textContent = `Loading the simulator: ${size(p.loaded)} of ${size(p.total)}`;
        else status.textContent = `Loading the simulator: ${size(p.loaded)}`;
      });
    }

    /**
     * Appends to box the poster of the element's built-in scenario at 0s
     * (posterPath, next to converge.js), with an empty alt (nothing shows)
     * until it has loaded, and dropped if the host has none. A share, another second or the
     * Compare view gets none here.
     * @param {HTMLElement} box
     */
    #poster(box) {
      const compare = this.getAttribute("compare");
      if (this.hasAttribute("share") || (compare !== null && compare !== "false") || viewOf(this.getAttribute("view")).includes("compare")) {
        return;
      }
      const p = posterPath(this.getAttribute("scenario"), this.getAttribute("t"));
      if (!p) return;
      const img = document.createElement("img");
      img.className = "cv-poster";
      img.setAttribute("part", "poster");
      img.alt = "";
      img.loading = "lazy"; // not hidden: a lazy image that is not displayed never loads
      img.addEventListener("load", () => {
        img.alt = `${this.getAttribute("scenario")}: the simulation's state before it loads`;
      });
      img.addEventListener("error", () => img.remove());
      // Posters sit next to the root converge.js, not under the
      // content-hashed copy of this module (v/HASH/, docs/embedding.md#caching).
      img.src = new URL(p, import.meta.url.replace(/\/v\/[0-9a-f]+\/([^/]*)$/, "/$1")).href;
      box.append(img);
    }

    /**
     * Shows the element's own content (its children: a poster, a link, a
     * picture) and, under it, one line that says why the simulation is not
     * there, in place of the loading state.
     * @param {string} reason
     */
    #fallback(reason) {
      const root = /** @type {ShadowRoot} */ (this.shadowRoot);
      const box = document.createElement("div");
      box.className = "cv-app cv-embed cv-wait cv-fallback";
      box.setAttribute("part", "fallback");
      const line = document.createElement("p");
      line.className = "cv-status cv-fallback-reason";
      line.setAttribute("role", "alert");
      line.textContent = reason;
      box.append(document.createElement("slot"));
      if (this.childElementCount === 0) this.#poster(box);
      box.append(line);
      root.replaceChildren(...root.querySelectorAll("link"), box);
      this.#message = null;
    }

    /**
     * Shows text alone in the shadow root, in place of the loading state.
     * @param {string} text
     */
    #showOnly(text) {
      const root = /** @type {ShadowRoot} */ (this.shadowRoot);
      root.replaceChildren(...root.querySelectorAll("link"));
      this.#message = null;
      this.#show(text);
    }

    /**
     * Shows text (as text) in the shadow root when no renderer draws there;
     * "" removes it.
     * @param {string} text
     */
    #show(text) {
      if (!text) {
        this.#message?.remove();
        this.#message = null;
        return;
      }
      if (!this.#message) {
        this.#message = document.createElement("p");
        this.#message.setAttribute("role", "alert");
        this.#message.setAttribute("part", "message");
        /** @type {ShadowRoot} */ (this.shadowRoot).append(this.#message);
      }
      this.#message.textContent = text;
    }
  }

  customElements.define("converge-sim", ConvergeSim);
}
