// The backstop that frees the core memory of a Matcher dropped without
// dispose(): a FinalizationRegistry, which a matcher joins only if it is still
// live when the current job ends. A registration (and dispose()'s unregister)
// was a large share of a crawler's compile-check-dispose of a small file, and
// such a matcher never needs it: disposed in the same job, it is never
// registered. Until then it waits in `waiting` (held: it cannot be collected
// before its turn, so nothing is missed), which a microtask empties at the end
// of the job, or at once when it holds WAITING_MAX matchers (a synchronous loop
// that keeps or drops many holds at most that many objects more).

/** What the backstop reads of a matcher. */
export interface BackstopEntry {
  /** dispose() was called. */
  readonly disposed: boolean;
}

const WAITING_MAX = 256;

let registry: FinalizationRegistry<number> | null = null;
let free: ((header: number) => void) | null = null;
const waiting: BackstopEntry[] = [];
/** Their header addresses in the core, which the registry frees. */
const headers: number[] = [];
let flushQueued = false;
/** The end of the job, as a promise's reaction: Node's queueMicrotask makes an AsyncResource a call (its
 * first call in a process, ~0.1 ms of a fresh process's first verdict, docs/benchmarks.md). */
const JOB_END = Promise.resolve();
/** Matchers registered so far (for the tests: a matcher disposed in its job never is). */
let registrations = 0;

/** Sets what frees a collected matcher's header (once, by matcher.ts: the core is its module's). */
export function backstopFrees(freeHeader: (header: number) => void): void {
  free = freeHeader;
}

/** A matcher just made: registered at the end of this job unless disposed by then. */
export function watch(m: BackstopEntry, header: number): void {
  waiting.push(m);
  headers.push(header);
  if (waiting.length >= WAITING_MAX) flush();
  else if (!flushQueued) {
    flushQueued = true;
    void JOB_END.then(flush);
  }
}

/** A matcher being disposed: off the backstop (the registry would free its header, which another matcher may take next). */
export function unwatch(m: BackstopEntry): void {
  if (waiting.length > 0 && waiting[waiting.length - 1] === m) {
    waiting.pop(); // (compile, check, dispose: the usual order)
    headers.pop();
    return;
  }
  registry?.unregister(m); // (its token is the matcher; one still waiting is not registered, and the flush passes it over: it is disposed)
}

function flush(): void {
  flushQueued = false;
  for (let i = 0; i < waiting.length; i++) {
    const m = waiting[i];
    if (m.disposed) continue;
    registry ??= new FinalizationRegistry<number>((header) => free!(header));
    registry.register(m, headers[i], m);
    registrations++;
  }
  waiting.length = 0;
  headers.length = 0;
}

/** @internal Matchers registered with the backstop so far. */
export function backstopRegistrations(): number {
  return registrations;
}
