// @ts-check
// app.js is the placeholder app shell: it waits for the simulator and says
// whether it started. The real page (drawn by Go) replaces it.
import { converge, ready } from "./converge.js";

const status = /** @type {HTMLElement} */ (document.getElementById("status"));

ready.then(
  () => {
    status.textContent = `Converge ${converge.version} is ready.`;
    document.documentElement.dataset.ready = "true";
  },
  (/** @type {unknown} */ err) => {
    status.textContent = `The simulator failed to start: ${err instanceof Error ? err.message : String(err)}`;
    status.classList.add("error");
    console.error(err);
  },
);
