// Parse (+ compile for this engine) alone, over every corpus file: MB/s and files/s.
// Each parsed file is released at once (this engine's dispose()), as a crawler's
// cache would on eviction; nothing else is kept between files.
import { formatFigure } from '../format.mjs';
import { measureWork } from '../measure.mjs';

/** One pass over the first n files; the indexes of files the engine threw on go to `failed`. */
function parseLoop(adapter, files, agent, failed) {
  const release = adapter.release ?? (() => {});
  if (adapter.async) {
    return async (n) => {
      for (let i = 0; i < n; i++) {
        try { release(await adapter.parse(files[i], agent)); } catch { failed.add(i); }
      }
    };
  }
  return (n) => {
    for (let i = 0; i < n; i++) {
      try { release(adapter.parse(files[i], agent)); } catch { failed.add(i); }
    }
  };
}

export default {
  id: 'parse',
  title: 'Parse + compile',
  kind: 'throughput',
  unit: 'MB/s',
  needsCorpus: true,
  // The checkMany variants share their parser with the single-URL ones.
  appliesTo: (adapter) => !adapter.sameParseAs,
  describe: (ctx) => {
    const files = ctx.corpus();
    const mb = files.reduce((n, f) => n + f.bytes.length, 0) / 1e6;
    return `every corpus file parsed for ${ctx.agent} (this engine: parse + compile), ${files.length.toLocaleString('en')} files, ${mb.toFixed(1)} MB; also files/s`;
  },
  async run(ctx, adapter) {
    const files = ctx.corpus();
    const bytes = [0];
    for (const f of files) bytes.push(bytes[bytes.length - 1] + f.bytes.length);
    const failed = new Set();
    const r = await measureWork({
      total: files.length,
      run: parseLoop(adapter, files, ctx.agent, failed),
      unitsOf: (n) => bytes[n],
      budget: ctx.budget,
      async: Boolean(adapter.async),
    });
    const fileCount = Math.round(r.coverage * files.length);
    const perFile = fileCount / r.units;
    const mb = (rate) => rate / 1e6;
    // An engine that builds part of its automaton on the first check says so: the
    // figure with that first verdict is measured too and noted beside the row.
    let firstCheck;
    if (adapter.lazy) {
      const withCheck = await measureWork({
        total: files.length,
        run: parseLoop({ ...adapter, parse: (f, a) => { const h = adapter.parse(f, a); adapter.isAllowed(h, f.urls[0]); return h; } }, files, ctx.agent, failed),
        unitsOf: (n) => bytes[n],
        budget: ctx.budget,
      });
      firstCheck = mb(withCheck.median);
    }
    return {
      ...r,
      median: mb(r.median), min: mb(r.min), max: mb(r.max),
      filesPerSecond: { median: r.median * perFile, min: r.min * perFile, max: r.max * perFile },
      ...(failed.size ? { parseErrors: failed.size } : {}),
      ...(firstCheck !== undefined ? { note: `with the first check (${adapter.lazy}): ${formatFigure(firstCheck, 'MB/s')} MB/s`, firstCheckMBps: firstCheck } : {}),
    };
  },
};
