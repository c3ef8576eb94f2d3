// @ts-check
// converge.js boots the simulator: it loads the Go runtime's wasm_exec.js and
// converge.wasm once per page, and installs globalThis.converge. Everything the
// simulator does is Go; this module only starts it.
//
//   import { converge, ready } from "./converge.js";
//   await ready; // or: await globalThis.converge.ready
//   converge.version; // "0.1.0"
//
// The files are found next to this module (dist/), so a docs page can load it
// from wherever `converge serve` or a static host put it.
//
// Boot handshake with wasm/main.go: before the Go program runs, this module
// puts a non-enumerable `_boot` object with `resolve` and `reject` on
// globalThis.converge. The Go program fills in the API, then calls
// `_boot.resolve()`; it calls `_boot.reject(error)` when it cannot start.

/**
 * The simulator's JS API (contracts §5). Only `ready` exists before the wasm
 * has started; everything else is installed by the Go program.
 * @typedef {object} Converge
 * @property {Promise<void>} ready resolves once the API below is installed
 * @property {string} [version] the simulator's version, e.g. "0.1.0"
 */

/**
 * The Go class that wasm_exec.js defines on globalThis.
 * @typedef {{importObject: WebAssembly.Imports, run(instance: WebAssembly.Instance): Promise<void>}} GoRuntime
 */

const global = /** @type {any} */ (globalThis);

/** @type {Converge} */
export const converge = install();

/** @type {Promise<void>} */
export const ready = converge.ready;

/**
 * Returns the page's globalThis.converge, creating it and starting the boot
 * the first time. A second copy of this module (loaded from another URL)
 * finds the first one's object and does not boot again.
 * @returns {Converge}
 */
function install() {
  if (global.converge && global.converge.ready instanceof Promise) {
    return global.converge;
  }
  /** @type {Converge} */
  const api = Object.assign(global.converge ?? {}, { ready: Promise.resolve() });
  global.converge = api;
  api.ready = boot(api);
  return api;
}

/**
 * Loads wasm_exec.js and converge.wasm, runs the Go program and waits until
 * it has installed the API.
 * @param {Converge} api
 * @returns {Promise<void>}
 */
async function boot(api) {
  /** @type {(value?: void) => void} */
  let resolve = () => {};
  /** @type {(reason: unknown) => void} */
  let reject = () => {};
  /** @type {Promise<void>} */
  const started = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  Object.defineProperty(api, "_boot", { value: { resolve, reject }, configurable: true });
  try {
    await import(new URL("dist/wasm_exec.js", import.meta.url).href);
    /** @type {GoRuntime} */
    const go = new global.Go();
    const wasmURL = new URL("dist/converge.wasm", import.meta.url);
    const response = await fetch(wasmURL);
    if (!response.ok) {
      throw new Error(`loading ${wasmURL.pathname}: HTTP ${response.status} (run make build)`);
    }
    const { instance } = await WebAssembly.instantiateStreaming(response, go.importObject);
    const exited = go.run(instance).then(() => {
      throw new Error("the simulator exited before it was ready");
    });
    await Promise.race([started, exited]);
  } finally {
    delete (/** @type {any} */ (api))._boot;
  }
}
