// @ts-check
// crash.js: what the page does should the simulator stop. The Go runtime
// can still exit (it ran out of memory, or a bug ended it) although no
// input should make it: then every call would throw "Go program has
// already exited", and Go, which draws everything else, can draw nothing.
// So this module, which needs no Go, says so plainly in the page and in
// every <converge-sim>, with a Reload button, and marks the stop in
// sessionStorage: the page kept a rescue copy of the scenario and of the
// editor's unapplied edits there as they changed (wasm/rescue.go), and
// the reload offers them back. docs/limits.md describes it.

/** The message calls throw, and embeds and docs pages show. */
export const stoppedMessage = "The simulator has stopped: it ran out of memory or hit a bug. Reload the page to start it again.";

/** What the page (not an embed) shows: it kept a rescue copy. */
const rescuedMessage =
  "The simulator has stopped: it ran out of memory or hit a bug. " +
  "Your scenario and the editor's unapplied edits were kept in this tab: reload the page to get them back.";

/** sessionStorage's key for the stop (core/view's RescueStoppedKey). */
const stoppedKey = "converge:stopped";

/**
 * Marks the stop and shows it in the document and in every
 * <converge-sim>'s shadow root. Idempotent.
 * @param {boolean} rescued whether the page kept a rescue copy (the app, not an embed view)
 * @param {Document} doc
 */
export function showStopped(rescued, doc = document) {
  try {
    sessionStorage.setItem(stoppedKey, "1");
  } catch {
    // No storage (a sandboxed frame): the message still shows.
  }
  if (doc.querySelector("[data-converge-stopped]")) return;
  const app = doc.getElementById("app");
  if (app) app.prepend(banner(doc, rescued ? rescuedMessage : stoppedMessage));
  else doc.body?.prepend(banner(doc, stoppedMessage));
  for (const el of doc.querySelectorAll("converge-sim")) {
    el.shadowRoot?.prepend(banner(doc, stoppedMessage));
  }
}

/**
 * @param {Document} doc
 * @param {string} message
 * @returns {HTMLElement}
 */
function banner(doc, message) {
  const box = doc.createElement("div");
  box.className = "cv-stopped";
  box.setAttribute("role", "alert");
  box.setAttribute("part", "message");
  box.dataset.convergeStopped = "";
  const text = doc.createElement("span");
  text.textContent = message;
  const reload = doc.createElement("button");
  reload.type = "button";
  reload.className = "cv-btn cv-primary";
  reload.textContent = "Reload";
  reload.addEventListener("click", () => location.reload());
  box.append(text, reload);
  return box;
}
