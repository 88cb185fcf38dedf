// Memory retained per compiled host: all corpus hosts parsed (and compiled) at
// once for one crawler, in a fresh node process per engine, then each host's
// probe URLs checked once. The figure is per host, after the checks.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const hostLimit = (quick) => (quick ? 150 : 0);
const repetitions = (quick) => (quick ? 1 : 2);

export default {
  id: 'memory',
  title: 'Memory per compiled host',
  kind: 'memory',
  unit: 'bytes/host',
  needsCorpus: true,
  appliesTo: (adapter) => !adapter.sameParseAs,
  describe: (ctx) => `${hostLimit(ctx.quick) ? `the first ${hostLimit(ctx.quick).toLocaleString('en')}` : 'all'} corpus hosts compiled at once in a fresh process (heap + external, which includes WebAssembly memory, after GC), after one check of each probe URL; ${repetitions(ctx.quick)} run(s)`,
  async run(ctx, adapter) {
    const child = new URL('../memory-child.mjs', import.meta.url).pathname;
    const runs = [];
    for (let i = 0; i < repetitions(ctx.quick); i++) {
      const { stdout } = await run(process.execPath, ['--expose-gc', child, adapter.module, adapter.id, ctx.agent, String(hostLimit(ctx.quick))], { maxBuffer: 1 << 20 });
      runs.push(JSON.parse(stdout));
    }
    const per = runs.map((r) => r.checkedPerHost).sort((a, b) => a - b);
    const compiled = runs.map((r) => r.compiledPerHost).sort((a, b) => a - b);
    const mid = (xs) => xs[Math.floor(xs.length / 2)];
    return { median: mid(per), min: per[0], max: per[per.length - 1], samples: runs.length, hosts: runs[0].hosts, compiledPerHost: mid(compiled) };
  },
};
