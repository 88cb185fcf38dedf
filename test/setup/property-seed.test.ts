// The run's seed (test/helpers/seed.ts, test/setup/property-seed.ts): read from
// PROPERTY_SEED, checked, and said by every failure with the command that
// replays it, which gives the same counterexample again.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseSeed, replayHint, seedFromEnv } from '../helpers/seed.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURE = 'test/setup/fixtures/failing-property.ts';
const dir = mkdtempSync(path.join(tmpdir(), 'robots-property-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** vitest in a child, on the fixture alone, with the project's setup; PROPERTY_SEED as given (or none). */
function runFixture(seed: string | undefined): { status: number | null; output: string } {
  const config = path.join(dir, 'vitest.config.mjs');
  writeFileSync(config, `export default { test: { root: ${JSON.stringify(ROOT)}, include: [${JSON.stringify(FIXTURE)}], setupFiles: ['./test/setup/property-seed.ts'] } };\n`);
  const env: NodeJS.ProcessEnv = { ...process.env, PROPERTY_SEED: seed, NO_COLOR: '1' };
  if (seed === undefined) delete env.PROPERTY_SEED;
  delete env.FORCE_COLOR;
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', config, '--root', ROOT], { cwd: ROOT, env, encoding: 'utf8', timeout: 50_000 });
  return { status: r.status, output: r.stdout + r.stderr };
}

const counterexample = (output: string) => /Counterexample: \[(-?\d+)\]/.exec(output)?.[1];

describe('the property seed', () => {
  it('is read from PROPERTY_SEED, an integer of 32 bits, or absent', () => {
    expect(parseSeed(undefined)).toBeUndefined();
    expect(parseSeed('')).toBeUndefined();
    expect(parseSeed('42')).toBe(42);
    expect(parseSeed('-2147483648')).toBe(-(2 ** 31));
    expect(parseSeed('4294967295')).toBe(2 ** 32 - 1);
    for (const bad of ['x', '1.5', '4294967296', '-2147483649', '0x']) expect(() => parseSeed(bad), bad).toThrow(/PROPERTY_SEED must be an integer/);
  });

  it('is PROPERTY_SEED, else FUZZ_SEED (the old name of escape-soup\'s), else none', () => {
    expect(seedFromEnv({ PROPERTY_SEED: '7', FUZZ_SEED: '9' })).toBe(7);
    expect(seedFromEnv({ FUZZ_SEED: '9' })).toBe(9);
    expect(seedFromEnv({ PROPERTY_SEED: '', FUZZ_SEED: '9' })).toBe(9);
    expect(seedFromEnv({})).toBeUndefined();
  });

  it('is said with the command that replays it', () => {
    expect(replayHint(42, 'test/engine/property.test.ts')).toBe('property seed 42; replay: PROPERTY_SEED=42 npx vitest run test/engine/property.test.ts');
  });

  // Two child runs of vitest (about 3 s each on a quiet machine, three times that beside other runs).
  it('is printed by a failed property and a failed hand-seeded test; replayed, the counterexample is the same', { timeout: 120_000 }, () => {
    const fresh = runFixture(undefined);
    expect(fresh.status).toBe(1);
    const seed = /property seed (-?\d+); replay: PROPERTY_SEED=\1 npx vitest run test\/setup\/fixtures\/failing-property\.ts/.exec(fresh.output)?.[1];
    expect(seed, fresh.output).toBeDefined();
    // Every test says it: the properties (sync and async) in their errors, the hand-seeded one on stderr.
    expect(fresh.output).toMatch(/Tests {2}3 failed/);
    expect(fresh.output.split(replayHint(Number(seed), FIXTURE)).length - 1).toBeGreaterThanOrEqual(3);
    expect(fresh.output).toContain(`seed: ${seed}`); // fast-check ran on it
    const again = runFixture(seed);
    expect(again.status).toBe(1);
    expect(counterexample(again.output), again.output).toBe(counterexample(fresh.output));
    expect(counterexample(fresh.output)).toBeDefined();
  });
});
