// Cold start: a fresh node process imports one engine, parses a small robots.txt
// and gives one verdict. The figure is measured inside the child (module load to
// verdict, and apart: import, instantiate, first verdict); the process's whole wall
// time, node's own start included, is kept beside it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repetitions = (quick) => (quick ? 3 : 7);

export default {
  id: 'cold-start',
  title: 'Cold start',
  kind: 'latency',
  unit: 'ms',
  needsCorpus: false,
  appliesTo: (adapter) => !adapter.sameParseAs,
  describe: (ctx) => `fresh node process: import the engine, parse a 6-line robots.txt, one verdict; median of ${repetitions(ctx.quick)}`,
  async run(ctx, adapter) {
    const child = new URL('../cold-start-child.mjs', import.meta.url).pathname;
    const inside = [];
    const wall = [];
    /** @type {Record<'importMs' | 'instantiateMs' | 'verdictMs', number[]>} */
    const parts = { importMs: [], instantiateMs: [], verdictMs: [] };
    for (let i = 0; i < repetitions(ctx.quick); i++) {
      const t0 = performance.now();
      const { stdout } = await run(process.execPath, [child, adapter.module, adapter.id, ctx.agent]);
      wall.push(performance.now() - t0);
      const figures = JSON.parse(stdout);
      inside.push(figures.ms);
      for (const [part, xs] of Object.entries(parts)) xs.push(figures[part]);
    }
    const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    inside.sort((a, b) => a - b);
    const split = Object.fromEntries(Object.entries(parts).map(([part, xs]) => [part, mid(xs)]));
    return { median: mid(inside), min: inside[0], max: inside[inside.length - 1], samples: inside.length, processWallMs: mid(wall), coldStartParts: split };
  },
};
