// Parse (+ compile for this engine) alone, over every corpus file: MB/s and files/s.
// Each parsed file is released at once (this engine's dispose()), as a crawler's
// cache would on eviction; nothing else is kept between files.
import { formatFigure } from '../format.mjs';
import { measureRate, measureWork } from '../measure.mjs';

/** One pass over a list of files; the files the engine threw on go to `failed`. */
export function parseLoop(adapter, agent, failed) {
  const release = adapter.release ?? (() => {});
  if (adapter.async) {
    return async (list) => {
      for (const f of list) {
        try { release(await adapter.parse(f, agent)); } catch { failed.add(f); }
      }
    };
  }
  return (list) => {
    for (const f of list) {
      try { release(adapter.parse(f, agent)); } catch { failed.add(f); }
    }
  };
}

/**
 * n files spread evenly over the corpus, and their octets. The files are far
 * from alike (the ten largest hold over a quarter of the octets, and the first quarter
 * parses faster per octet than the whole), so a share is a sample of
 * the whole, not its first n files.
 */
export function spreadShares(files) {
  const memo = new Map();
  return (n) => {
    let share = memo.get(n);
    if (!share) {
      const list = Array.from({ length: n }, (_, i) => files[Math.floor((i * files.length) / n)]);
      share = { list, bytes: list.reduce((sum, f) => sum + f.bytes.length, 0) };
      memo.set(n, share);
    }
    return share;
  };
}

/** The file's first probe that is not /robots.txt: `rfc` allows that one without walking anything. */
export function firstWalked(file) {
  return file.urls.find((u) => !u.endsWith('/robots.txt')) ?? file.urls[0];
}

/**
 * Rates of run over the whole corpus when one pass over it takes at most four
 * passMs: every engine that fast is measured on the same octets. A slower one
 * gets a share (measureWork), a sample of the whole.
 */
export async function measureParse(run, files, budget, async) {
  const share = spreadShares(files);
  const all = share(files.length);
  const t0 = performance.now();
  await run(all.list);
  if (performance.now() - t0 <= budget.passMs * 4) {
    const pass = async ? async () => { await run(all.list); } : () => { run(all.list); };
    return { ...(await measureRate(pass, all.bytes, budget)), coverage: 1 };
  }
  return measureWork({ total: files.length, view: (n) => share(n).list, run, unitsOf: (n) => share(n).bytes, budget, async });
}

export default {
  id: 'parse',
  title: 'Parse + compile',
  kind: 'throughput',
  unit: 'MB/s',
  needsCorpus: true,
  // The checkMany variants share their parser with the single-URL ones; an engine that
  // parses on every check (Google's WASM build) has no parse alone to time.
  appliesTo: (adapter) => !adapter.sameParseAs && !adapter.parsesEveryCall,
  describe: (ctx) => {
    const files = ctx.corpus();
    const mb = files.reduce((n, f) => n + f.bytes.length, 0) / 1e6;
    return `every corpus file parsed for ${ctx.agent} (this engine: parse + compile), ${files.length.toLocaleString('en')} files, ${mb.toFixed(1)} MB; also files/s`;
  },
  async run(ctx, adapter) {
    const files = ctx.corpus();
    const failed = new Set();
    const async = Boolean(adapter.async);
    const r = await measureParse(parseLoop(adapter, ctx.agent, failed), files, ctx.budget, async);
    const fileCount = Math.round(r.coverage * files.length);
    const perFile = fileCount / r.units;
    const mb = (rate) => rate / 1e6;
    // An engine that builds part of its automaton on the first check says so: the
    // figure with that first verdict is measured too and noted beside the row.
    let firstCheck;
    if (adapter.lazy) {
      const withCheck = await measureParse(
        parseLoop({ ...adapter, parse: (f, a) => { const h = adapter.parse(f, a); adapter.isAllowed(h, firstWalked(f)); return h; } }, ctx.agent, failed),
        files, ctx.budget, async,
      );
      firstCheck = mb(withCheck.median);
    }
    return {
      ...r,
      median: mb(r.median), min: mb(r.min), max: mb(r.max),
      ...(r.passes ? { passes: r.passes.map(mb) } : {}),
      filesPerSecond: { median: r.median * perFile, min: r.min * perFile, max: r.max * perFile },
      ...(failed.size ? { parseErrors: failed.size } : {}),
      ...(firstCheck !== undefined ? { note: firstCheckNote(adapter.lazy, firstCheck), firstCheckMBps: firstCheck, lazy: adapter.lazy } : {}),
    };
  },
  // Timed in rounds with the own-process engines (../rounds.mjs): the first check's figure is then the median of the rounds'.
  inRounds: true,
  afterRounds: (/** @type {any} */ r) => (r.firstCheckMBps === undefined ? r : { ...r, note: firstCheckNote(r.lazy, r.firstCheckMBps) }),
};

function firstCheckNote(lazy, mbps) {
  return `with the first check (${lazy}): ${formatFigure(mbps, 'MB/s')} MB/s`;
}
