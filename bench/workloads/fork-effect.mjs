// The fork effect (this engine against itself, not in the headline): the first
// pass of parse + compile + first verdict over the corpus right after a child
// process, against the passes before it, with the child forked from this process
// and with it started by the bench's spawner (what the bench's own children do).
// It forks this process on purpose: the last workload, so that nothing timed in
// this process comes after it.
import { measureForkEffect, CHILDREN } from '../fork-effect.mjs';

const rounds = (quick) => (quick ? 2 : 7);
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const count = (xs) => median(xs).toLocaleString('en');

export default {
  id: 'fork-effect',
  title: 'After a child process: the next pass of first-verdict',
  kind: 'self',
  unit: '×',
  needsCorpus: true,
  appliesTo: (adapter) => adapter.id === 'wasm-google',
  describe: (ctx) => `parse + compile + first verdict over the corpus, the first pass after a child process against the two before it, in this process's CPU time: the child forked from this process (spawnSync), or started by the bench's spawner; median of ${rounds(ctx.quick)} rounds, the ways alternating`,
  async run(ctx, adapter) {
    const seen = await measureForkEffect(adapter, ctx.corpus(), ctx.agent, rounds(ctx.quick));
    const variants = Object.entries(CHILDREN).map(([way, { label }]) => {
      const [b1, b2, a1, a2] = seen[way];
      const perRound = a1.map((p, r) => p.ms / ((b1[r].ms + b2[r].ms) / 2));
      const before = median([...b1, ...b2].map((p) => p.ms));
      return {
        label,
        median: median(perRound),
        min: Math.min(...perRound),
        max: Math.max(...perRound),
        samples: perRound.length,
        note: `${before.toFixed(1)} ms a pass before (${count([...b1, ...b2].map((p) => p.faults))} minor faults), ${median(a1.map((p) => p.ms)).toFixed(1)} and ${median(a2.map((p) => p.ms)).toFixed(1)} ms the two after (${count(a1.map((p) => p.faults))} and ${count(a2.map((p) => p.faults))} faults)`,
      };
    });
    return { ...variants[0], variants };
  },
};
