// @ts-check
// converge.js boots the simulator: it loads the Go runtime's wasm_exec.js and
// converge.wasm once per page, installs globalThis.converge (docs/js-api.md) and
// defines <converge-sim>. Everything the simulator does is Go; this module
// only starts it and turns the Go bridge's JSON strings into plain objects.
//
//   <script type="module" src=".../converge.js"></script>
//   await converge.ready;
//   converge.seek(30).pods.length;          // the default instance
//   const sim = converge.create();          // another, independent one
//   sim.loadBuiltin("rolling-update");
//
// The wasm files are found next to this module (dist/), from its own URL, so
// a docs page can load it from wherever `converge serve` or a static host
// put it. Importing this module fetches nothing more: the runtime (one per
// page, shared by every simulation and element) loads when a script awaits
// converge.ready or calls converge.load(), or when a <converge-sim> comes
// within a viewport of the screen (docs/embedding.md).
//
// Errors: functions that return data (step, seek, snapshot, scenario,
// shareFragment, fromFragment, ...) throw an Error with the Go message; a
// wrong argument throws a TypeError. Functions that return an outcome (load,
// loadBuiltin, validate, run, open, openURL) never throw for a bad scenario
// or command: they return {ok: false, ...}. A bug in the simulator is
// "internal error: ..." either way, and the page keeps working.
//
// Boot handshake with wasm/main.go: before the Go program runs, this module
// puts a non-enumerable `_boot` object with `resolve` and `reject` on
// globalThis.converge. The Go program builds its bridge and calls
// `_boot.resolve(bridge)`; this module keeps the raw bridge to itself.

import { defineElement } from "./converge-sim.js";
import { showStopped, stoppedMessage } from "./crash.js";

/**
 * One simulated second: the same JSON as a line of `converge run --output
 * jsonl` (docs/trace.md). Objects are in Kubernetes' JSON shape.
 * @typedef {object} Snapshot
 * @property {number} t the simulated second
 * @property {string} time RFC 3339, from 2026-01-01T00:00:00Z
 * @property {object[]} deployments
 * @property {object[]} replicaSets
 * @property {object[]} pods
 * @property {object[]} nodes
 * @property {object[]} services
 * @property {object[]} endpoints
 * @property {object[]} configMaps
 * @property {{type: string, reason: string, object: string, message: string}[]} events emitted in this second
 * @property {StepResult[]} steps the steps run in this second
 * @property {object[]} syncs the controllers' records of what they saw and did
 * @property {object[]} traffic each Service's requests of this second
 */

/**
 * A step's (or a console command's) outcome.
 * @typedef {{at: string, action: string, ok: boolean, output: string, error: string}} StepResult
 */

/**
 * A problem of a scenario, at its 1-based line and column (0 when it has no
 * position).
 * @typedef {{line: number, col: number, message: string}} Problem
 */

/**
 * @typedef {object} LoadResult
 * @property {boolean} ok false when the scenario is invalid (the previous simulation is kept)
 * @property {Problem[]} errors what makes it invalid: the first 100
 * @property {Problem[]} notes information that does not (a dropped server-set field): the first 100
 * @property {number} moreErrors how many errors there are beyond the first 100
 * @property {number} moreNotes how many notes there are beyond the first 100
 * @property {string} [error] a failure that is not about the text (an unknown built-in name)
 */

/**
 * What open and openURL opened.
 * @typedef {object} OpenResult
 * @property {boolean} ok false when error is set
 * @property {string} error the message to show (a corrupt share, an unknown name), saying what opened instead
 * @property {string} name the built-in scenario opened; "" for a shared one
 * @property {number} t the second it opened at
 * @property {boolean} embed whether the address asks for the compact view (&embed=1)
 * @property {boolean} compare whether the Compare view shows it: asked for (&compare=1, compare: true), or a scenario with variants
 */

/**
 * What a page or element asks an instance to open; each is optional.
 * @typedef {{scenario?: string, share?: string, t?: string | number, embed?: boolean, compare?: boolean}} OpenRequest
 */

