// The fork-effect workload's measure: after a child forked from this process the
// next pass takes copy-on-write page faults; after a child of the bench's spawner
// it does not (counts of faults, not times). The engine's own resident memory is
// too small now to show it reliably (the library's core is 2 pages), so the
// test's engine also writes one page of a resident 2 MiB buffer per file, as a
// larger heap would: what the measure must see is those pages copied after a fork.
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../bench/corpus.mjs';
import { measureForkEffect } from '../../bench/fork-effect.mjs';
import forkEffect from '../../bench/workloads/fork-effect.mjs';
import { WORKLOADS } from '../../bench/workloads/index.mjs';
import { parse } from '../../dist/index.js';

const PAGE = 4096;
const resident = new Uint8Array(512 * PAGE);
let written = 0;
const engine = {
  parse: (file: { bytes: Uint8Array }, agent: string) => {
    resident[(written++ % 512) * PAGE] = written & 0xff;
    return parse(file.bytes, { profile: 'google', maxBytes: Infinity }).compile(agent);
  },
  isAllowed: (m: { isAllowed(url: string): boolean }, url: string) => m.isAllowed(url),
  release: (m: { dispose(): void }) => m.dispose(),
};

describe('the fork effect', () => {
  it("counts more page faults in the pass right after a fork of this process than after the spawner's child", { timeout: 240_000 /* passes over 500 corpus files and two children, on a machine shared with other runs */ }, async () => {
    const files = loadCorpus({ limit: 500 });
    const seen = await measureForkEffect(engine, files, 'Googlebot', 2);
    for (const way of ['fork', 'spawner'] as const) {
      expect(seen[way]).toHaveLength(6);
      for (const pass of seen[way]) expect(pass).toHaveLength(2);
    }
    const firstAfter = (way: 'fork' | 'spawner') => Math.min(...seen[way][2].map((p: { faults: number }) => p.faults));
    expect(firstAfter('fork')).toBeGreaterThan(firstAfter('spawner') + 100);
  });

  it('is the last workload of the run: it forks the measuring process', () => {
    expect(WORKLOADS.at(-1)).toBe(forkEffect);
    expect(forkEffect.appliesTo({ id: 'wasm-google' })).toBe(true);
    expect(forkEffect.appliesTo({ id: 'robots-parser' })).toBe(false);
  });
});
