// Every engine the harness compares, behind one small interface:
//
//   { id, label, library, version, api: 'isAllowed' | 'checkMany', profile?, async?, sameParseAs?,
//     parse(file, agent, how?) → handle (or a promise of one, when `async`); how is { warm: true }
//       for a warm loop (an engine may then build its lazy state from the start),
//     isAllowed(handle, url) → boolean,
//     checkMany?(handle, urls) → array-like of 0/1 or booleans,
//     release?(handle), explain?(handle, url) → { allowed, line } (line 0: no rule matched),
//     parsesEveryCall? (no parse-once API: the parse workload does not apply), module }
//     (module: added by loadAdapters)
//   or, for an engine measured in its own process (peers/external.mjs):
//   { id, label, library, version, api: 'own process', ownProcess: true, measures: workload ids,
//     runWorkload(workload, ctx) → figures, runRound(workload, ctx) → one round's figures
//     (a workload timed in rounds, ../rounds.mjs), verdicts(rows, agent) → [{ allowed, line? }] }
//
// `file` is { text, bytes, origin } (the body as a string and as octets, and the
// origin it was served from). parse() is given the crawler's agent because this
// engine compiles per crawler: parse-once-per-host is where that cost belongs.
// Each module exports `load()`, which imports its library; a library that is not
// installed (devDependencies absent) is skipped with a note instead of failing.
export const ADAPTER_MODULES = [
  './robots-wasm.mjs',
  // This engine again, in a process of its own as the native drivers are (parse, first-verdict):
  './robots-wasm-own-process.mjs',
  './robots-parser.mjs',
  './robots-txt-guard.mjs',
  './robots-txt-parser.mjs',
  './node-robots.mjs',
  './exclusion.mjs',
  // The field's references, built or installed outside npm (skipped, saying how to get them, when absent):
  './google-wasm.mjs',
  './google-native.mjs',
  './nzrsky-native.mjs',
  './python-urllib.mjs',
  './python-protego.mjs',
];

/** The modules whose engines are not npm packages: a missing one is a note, not a fault of the install. */
export const REFERENCE_MODULES = ['google-wasm', 'google-native', 'nzrsky-native', 'python-urllib', 'python-protego'];

/** The adapter all ratios are taken against. */
export const BASELINE_ID = 'robots-parser';

/** Loads every adapter whose library imports; returns them and the skipped modules with why. */
export async function loadAdapters(modules = ADAPTER_MODULES) {
  const adapters = [];
  /** @type {{ module: string, reason: string }[]} */
  const skipped = [];
  for (const spec of modules) {
    try {
      const mod = await import(new URL(spec, import.meta.url).href);
      // `module` lets a child process (cold start, memory) load this one adapter alone.
      for (const adapter of await mod.load()) adapters.push({ ...adapter, module: spec });
    } catch (e) {
      const code = /** @type {NodeJS.ErrnoException} */ (e)?.code;
      skipped.push({ module: spec.replace(/^\.\/|\.mjs$/g, ''), reason: code === 'ERR_MODULE_NOT_FOUND' ? 'not installed' : String(e instanceof Error ? e.message : e) });
    }
  }
  return { adapters, skipped };
}
