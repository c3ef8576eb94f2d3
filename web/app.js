// @ts-check
// app.js mounts the page: once the simulator is ready, the Go renderer draws
// the default simulation (opened from the page's address by converge.js)
// into <main id="app">. Everything it shows is decided and drawn in Go.
import { converge, ready } from "./converge.js";

const status = /** @type {HTMLElement} */ (document.getElementById("status"));
const app = /** @type {HTMLElement} */ (document.getElementById("app"));

// The first render is a task of its own, after the boot's (the runtime's
// start and the address's open): no task holds the page for their sum.
ready.then(() => new Promise((resolve) => setTimeout(resolve, 0))).then(
  () => {
    const api = /** @type {any} */ (converge);
    api.mount(app, { embed: Boolean(api.startup?.embed) });
    performance.mark("converge:mounted");
    if (api.startup?.embed) document.documentElement.classList.add("embed");
    status.textContent = `v${converge.version}`;
    document.documentElement.dataset.ready = "true";
  },
  (/** @type {unknown} */ err) => {
    status.textContent = `The simulator failed to start: ${err instanceof Error ? err.message : String(err)}`;
    status.classList.add("error");
    console.error(err);
  },
);

// The skip link moves the focus to the simulation without adding #app to
// the address (the page's address is its scenario and second).
document.querySelector(".skip-link")?.addEventListener("click", (ev) => {
  ev.preventDefault();
  app.focus();
});
