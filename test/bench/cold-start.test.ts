// The cold-start workload compares like for like: each engine's own package
// imported in a fresh process (no bench module between the clocks), as an ES
// module and with require(), engines and module systems alternating.
import { describe, expect, it } from 'vitest';
import coldStart from '../../bench/workloads/cold-start.mjs';

const ctx = { agent: 'Googlebot', quick: true };

describe('cold-start workload', () => {
  it('gives each engine an ESM and a CommonJS row, each with its import and first-verdict parts and the process wall time; a package require() cannot load says so', { timeout: 180_000 /* 30 node processes on a machine shared with other runs */ }, async () => {
    const adapters = [{ id: 'wasm-google' }, { id: 'robots-parser' }, { id: 'exclusion' }];
    expect(adapters.every((a) => coldStart.appliesTo(a))).toBe(true);
    expect(coldStart.appliesTo({ id: 'wasm-google-batch' })).toBe(false);
    coldStart.prepare(ctx, adapters);
    try {
      for (const adapter of adapters) {
        const r = await coldStart.run(ctx, adapter);
        expect(r.variants.map((v: { label: string }) => v.label)).toEqual(['ESM', 'CommonJS']);
        expect(r.median).toBe(r.variants[0].median);
        for (const v of r.variants) {
          if (adapter.id === 'exclusion' && v.label === 'CommonJS') {
            expect(v.error).toMatch(/^no CommonJS: /);
            continue;
          }
          expect(v.samples).toBe(5);
          expect(v.coldStartParts.importMs).toBeGreaterThan(0);
          expect(v.coldStartParts.verdictMs).toBeGreaterThan(0);
          expect(v.coldStartParts.importMs + v.coldStartParts.verdictMs).toBeLessThanOrEqual(v.max + 1e-9);
          expect(v.processWallMs).toBeGreaterThan(v.median);
        }
      }
    } finally {
      coldStart.done();
    }
  });
});
