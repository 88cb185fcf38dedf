// Runs one engine over a matching workload: { files: [{ text, bytes, origin }],
// batches: [{ file, urls }] }. Every file is parsed once for the crawler (not
// timed), then passes are timed, each over the next k URLs of every batch (in
// turn, wrapping around): a slow engine gets a small k, every file still takes
// part, and a pass meets URLs it has not seen until the lists wrap, so that lazy
// automata are measured warming and (past their memory cap) rebuilding, as on a
// real stream of URLs, not on a few URLs checked again and again. A file an
// engine throws on counts its URLs as allowed (a crawler that catches the error
// and fetches), and so does a check that throws; both are counted and reported.
import { measureWork } from './measure.mjs';
import { seededRandom } from './synthetic.mjs';

const FAILED = Symbol('parse failed');
/** Verdicts are summed into this so that no check can be optimised away. */
export let sink = 0;

/** Parses each file for `agent`; returns the handles (FAILED where it threw). `how`
 * goes to the adapter: { warm: true } for a warm loop (see measureMatching). */
export async function prepareHandles(adapter, files, agent, how) {
  const handles = [];
  let parseErrors = 0;
  let firstError;
  for (const file of files) {
    try {
      handles.push(await adapter.parse(file, agent, how));
    } catch (e) {
      handles.push(FAILED);
      parseErrors++;
      firstError ??= String(e instanceof Error ? e.message : e);
    }
  }
  return { handles, parseErrors, firstError };
}

export function releaseHandles(adapter, handles) {
  if (adapter.release) for (const h of handles) if (h !== FAILED) adapter.release(h);
}

/**
 * An engine's verdicts on URLs of a prepared file, and how many checks threw
 * (FAILED file or a throwing check: allowed).
 */
export function verdictsOf(adapter, handle, urls) {
  if (handle === FAILED) return { verdicts: urls.map(() => true), checkErrors: 0 };
  if (adapter.checkMany) return { verdicts: Array.from(adapter.checkMany(handle, urls), (v) => Boolean(v)), checkErrors: 0 };
  let checkErrors = 0;
  const verdicts = urls.map((u) => {
    try {
      return adapter.isAllowed(handle, u);
    } catch {
      checkErrors++;
      return true;
    }
  });
  return { verdicts, checkErrors };
}

// Each engine gets a loop of its own (the same source text compiled as a separate
// function), so V8's type feedback at the check call stays monomorphic: with one
// shared loop, the fastest engines would pay for the call sites of all the others.
const LOOP_SOURCE = {
  isAllowed: `return function countAllowed(handles, batches) {
    let allowed = 0;
    for (let b = 0; b < batches.length; b++) {
      const batch = batches[b];
      const h = handles[batch.file];
      const urls = batch.urls;
      if (h === FAILED) { allowed += urls.length; continue; }
      for (let i = 0; i < urls.length; i++) {
        try { if (check(h, urls[i])) allowed++; } catch { allowed++; errors.count++; }
      }
    }
    return allowed;
  };`,
  checkMany: `return function countAllowed(handles, batches) {
    let allowed = 0;
    for (let b = 0; b < batches.length; b++) {
      const batch = batches[b];
      const h = handles[batch.file];
      if (h === FAILED) { allowed += batch.urls.length; continue; }
      allowed += check(h, batch.urls)[0] ? 1 : 0;
    }
    return allowed;
  };`,
};

/** `errors.count` counts the checks that threw. */
export function ownLoop(adapter, errors) {
  const api = adapter.checkMany ? 'checkMany' : 'isAllowed';
  return new Function('check', 'FAILED', 'errors', LOOP_SOURCE[api])(adapter[api], FAILED, errors);
}

/** The passes of k URLs per batch: pass p holds the p-th run of k URLs of every batch (wrapping). */
function passesOf(batches, k) {
  const count = Math.max(...batches.map((b) => Math.max(1, Math.floor(b.urls.length / k))));
  const passes = [];
  for (let p = 0; p < count; p++) {
    passes.push(batches.map((b) => {
      if (b.urls.length <= k) return b;
      const start = (p % Math.floor(b.urls.length / k)) * k;
      return { file: b.file, urls: b.urls.slice(start, start + k) };
    }));
  }
  return { passes, next: 0 };
}

/**
 * One untimed pass over the whole workload, or as much of it as fits in `ms`:
 * lazy automata and the JIT reach their steady state before anything is timed
 * (all of the corpus, for this engine; the first URLs of a list too long to finish).
 */
function warm(loop, handles, batches, ms, urls = 8) {
  const view = passesOf(batches, urls);
  const t0 = performance.now();
  let done = 0;
  for (const pass of view.passes) {
    sink += loop(handles, pass);
    done++;
    if (performance.now() - t0 > ms) break;
  }
  return done / view.passes.length;
}

/**
 * Measures URLs/s of one engine on a matching workload; adds parseErrors and checkErrors when any.
 * `how` goes to the adapter's parse: by default a warm loop, so an engine that starts its
 * matchers cold (this one: coldOctets) is told so and compiles them hot, as a user who checks
 * very many URLs would; `{ coldOctets: Infinity }` keeps this engine's matchers cold instead.
 * `after(handles)` reads the matchers before they are released (e.g. the mode they ended in).
 * @param {{ warm?: boolean, coldOctets?: number }} [how]
 * @param {(handles: unknown[]) => object} [after]
 */
export async function measureMatching(adapter, workload, agent, budget, how = { warm: true }, after = undefined) {
  const { handles, parseErrors, firstError } = await prepareHandles(adapter, workload.files, agent, how);
  try {
    const errors = { count: 0 };
    const loop = ownLoop(adapter, errors);
    const longest = Math.max(...workload.batches.map((b) => b.urls.length));
    const warmed = warm(loop, handles, workload.batches, budget.warmMs, budget.warmUrls);
    const result = await measureWork({
      total: longest,
      view: (k) => passesOf(workload.batches, k),
      run: (view) => { sink += loop(handles, view.passes[view.next++ % view.passes.length]); },
      unitsOf: (k) => workload.batches.reduce((n, b) => n + Math.min(k, b.urls.length), 0),
      coverageOf: (view) => Math.min(1, view.next / view.passes.length),
      budget,
    });
    Object.assign(result, { warmed });
    if (parseErrors) Object.assign(result, { parseErrors, firstError });
    if (errors.count) Object.assign(result, { checkErrors: errors.count });
    if (after) Object.assign(result, after(handles));
    return result;
  } finally {
    releaseHandles(adapter, handles);
  }
}

/**
 * A corpus-like workload: one batch per file, its probe URLs in a seeded random
 * order, so that the first k URLs of a host (a slow engine's share) are a fair
 * sample of them: the probes start with /robots.txt and /, which are the cheapest.
 */
export function hostsWorkload(hosts) {
  const random = seededRandom(9309);
  return { files: hosts, batches: hosts.map((h, file) => ({ file, urls: shuffled(h.urls, random) })) };
}

function shuffled(list, random) {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/** One file and one list of URLs. */
export function oneFileWorkload(file, urls) {
  return { files: [file], batches: [{ file: 0, urls }] };
}
