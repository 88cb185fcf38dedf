// The fork effect, measured: passes of parse + compile + first verdict over the
// corpus (as the first-verdict workload's), two before and four after a child
// process, started by this process (spawnSync('true'): a fork of it) or by the
// bench's spawner (spawner.mjs: no fork here), in rounds alternating the two.
// Each pass's CPU time (this process) and minor page faults: after a fork every
// page this process writes is copied on its first write (the young generation's
// two semi-spaces, the core's memory), and the next passes pay for it.
import { spawnSync } from 'node:child_process';
import { run } from './spawner.mjs';
import { firstWalked } from './workloads/parse-compile.mjs';

/** How a round's child is started. */
export const CHILDREN = {
  fork: { label: 'after spawnSync (a fork of this process)', start: async () => void spawnSync('true') },
  spawner: { label: "after the spawner's child (no fork here)", start: async () => void (await run('true', [])) },
};

const cpuMs = () => {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
};

/**
 * rounds × (each child way): 3 untimed passes, 2 timed before the child, 4 after.
 * Returns, per way, each of the 6 pass positions' figures over the rounds.
 * engine: { parse(file, agent) → handle, isAllowed(handle, url), release?(handle) }.
 */
export async function measureForkEffect(engine, files, agent, rounds) {
  const probes = files.map((f) => firstWalked(f));
  const release = engine.release ?? (() => {});
  let sink = 0;
  const pass = () => {
    const c0 = cpuMs();
    const f0 = process.resourceUsage().minorPageFault;
    for (let i = 0; i < files.length; i++) {
      const h = engine.parse(files[i], agent);
      sink += engine.isAllowed(h, probes[i]) ? 1 : 0;
      release(h);
    }
    return { ms: cpuMs() - c0, faults: process.resourceUsage().minorPageFault - f0 };
  };
  /** way → pass position → figures of the rounds */
  const seen = Object.fromEntries(Object.keys(CHILDREN).map((w) => [w, Array.from({ length: 6 }, () => /** @type {{ ms: number, faults: number }[]} */ ([]))]));
  for (let r = 0; r < rounds; r++) {
    const ways = Object.keys(CHILDREN);
    for (const way of r % 2 ? ways.reverse() : ways) {
      for (let i = 0; i < 3; i++) pass();
      const passes = [pass(), pass()];
      await CHILDREN[way].start();
      passes.push(pass(), pass(), pass(), pass());
      passes.forEach((p, i) => seen[way][i].push(p));
    }
  }
  if (sink < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
  return seen;
}
