// Timing with tinybench: one task at a time, its passes summarised as the median
// with the fastest and slowest pass beside it (the spread on a shared machine).
import { Bench } from 'tinybench';

/** Timing budgets: `--quick` keeps the whole run under a minute. */
export function timingBudget(quick) {
  return quick
    ? { time: 60, iterations: 3, warmupTime: 20, warmupIterations: 1, passMs: 30, maxPassMs: 300, warmMs: 100, warmUrls: 2 }
    : { time: 1200, iterations: 8, warmupTime: 200, warmupIterations: 2, passMs: 250, maxPassMs: 4000, warmMs: 2500 };
}

/**
 * Runs fn (one pass over `units` of work, sync or async) and returns rates per
 * second: median from the median pass, min from the slowest, max from the fastest.
 */
export async function measureRate(fn, units, budget) {
  const bench = new Bench({
    time: budget.time,
    iterations: budget.iterations,
    warmupTime: budget.warmupTime,
    warmupIterations: budget.warmupIterations,
    throws: true,
    retainSamples: Boolean(budget.keepPasses), // rounds (rounds.mjs) pool the passes of several
    ...(budget.now ? { now: budget.now } : {}), // rounds: the process's CPU time
  });
  bench.add('task', fn);
  await bench.run();
  const result = bench.tasks[0].result;
  if (result.state !== 'completed') throw new Error(`tinybench: the task ended ${result.state}`); // (throws: true: an error throws first)
  const latency = result.latency;
  const rate = (ms) => units / (ms / 1000);
  const passes = budget.keepPasses && latency.samples ? { passes: Array.from(latency.samples, rate) } : {};
  return { median: rate(latency.p50), min: rate(latency.max), max: rate(latency.min), samples: latency.samplesCount, units, ...passes };
}

/**
 * Measures a workload that can be cut down to a share of it: sizes go from 1 to
 * `total` (URLs per batch, or files), view(n) prepares that share (untimed) and
 * run(view) does one pass over it. First the size that makes a pass of about
 * budget.passMs is found by timing growing sizes (doubling), then passes of that
 * size are measured. Slow engines thus get a share of the work and every engine
 * is measured in bounded time; rates are per URL (or octet, file), so they stay
 * comparable. An engine whose smallest share takes longer than budget.maxPassMs
 * gets that one pass. unitsOf(n) is the work (URLs, octets) in size n;
 * coverageOf(view), when given, the share of the whole work the passes went over
 * (else unitsOf(size) / unitsOf(total)); `async` says run() returns a promise.
 */
async function timed(run, work, now = () => performance.now()) {
  const t0 = now();
  await run(work);
  return now() - t0;
}

/**
 * @param {{ total: number, view?: (n: number) => any, run: (work: any) => unknown, unitsOf: (n: number) => number,
 *   coverageOf?: (view: any) => number, budget: object, async?: boolean }} options
 */
export async function measureWork({ total, view = (n) => n, run, unitsOf, coverageOf, budget, async = false }) {
  let n = 1;
  for (;;) {
    const work = view(n);
    const ms = await timed(run, work, budget.now);
    if (n === 1 && ms > budget.maxPassMs) {
      const rate = unitsOf(1) / (ms / 1000);
      return { median: rate, min: rate, max: rate, samples: 1, units: unitsOf(1), coverage: unitsOf(1) / unitsOf(total), ...(budget.keepPasses ? { passes: [rate] } : {}), note: `one pass of ${Math.round(ms)} ms: too slow to repeat` };
    }
    if (n >= total || ms >= budget.passMs / 4) {
      const size = n >= total ? total : Math.max(1, Math.min(total, Math.round((n * budget.passMs) / ms)));
      const chosen = view(size);
      // tinybench times an async task by awaiting it; a sync one stays sync.
      const pass = async ? async () => { await run(chosen); } : () => { run(chosen); };
      const rate = await measureRate(pass, unitsOf(size), budget);
      return { ...rate, coverage: coverageOf ? coverageOf(chosen) : unitsOf(size) / unitsOf(total) };
    }
    n = Math.min(total, n * 2);
  }
}
