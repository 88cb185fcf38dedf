// A robots.txt built to be slow (*-heavy patterns) against 16 KiB URLs. Each engine
// runs in a worker thread of its own with a deadline, because a backtracking
// matcher may not return from one URL for hours and cannot be interrupted otherwise.
import { Worker } from 'node:worker_threads';

export const PATHOLOGICAL = { rules: 2_000, length: 16_384 };
const urlCount = (quick) => (quick ? 2 : 32);
const deadlineMs = (quick) => (quick ? 700 : 8_000);
// A short warm pass: a file like this has no steady state to warm up to (states
// are built and cleared all along), and the deadline is better spent measuring.
const WARM_MS = 300;

export default {
  id: 'pathological',
  title: 'Pathological file',
  kind: 'throughput',
  unit: 'URLs/s',
  needsCorpus: false,
  // robots-parser (and most peers) never return from a URL here: ratios are taken against node-robots.
  baseline: { id: 'robots', name: 'node-robots' },
  describe: (ctx) => `${PATHOLOGICAL.rules.toLocaleString('en')} rules of 6 to 15 \`*\` each, ${urlCount(ctx.quick)} URLs of 16 KiB; each engine in a worker, stopped after ${deadlineMs(ctx.quick) / 1000} s`,
  run(ctx, adapter) {
    const deadline = deadlineMs(ctx.quick);
    return new Promise((resolve) => {
      const worker = new Worker(new URL('../pathological-worker.mjs', import.meta.url), {
        workerData: { module: adapter.module, id: adapter.id, agent: ctx.agent, budget: { ...ctx.budget, warmMs: Math.min(ctx.budget.warmMs, WARM_MS) }, count: urlCount(ctx.quick), ...PATHOLOGICAL },
      });
      const timer = setTimeout(() => {
        worker.terminate();
        resolve({ error: `timeout: no result within ${deadline / 1000} s` });
      }, deadline);
      worker.once('message', (result) => {
        clearTimeout(timer);
        worker.terminate();
        // Per octet of URL, warm: issue 28 holds this engine to at most 100 ns.
        resolve(result.median > 0 ? { ...result, note: [result.note, `${(1e9 / (result.median * PATHOLOGICAL.length)).toPrecision(2)} ns an octet of URL`].filter(Boolean).join('; ') } : result);
      });
      worker.once('error', (e) => { clearTimeout(timer); resolve({ error: String(e?.message ?? e) }); });
    });
  },
};
