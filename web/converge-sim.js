// @ts-check
// converge-sim.js defines <converge-sim>, the element a docs page embeds:
//
//   <script type="module" src=".../converge.js"></script>
//   <converge-sim scenario="rolling-update" t="30"></converge-sim>
//   <converge-sim share="SHARE"></converge-sim>
//   <converge-sim scenario="compare-strategies" compare></converge-sim>
//
// Each element owns one simulation (converge.create()), opens what its
// attributes ask for (share wins over scenario; neither opens the default
// scenario; t is the second to open at; compare asks for the Compare view,
// which a scenario with variants gets anyway) and draws it in its shadow root in
// the compact embed view. Changing an attribute reopens; removing the
// element disposes its simulation. The Go side decides everything (what to
// open, the fallback and its message, the drawing); this class only forwards
// the attributes and the shadow root.
//
// converge.js imports this module and calls defineElement once the API
// object exists, so that there is no import cycle.

/** @typedef {import("./converge.js").Converge} Converge */
/** @typedef {import("./converge.js").Simulation} Simulation */
/** @typedef {import("./converge.js").OpenResult} OpenResult */

/**
 * Defines <converge-sim> (once per page) on top of converge.
 * @param {Converge} converge
 */
export function defineElement(converge) {
  if (!globalThis.customElements || customElements.get("converge-sim")) return;

  class ConvergeSim extends HTMLElement {
    static observedAttributes = ["scenario", "share", "t", "compare"];

    /** @type {Simulation | null} */
    #sim = null;
    /** counts connections, so that a late boot does not open a removed element */
    #generation = 0;
    /** @type {Promise<OpenResult | null>} */
    #opened = Promise.resolve(null);
    /** @type {HTMLElement | null} the message shown when nothing else is drawn */
    #message = null;

    constructor() {
      super();
      this.attachShadow({ mode: "open" });
    }

    /** @returns {Simulation | null} this element's simulation, once it has opened */
    get simulation() {
      return this.#sim;
    }

    /**
     * Resolves with what the element opened (null if it was removed first).
     * @returns {Promise<OpenResult | null>}
     */
    get opened() {
      return this.#opened;
    }

    connectedCallback() {
      const generation = ++this.#generation;
      this.#opened = converge.ready.then(() => {
        if (generation !== this.#generation || !this.isConnected) return null;
        const sim = converge.create();
        if (!sim.ok) {
          this.#show(/** @type {{error: string}} */ (sim).error); // the page's memory budget
          return null;
        }
        this.#sim = /** @type {Simulation} */ (sim);
        const result = this.#open();
        const root = /** @type {ShadowRoot} */ (this.shadowRoot);
        const drawn = this.#sim.mount(root, { embed: true });
        this.#show(drawn ? "" : result.error);
        return result;
      });
    }

    disconnectedCallback() {
      this.#generation++;
      this.#sim?.dispose();
      this.#sim = null;
      this.#show("");
    }

    attributeChangedCallback() {
      if (this.#sim) {
        const result = this.#open();
        if (this.#message) this.#show(result.error);
      }
    }

    /** @returns {OpenResult} */
    #open() {
      /** @type {import("./converge.js").OpenRequest} */
      const request = { embed: true };
      for (const name of ["scenario", "share", "t"]) {
        const value = this.getAttribute(name);
        if (value !== null) /** @type {any} */ (request)[name] = value;
      }
      const compare = this.getAttribute("compare");
      if (compare !== null && compare !== "false") request.compare = true;
      return /** @type {Simulation} */ (this.#sim).open(request);
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