/**
 * The outcomes of a rollout per Deployment (docs/compare.md); null where
 * there is nothing to measure yet.
 * @typedef {{name: string, rolloutStart: number | null, rolloutSeconds: number | null, minAvailable: number | null, minAvailablePercent: number | null, maxReplicas: number | null, maxPods: number | null, podsCreated: number | null, progressDeadlineExceeded: boolean}} Outcome
 */

/**
 * The outcomes so far of every variant, as `converge compare --output json` prints them.
 * @typedef {{variants: {name: string, deployments: Outcome[]}[]}} Outcomes
 */

/**
 * Where the time of one rollout went (docs/compare.md).
 * @typedef {{key: string, deployment: string, title: string, state: string, start: number, seconds: number, parts: {key: string, label: string, seconds: number}[], deadline: string, deadlineKind: string, text: string}} RolloutTime
 */

/** @typedef {{name: string, title: string, description: string}} ScenarioInfo */

/**
 * A saved scenario (My scenarios). modified is an RFC 3339 time in UTC with
 * milliseconds ("2026-03-05T14:02:11.532Z"); size is in bytes.
 * @typedef {{name: string, modified: string, size: number}} SavedScenario
 */

/**
 * Where the page keeps My scenarios: persistent is true while they are in
 * the browser's IndexedDB; otherwise notice says why they are in memory.
 * @typedef {{persistent: boolean, notice: string}} StorageState
 */

/**
 * A download: its file name, media type and text.
 * @typedef {{name: string, type: string, text: string}} ExportFile
 */

/**
 * One second of the charts' history.
 * @typedef {{t: number, deployments: {name: string, desired: number, updated: number, ready: number, available: number, total: number, maxSurge: number, maxUnavailable: number}[], services?: {name: string, requests: number, succeeded: number}[], markers?: {kind: string, label: string}[]}} Sample
 */

/**
 * How far a seekAsync has come: the second it is at, the second it computes
 * from (a checkpoint, or where it was) and its target, and the part done.
 * @typedef {{t: number, from: number, target: number, fraction: number}} SeekProgress
 */

/** A raw Go function: it returns its value, or an Error object to throw. */
/** @typedef {(...args: unknown[]) => any} RawFunc */

/**
 * @param {unknown} v what a raw Go function returned
 * @returns {any} v, unless it is an Error, which is thrown
 */
function unwrap(v) {
  if (v instanceof Error) throw v;
  return v;
}

/**
 * Calls a raw Go function; once the Go runtime has exited, throws the
 * page's plain message instead of wasm_exec's "Go program has already
 * exited" (see crash.js).
 * @param {() => unknown} f
 * @returns {any}
 */
function callGo(f) {
  try {
    return unwrap(f());
  } catch (err) {
    if (err instanceof Error && err.message.includes("Go program has already exited")) {
      throw new Error(stoppedMessage);
    }
    throw err;
  }
}

/**
 * Disposes the Go side of simulations whose JS object was collected
 * without dispose(), so that leaked create()s do not add up.
 */
const leaks =
  typeof FinalizationRegistry === "function"
    ? new FinalizationRegistry((/** @type {Record<string, RawFunc>} */ raw) => {
        try {
          raw.dispose();
        } catch {
          // The runtime has stopped: nothing is left to free.
        }
      })
    : null;

/**
 * Freezes o and everything in it.
 * @template T
 * @param {T} o
 * @returns {T}
 */
