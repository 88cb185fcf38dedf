// Cold start: a fresh node process imports one engine's library, parses a small
// robots.txt and gives one verdict, as an ES module and as CommonJS (each engine
// as its package is imported by a user: cold-start-engines.cjs; no adapter module
// is loaded between the clocks). The figure is measured inside the child (before
// the import to the verdict, and apart: import, first verdict); the process's
// whole wall time, node's own start included, is kept beside it. The runs
// alternate engines and module systems (every engine's runs from the same
// stretches of time), the order turned each round.
import { createRequire } from 'node:module';
// The children run by the spawner: a fork here slows this process's next passes.
import { run } from '../spawner.mjs';

const ENGINES = createRequire(import.meta.url)('../cold-start-engines.cjs');
const rounds = (quick) => (quick ? 5 : 15);
const SYSTEMS = /** @type {const} */ ([
  { label: 'ESM', child: new URL('../cold-start-child.mjs', import.meta.url).pathname },
  { label: 'CommonJS', child: new URL('../cold-start-child.cjs', import.meta.url).pathname },
]);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Every engine's runs, ESM and CommonJS, round after round (engines turned each round). */
async function measureAll(ctx, adapters) {
  /** @type {Map<string, Map<string, { ms: number, importMs: number, verdictMs: number, wall: number }[] | { error: string }>>} */
  const runs = new Map(adapters.map((a) => [a.id, new Map(SYSTEMS.map((s) => [s.label, ENGINES[a.id].noCommonJs && s.label === 'CommonJS' ? { error: `no CommonJS: ${ENGINES[a.id].noCommonJs}` } : []]))]));
  for (let round = 0; round < rounds(ctx.quick); round++) {
    const turn = adapters.map((_, i) => adapters[(i + round) % adapters.length]);
    for (const adapter of round % 2 ? turn.reverse() : turn) {
      const own = /** @type {NonNullable<ReturnType<typeof runs.get>>} */ (runs.get(adapter.id));
      for (const system of round % 2 ? [...SYSTEMS].reverse() : SYSTEMS) {
        const kept = own.get(system.label);
        if (!Array.isArray(kept)) continue;
        const t0 = performance.now();
        try {
          const { stdout } = await run(process.execPath, [system.child, adapter.id, ctx.agent]);
          kept.push({ ...JSON.parse(stdout), wall: performance.now() - t0 });
        } catch (e) {
          own.set(system.label, { error: String(e instanceof Error ? e.message.split('\n')[0] : e) });
        }
      }
    }
  }
  return runs;
}

/** One module system's figures from its runs. */
function figures(label, runs) {
  if (!Array.isArray(runs)) return { label, ...runs };
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  return {
    label,
    median: median(ms),
    min: ms[0],
    max: ms[ms.length - 1],
    samples: ms.length,
    processWallMs: median(runs.map((r) => r.wall)),
    coldStartParts: { importMs: median(runs.map((r) => r.importMs)), verdictMs: median(runs.map((r) => r.verdictMs)) },
  };
}

/** adapter id → its runs, measured on the first run() (every engine's at once). */
let measured;
/** The engines prepare() was given. */
let engines = [];

export default {
  id: 'cold-start',
  title: 'Cold start',
  kind: 'latency',
  unit: 'ms',
  needsCorpus: false,
  appliesTo: (adapter) => adapter.id in ENGINES,
  describe: (ctx) => `fresh node process: import the engine's package (as an ES module, then with require()), parse a 6-line robots.txt, one verdict; median of ${rounds(ctx.quick)} runs each, engines and module systems alternating`,
  prepare(_ctx, adapters) {
    engines = adapters;
  },
  async run(ctx, adapter) {
    measured ??= await measureAll(ctx, engines.length ? engines : [adapter]);
    const runs = measured.get(adapter.id);
    if (runs === undefined) return { error: 'not measured' };
    const variants = SYSTEMS.map((s) => figures(s.label, runs.get(s.label)));
    return { ...variants[0], variants };
  },
  done() {
    measured = undefined;
    engines = [];
  },
};
