// Memory retained per compiled host: all corpus hosts parsed (and compiled) at
// once for one crawler, in a fresh node process per engine, then each host's
// probe URLs checked once. The figure is per host, after the checks.
// The children run by the spawner: a fork here slows this process's next passes.
import { run } from '../spawner.mjs';

const hostLimit = (quick) => (quick ? 150 : 0);
const repetitions = (quick) => (quick ? 1 : 2);
/** adapter id -> its runs, started by prepare(). */
let pending;

export default {
  id: 'memory',
  title: 'Memory per compiled host',
  kind: 'memory',
  unit: 'bytes/host',
  needsCorpus: true,
  appliesTo: (adapter) => !adapter.sameParseAs,
  describe: (ctx) => `${hostLimit(ctx.quick) ? `the first ${hostLimit(ctx.quick).toLocaleString('en')}` : 'all'} corpus hosts compiled at once in a fresh process (heap + external, which includes WebAssembly memory, after GC), after one check of each probe URL; ${repetitions(ctx.quick)} run(s)`,
  /** The children run two at a time: what they measure is memory, not time. */
  prepare(ctx, adapters) {
    const child = new URL('../memory-child.mjs', import.meta.url).pathname;
    const jobs = adapters.flatMap((adapter) => Array.from({ length: repetitions(ctx.quick) }, () => ({ adapter })));
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const job = jobs[next++];
        const args = ['--expose-gc', child, job.adapter.module, job.adapter.id, ctx.agent, String(hostLimit(ctx.quick))];
        job.result = run(process.execPath, args, { maxBuffer: 1 << 20 }).then(({ stdout }) => JSON.parse(stdout));
        await job.result.catch(() => {});
      }
    };
    const all = Promise.all([worker(), worker()]);
    pending = new Map(adapters.map((a) => [a.id, all.then(() => Promise.all(jobs.filter((j) => j.adapter === a).map((j) => j.result)))]));
  },
  async run(ctx, adapter) {
    const runs = await pending.get(adapter.id);
    const per = runs.map((r) => r.checkedPerHost).sort((a, b) => a - b);
    const compiled = runs.map((r) => r.compiledPerHost).sort((a, b) => a - b);
    const mid = (xs) => xs[Math.floor(xs.length / 2)];
    return { median: mid(per), min: per[0], max: per[per.length - 1], samples: runs.length, hosts: runs[0].hosts, compiledPerHost: mid(compiled) };
  },
  done() {
    pending = undefined;
  },
};