function deepFreeze(o) {
  if (o !== null && typeof o === "object") {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

/**
 * One simulation. globalThis.converge has all of these methods for the
 * page's default instance; converge.create() makes more.
 */
export class Simulation {
  /** @type {Record<string, RawFunc> & {id: number}} */
  #raw;
  #disposed = false;

  /** @type {Record<string, RawFunc>} */
  #bridge;

  /**
   * Made by converge.create(); not meant to be called directly.
   * @param {Record<string, RawFunc> & {id: number}} raw the Go instance object
   * @param {Record<string, RawFunc> & {version: string}} bridge the Go page object
   */
  constructor(raw, bridge) {
    this.#raw = raw;
    this.#bridge = bridge;
    /** @readonly the instance's handle (the default instance is 1) */
    this.id = raw.id;
    /** @readonly the simulator's version, e.g. "0.1.0" */
    this.version = bridge.version;
    /** @readonly true: create() beyond the page's memory budget gives {ok: false, error} instead */
    this.ok = true;
  }

  /**
   * @param {string} name
   * @param {unknown[]} args
   * @returns {any}
   */
  #call(name, ...args) {
    if (this.#disposed) throw new Error(`simulation ${this.id} is disposed`);
    return callGo(() => this.#raw[name](...args));
  }

  /**
   * @param {string} name
   * @param {unknown[]} args
   */
  #json(name, ...args) {
    return JSON.parse(this.#call(name, ...args));
  }

  /** the number of the last snapshot read (Go's Session.TraceDelta), 0 for none */
  #held = 0;
  /** @type {Map<number, object>} its objects by number, frozen */
  #objects = new Map();

  /**
   * Reads a snapshot sent as what changed since the one held: its number, a
   * newline, then the trace line with each object held as its number and
   * each other as [number, object]. An object is parsed once and shared,
   * frozen, by the snapshots that have it.
   * @param {string} text
   * @returns {Snapshot}
   */
  #snapshot(text) {
    const nl = text.indexOf("\n");
    const snap = JSON.parse(text.slice(nl + 1));
    const held = this.#objects;
    const objects = new Map();
    for (const list of Object.values(snap)) {
      if (!Array.isArray(list) || !(typeof list[0] === "number" || Array.isArray(list[0]))) continue;
      for (let i = 0; i < list.length; i++) {
        const e = list[i];
        const o = typeof e === "number" ? held.get(e) : deepFreeze(e[1]);
        objects.set(typeof e === "number" ? e : e[0], o);
        list[i] = o;
      }
    }
    this.#held = Number(text.slice(0, nl));
    this.#objects = objects;
    return snap;
  }

  /**
   * Calls a raw function that returns a Promise of a JSON string (or of
   * nothing) and parses what it resolves with. A wrong argument is thrown
   * at once; a failure of the work rejects.
   * @param {string} name
   * @param {unknown[]} args
   * @returns {Promise<any>}
   */
  #promise(name, ...args) {
    const p = /** @type {Promise<string | undefined>} */ (this.#call(name, ...args));
    return p.then((s) => (s === undefined || s === null ? undefined : JSON.parse(s)));
  }

  /**
   * Replaces the simulation with one of yaml at t=0. On problems the
   * previous simulation stays.
   * @param {string} yaml a scenario, or plain manifests
   * @returns {LoadResult}
   */
  load(yaml) { return this.#json("load", yaml); }

  /**
   * Loads a built-in scenario by name (see scenarios()).
   * @param {string} name
   * @returns {LoadResult}
   */
  loadBuiltin(name) { return this.#json("loadBuiltin", name); }

  /**
   * Parses yaml without loading it: the editor's check as you type.
   * @param {string} yaml
   * @returns {LoadResult}
   */
  validate(yaml) { return this.#json("validate", yaml); }

  /**
   * Opens a share, a built-in scenario or the default, at t (what
   * <converge-sim>'s attributes ask for). What cannot be opened falls back
   * to the default, with the reason in error.
   * @param {OpenRequest} [request]
   * @returns {OpenResult}
   */
  open(request) { return this.#json("open", request); }

  /**
   * open() for a page address: /#s=SHARE, ?scenario=NAME, &t=SECONDS, &embed=1.
   * @param {string} href
   * @returns {OpenResult}
   */
  openURL(href) { return this.#json("openURL", href); }

  /**
   * open() with the open's own work (the parse and t=0: the largest
   * scenario creates, places and starts 10,000 pods) in slices, tasks of
   * about 50 ms between which the page draws and answers input. Any other
   * call on the simulation before it resolves finishes the open at once.
   * @param {OpenRequest} [request]
   * @returns {Promise<OpenResult>}
   */
  openAsync(request) { return this.#promise("openAsync", request); }

  /**
   * openURL() in slices, as openAsync.
   * @param {string} href
   * @returns {Promise<OpenResult>}
   */
  openURLAsync(href) { return this.#promise("openURLAsync", href); }

  /**
   * Advances by seconds (default 1; the loop runs in Go) and returns the
   * snapshot of the new second.
   * @param {number} [seconds]
   * @returns {Snapshot}
   */
  step(seconds) { return this.#snapshot(this.#call("step", seconds, this.#held)); }

  /**
   * step() without building a snapshot: returns the new second (see moveTo).
   * @param {number} [seconds]
   * @returns {number}
   */
  advance(seconds) { return this.#call("advance", seconds); }

  /**
   * Moves to second t, forwards or backwards (replaying from a checkpoint).
   * Throws when that would keep the page busy beyond about a second (use
   * seekAsync).
   * @param {number} t
   * @returns {Snapshot}
   */
  seek(t) { return this.#snapshot(this.#call("seek", t, this.#held)); }

  /**
   * Moves to second t in slices, one per animation frame, so that the page
   * stays responsive however far t is; seek() refuses a jump that would
   * keep the page busy beyond about a second. Any other change of the
   * simulation (a load, a step, a seek, a command) stops it first.
   * @param {number} t
   * @param {{onProgress?: (progress: SeekProgress) => void, signal?: AbortSignal}} [options]
   *   onProgress after each slice; signal aborts the seek where it is (a whole second)
   * @returns {Promise<Snapshot>} the snapshot of t; rejects with the signal's reason when aborted,
   *   with an AbortError when another change stops it, with a TypeError for a wrong argument
   */
  async seekAsync(t, options) { return JSON.parse(await this.#call("seekAsync", t, options)); }

  /**
   * seek() without building a snapshot: returns the new second. With 1,000
   * pods a snapshot is about 2 MB of JSON, which costs more than the seek.
   * @param {number} t
   * @returns {number}
   */
  moveTo(t) { return this.#call("moveTo", t); }

  /** @returns {Snapshot} the current second */
  snapshot() { return this.#snapshot(this.#call("delta", this.#held)); }

  /**
   * The current snapshot as the exact bytes of `converge run --output jsonl`.
   * @returns {string}
   */
  snapshotJSON() { return this.#call("snapshot"); }

  /**
   * Runs a kubectl command line. A command that changes the cluster becomes
   * a step of the scenario one second from now, and the simulation
   * advances to run it; one that only reads runs on the current state.
   * @param {string} commandLine e.g. "scale deployment/web --replicas=5" (a leading "kubectl" is optional)
   * @returns {StepResult}
   */
  run(commandLine) { return this.#json("run", commandLine); }

  /**
   * Every step of the scenario with its outcome by now, as the page's Steps
   * tab lists it (docs/js-api.md).
   * @returns {Array<{index: number, t: number, at: string, mark: string, action: string, state: string, output: string, error: string, added: boolean, now: boolean}>}
   */
  steps() { return this.#json("steps"); }

  /**
   * Removes a step that run() added (its index in steps()); the timeline is
   * computed again without it, at the same second.
   * @param {number} index
   * @returns {{ok: boolean, error?: string}}
   */
  removeStep(index) { return this.#json("removeStep", index); }

  /** @returns {string} the scenario's YAML, with the steps added by run() */
  scenario() { return this.#call("scenario"); }

  /** @returns {string} the YAML last loaded (without the steps added by run()) */
  source() { return this.#call("source"); }

  /** @returns {string} the built-in scenario's name; "" for another */
  name() { return this.#call("name"); }

  /** @returns {string} SHARE for a link /#s=SHARE to scenario() */
  shareFragment() { return this.#call("shareFragment"); }

  /** @returns {Sample[]} one summary per second computed so far */
  history() { return this.#json("history"); }

  /** @returns {StepResult[]} the latest outcome of each expect step that has run */
  expectations() { return this.#json("expectations"); }

  /**
   * The console's tab completions of the last word of line.
   * @param {string} line
   * @returns {string[]}
   */
  complete(line) { return this.#json("complete", line); }

  /** @returns {number} the current second */
  time() { return this.#call("time"); }

  /** @returns {number} the last second computed so far */
  horizon() { return this.#call("horizon"); }

  /** @returns {number} the scenario's duration in seconds */
  duration() { return this.#call("duration"); }

  /** @returns {string[]} the scenario's variants, in file order; [] for none */
  variants() { return this.#json("variants"); }

  /** @returns {boolean} whether the Compare view shows this simulation (every variant on one clock) */
  compared() { return this.#call("compared"); }

  /** @returns {Outcomes} every variant's outcomes so far (one variant, named after the scenario, when not compared) */
  outcomes() { return this.#json("outcomes"); }

  /**
   * Where the time of each rollout of a Deployment went so far, the latest first.
   * @param {string} [deployment] its name; the first by name when omitted
   * @returns {RolloutTime[]}
   */
  rolloutTimes(deployment) { return deployment === undefined ? this.#json("rolloutTimes") : this.#json("rolloutTimes", deployment); }

  /** @returns {string} why the last open() fell back; "" if it did not */
  error() { return this.#call("error"); }

  /**
   * Draws this simulation into element (or a shadow root) and keeps it
   * drawn as it changes. Returns false when this build has no renderer.
   * @param {Element | ShadowRoot} element
   * @param {{embed?: boolean}} [options] embed: the compact view, no editor chrome
   * @returns {boolean}
   */
  mount(element, options) { return this.#call("mount", element, options); }

  /**
   * Stops drawing into element and removes what was drawn.
   * @param {Element | ShadowRoot} element
   */
  unmount(element) { this.#call("unmount", element); }

  /** @returns {ScenarioInfo[]} the built-in library, by name */
  scenarios() { return JSON.parse(callGo(() => this.#bridge.scenarios())); }

  /**
   * The YAML a share payload carries; throws on a corrupt or too large one.
   * @param {string} share
   * @returns {string}
   */
  fromFragment(share) { return callGo(() => this.#bridge.fromFragment(share)); }

  /**
   * The share payload of a YAML text (at most 64 KiB).
   * @param {string} yaml
   * @returns {string}
   */
  toFragment(yaml) { return callGo(() => this.#bridge.toFragment(yaml)); }

  /**
   * Saves the scenario as it runs (with the steps run() added) in My
   * scenarios, replacing one of that name. They live in the browser's
   * IndexedDB (hackpadfs), or in memory where it has none (see storage()).
   * @param {string} name 1 to 64 characters; no / \\ : * ? " < > |, no dot first
   * @returns {Promise<SavedScenario>}
   */
  save(name) { return this.#promise("save", name); }

  /** @returns {Promise<SavedScenario[]>} My scenarios, by name */
  saved() { return this.#promise("saved"); }

  /**
   * Loads a saved scenario, as load() does (at t=0).
   * @param {string} name
   * @returns {Promise<LoadResult>}
   */
  openSaved(name) { return this.#promise("openSaved", name); }

  /**
   * Deletes a saved scenario; rejects when there is none of that name.
   * @param {string} name
   * @returns {Promise<void>}
   */
  deleteSaved(name) { return this.#promise("deleteSaved", name); }

  /**
   * Renames a saved scenario; rejects rather than replace another.
   * @param {string} name
   * @param {string} newName
   * @returns {Promise<SavedScenario>}
   */
  renameSaved(name, newName) { return this.#promise("renameSaved", name, newName); }

  /**
   * Saves a copy of a saved scenario as "NAME copy" (or "NAME copy 2"...).
   * @param {string} name
   * @returns {Promise<SavedScenario>}
   */
  duplicateSaved(name) { return this.#promise("duplicateSaved", name); }

  /** @returns {Promise<StorageState>} where My scenarios are kept */
  storage() { return this.#promise("storage"); }

  /** @returns {ExportFile} the scenario as it runs, as NAME.yaml */
  exportScenario() { return this.#json("exportScenario"); }

  /** @returns {ExportFile} the bash script that replays it on a real cluster (converge export-kubectl), as NAME.sh */
  exportKubectl() { return this.#json("exportKubectl"); }

  /** @returns {ExportFile} its trace from 0s to its duration, the bytes of converge run --output jsonl, as NAME.jsonl */
  exportTrace() { return this.#json("exportTrace"); }

  /** @returns {ExportFile} the charts up to now, as a standalone SVG document */
  exportCharts() { return this.#json("exportCharts"); }

  /** Frees the simulation and everything it drew; later calls throw. */
  dispose() {
    if (this.#disposed) return;
    leaks?.unregister(this);
    this.#call("dispose");
    this.#disposed = true;
  }
}

/**
 * globalThis.converge: the default instance's methods and version (class
 * Simulation), plus the page-wide functions below. Only `ready` exists before the wasm has
 * started.
 * @typedef {object} ConvergeExtras
 * @property {Promise<void>} ready resolves once everything below is installed; rejects if the simulator cannot start. Awaiting it (or calling then) starts the boot
 * @property {() => Promise<void>} load starts the boot if nothing has yet, and returns ready
 * @property {() => Simulation | {ok: false, error: string}} create a new, independent simulation (nothing loaded yet); beyond the page's memory budget, {ok: false, error}
 * @property {() => number} instances how many simulations are alive (the default included)
 * @property {Simulation} default the default instance itself
 * @property {OpenResult} startup what the page's address opened in the default instance (error: the message to show)
 * @property {boolean} stopped true once the simulator has stopped (crash.js says so in the page; every call then throws)
 * @typedef {Simulation & ConvergeExtras} Converge
 */

/** The methods a Simulation has, which globalThis.converge forwards. */
const methods = Object.getOwnPropertyNames(Simulation.prototype).filter((n) => n !== "constructor");

const global = /** @type {any} */ (globalThis);

/**
 * How far the boot is: whether it started, the wasm's bytes loaded (as
 * decoded) of total (0 when the server does not say), whether it ended,
 * and how it failed.
 * @typedef {{started: boolean, loaded: number, total: number, done: boolean, error?: string}} Progress
 */

/**
 * The boot, shared by every copy of this module on the page: started once
 * (load()), watched by the elements (onProgress, booted).
 * @typedef {object} Runtime
 * @property {() => Promise<void>} load starts the boot (once) and returns converge.ready
 * @property {(f: (p: Progress) => void) => () => void} onProgress calls f now and on every change; returns the unsubscribe
 * @property {(ok: () => void, failed: (err: unknown) => void) => void} booted calls ok or failed once the boot ends, without starting it
 * @property {(f: () => void) => void} queue runs f in a task of its own, after the functions queued before it
 */

/** @type {Runtime} */
export const runtime = install();

/** @type {Converge} */
export const converge = global.converge;

/** @type {Promise<void>} */
export const ready = converge.ready;

defineElement(converge, runtime);

/**
 * Returns the page's runtime, creating globalThis.converge the first time.
 * A second copy of this module (loaded from another URL) finds the first
 * one's and does not boot again.
 *
 * The runtime loads lazily: nothing is fetched until converge.load() is
 * called, something awaits (or calls then, catch or finally on)
 * converge.ready, or a <converge-sim> comes near the screen (converge-sim.js).
 * @returns {Runtime}
 */
function install() {
  if (global.converge && global.converge.ready instanceof Promise && global.converge._runtime) {
    return global.converge._runtime;
  }
  const api = Object.assign(global.converge ?? {}, {});
  for (const name of methods) {
    api[name] = () => {
      throw new Error(`converge.${name}: the simulator is not ready yet (await converge.ready)`);
    };
  }
  /** @type {(v: void) => void} */
  let resolve = () => {};
  /** @type {(reason: unknown) => void} */
  let reject = () => {};
  /** @type {Promise<void>} */
  const ready = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  const then = Promise.prototype.then;
  /** @type {Progress} */
  let progress = { started: false, loaded: 0, total: 0, done: false };
  /** @type {Set<(p: Progress) => void>} */
  const watchers = new Set();
  /** @param {Progress} p */
  const report = (p) => {
    progress = p;
    for (const f of watchers) f(p);
  };
  let started = false;
  const load = () => {
    if (!started) {
      started = true;
      report({ ...progress, started: true });
      boot(api, report).then(
        () => {
          report({ ...progress, done: true });
          resolve();
        },
        (err) => {
          report({ ...progress, done: true, error: err instanceof Error ? err.message : String(err) });
          reject(err);
        },
      );
    }
    return ready;
  };
  // Awaiting converge.ready is asking for the simulator: it starts the boot.
  Object.defineProperty(ready, "then", {
    /** @type {(this: Promise<void>, ok?: any, failed?: any) => Promise<any>} */
    value(ok, failed) {
      load();
      return then.call(this, ok, failed);
    },
  });
  /** @type {Runtime} */
  const rt = {
    load,
    onProgress(f) {
      watchers.add(f);
      f(progress);
      return () => watchers.delete(f);
    },
    booted(ok, failed) {
      then.call(ready, ok, failed);
    },
    queue,
  };
  Object.defineProperty(api, "_runtime", { value: rt });
  api.ready = ready;
  api.load = load;
  global.converge = api;
  return rt;
}

/** @type {(() => void)[]} the functions queue has yet to run */
const queued = [];
/** @type {MessagePort | null} */
let port = null;

/**
 * Runs f in a task of its own, after the functions queued before it: the
 * elements' opens and first renders, so that five demos booting at once
 * are ten tasks, not one that holds the page for their sum, and the page
 * can paint and answer input in between (docs/performance.md, "Longest
 * task while an embed boots"). A message, not setTimeout, which the
 * browser delays by 4 ms and more once timeouts nest.
 * @param {() => void} f
 */
function queue(f) {
  queued.push(f);
  if (typeof MessageChannel !== "function") {
    setTimeout(runQueued, 0);
    return;
  }
  if (!port) {
    const channel = new MessageChannel();
    channel.port1.onmessage = runQueued;
    port = channel.port2;
  }
  port.postMessage(null);
}

/** Runs the first queued function (one per task). */
function runQueued() {
  const f = queued.shift();
  if (!f) return;
  try {
    f();
  } catch (err) {
    console.error(err);
  }
}

/**
 * Whether bytes start as a WebAssembly module does: "\0asm".
 * @param {Uint8Array} bytes
 */
export function isWasm(bytes) {
  return bytes.length >= 4 && bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;
}

/**
 * Fetches one candidate file of the wasm and checks its first bytes: a
 * host may send the .br as it is, without Content-Encoding (Python's
 * http.server says application/wasm, GitHub Pages application/octet-stream),
 * or an error page with status 200. Returns the response itself, or why
 * it is not the wasm. The first bytes and the progress in bytes are read
 * from a clone (a tee of the body): the response compiled is the one
 * fetch returned, with its URL, which is what lets the browser cache the
 * compiled code with the file (docs/performance.md, "First frame"); a
 * Response made here would be compiled afresh on every visit.
 * @param {URL} url
 * @param {(p: Progress) => void} report
 * @returns {Promise<Response | string>}
 */
async function fetchWasm(url, report) {
  /** @type {Response} */
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    return `${url.pathname}: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (!response.ok) return `${url.pathname}: HTTP ${response.status}`;
  if (!response.body) return `${url.pathname}: no body`;
  const size = Number(response.headers.get("x-converge-size") ?? "");
  const length = Number(response.headers.get("content-length") ?? "");
  let total = size > 0 ? size : length > 0 ? length : 0;
  const probe = /** @type {ReadableStream<Uint8Array>} */ (response.clone().body);
  const reader = probe.getReader();
  const drop = () => {
    reader.cancel().catch(() => {});
    response.body?.cancel().catch(() => {});
  };
  const first = new Uint8Array(4);
  let loaded = 0;
  try {
    while (loaded < 4) {
      const { done, value } = await reader.read();
      if (done) break;
      first.set(value.subarray(0, 4 - loaded), loaded);
      loaded += value.byteLength;
    }
  } catch (err) {
    drop();
    return `${url.pathname}: ${err instanceof Error ? err.message : String(err)}`;
  }
  const head = first.subarray(0, Math.min(loaded, 4));
  if (!isWasm(head)) {
    drop();
    const hex = [...head].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    return `${url.pathname}: not a WebAssembly module (it starts ${hex || "empty"}, not 00 61 73 6d)`;
  }
  // A Content-Length of compressed bytes is not the decoded total.
  const progress = () => {
    if (loaded > total) total = 0;
    report({ started: true, loaded, total, done: false });
  };
  progress();
  (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      loaded += value.byteLength;
      progress();
    }
  })().catch(() => {}); // a failed download fails the compile, which says why
  return response;
}

/**
 * Fetches and instantiates the wasm: each candidate in turn, until one is
 * a module that instantiates, with a new Go of wasm_exec.js (loader, which
 * loads while the wasm downloads). Throws one line that says why each
 * failed.
 * @param {Promise<unknown>} loader the import of wasm_exec.js
 * @param {(p: Progress) => void} report
 * @returns {Promise<{go: any, instance: WebAssembly.Instance}>}
 */
async function instantiateWasm(loader, report) {
  // The brotli file first, which a host with the export's _headers (and
  // `converge serve`) sends as the wasm in Content-Encoding br; then the
  // plain file, compressed or not as the host decides. (Declared here, not
  // at the top: the boot can start while this module is still evaluating.)
  const candidates = [new URL("dist/converge.wasm.br", import.meta.url), new URL("dist/converge.wasm", import.meta.url)];
  /** @type {string[]} */
  const reasons = [];
  for (const url of candidates) {
    const response = await fetchWasm(url, report);
    if (typeof response === "string") {
      reasons.push(response);
      continue;
    }
    await loader;
    const go = new global.Go();
    try {
      // instantiateStreaming compiles while the bytes arrive, off the
      // page's thread, and can cache the code; it wants the wasm's type,
      // which a host may not send for the plain file.
      const typed = (response.headers.get("content-type") ?? "").split(";")[0].trim() === "application/wasm";
      const { instance } =
        typed && typeof WebAssembly.instantiateStreaming === "function"
          ? await WebAssembly.instantiateStreaming(response, go.importObject)
          : await WebAssembly.instantiate(await response.arrayBuffer(), go.importObject);
      return { go, instance };
    } catch (err) {
      reasons.push(`${url.pathname}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  throw new Error(`the wasm did not load (${reasons.join("; ")})`);
}

/**
 * Loads wasm_exec.js and converge.wasm, runs the Go program, waits for its
 * bridge, installs the API and opens the page's address in the default
 * instance.
 * @param {any} api
 * @param {(p: Progress) => void} report
 * @returns {Promise<void>}
 */
async function boot(api, report) {
  /** @type {(bridge: any) => void} */
  let resolve = () => {};
  /** @type {(reason: unknown) => void} */
  let reject = () => {};
  /** @type {Promise<any>} */
  const started = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  Object.defineProperty(api, "_boot", { value: { resolve, reject }, configurable: true });
  try {
    const loader = import(new URL("dist/wasm_exec.js", import.meta.url).href);
    loader.catch(() => {}); // awaited once the wasm's first bytes arrived
    const { go, instance } = await instantiateWasm(loader, report);
    const run = go.run(instance);
    const exited = run.then(() => {
      throw new Error("the simulator exited before it was ready");
    });
    exited.catch(() => {}); // once ready, the exit is reported below
    const bridge = await Promise.race([started, exited]);
    run.then(() => {
      api.stopped = true;
      showStopped(Boolean(global.document?.getElementById("app")) && !api.startup?.embed);
    });
    const def = new Simulation(bridge.default, bridge);
    for (const name of methods) {
      api[name] = /** @type {any} */ (def)[name].bind(def);
    }
    Object.assign(api, {
      version: bridge.version,
      default: def,
      create: () => {
        const raw = callGo(() => bridge.create());
        if (typeof raw === "string") return JSON.parse(raw); // {ok: false, error}: the memory budget
        const sim = new Simulation(raw, bridge);
        leaks?.register(sim, raw, sim);
        return sim;
      },
      instances: () => callGo(() => bridge.count()),
      stopped: false,
    });
    // The runtime's start and the first open are separate tasks, so that
    // neither holds the page's thread for their sum (docs/limits.md); the
    // open itself goes in slices (openURLAsync).
    await new Promise((resolve) => setTimeout(resolve, 0));
    global.performance?.mark?.("converge:open");
    api.startup = await def.openURLAsync(global.location?.href ?? "");
    global.performance?.mark?.("converge:opened");
    // A share link pasted into the address bar of a page that is already
    // open changes only the fragment, which does not reload the page: open
    // it as a new visit would. (The page writes its own #s= with
    // history.replaceState, which fires no hashchange.)
    global.addEventListener?.("hashchange", () => {
      if (global.location?.hash?.startsWith("#s=")) {
        def.openURLAsync(global.location.href).then((r) => {
          api.startup = r;
        });
      }
    });
  } finally {
    delete api._boot;
  }
}
