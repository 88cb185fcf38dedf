// first-verdict's rounds (bench/rounds.mjs): every engine a turn a round in a changing order,
// the passes pooled, the clock CPU time only when every driver can; and the native driver
// built to time in thread CPU (google-check-cpu) gives google-check's verdicts and CPU time.
import { describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mergeRounds, roundBudget, runInRounds, turnOrder, ROUNDS, PASSES } from '../../bench/rounds.mjs';
import { NATIVE_BIN, NATIVE_CPU_BIN } from '../../bench/peers/paths.mjs';

describe('turnOrder', () => {
  it('gives no engine the same predecessor in every round', () => {
    const ids = ['a', 'b', 'n'];
    const before = new Map(ids.map((id) => [id, new Set<string>()]));
    let last: string | undefined;
    for (let r = 0; r < ROUNDS; r++) {
      const order = turnOrder(ids, r);
      expect([...order].sort()).toEqual(ids);
      for (const id of order) {
        if (last !== undefined && last !== id) before.get(id)!.add(last);
        last = id;
      }
    }
    for (const id of ids) expect(before.get(id)!.size, id).toBe(2);
  });
});

describe('mergeRounds', () => {
  it("pools every round's passes (median, slowest, fastest) and scales files/s by each round's ratio", () => {
    const m = mergeRounds([
      { median: 2, min: 1, max: 3, passes: [3, 2, 1], filesPerSecond: { median: 20, min: 10, max: 30 }, units: 5, note: 'n' },
      { median: 5, min: 4, max: 6, passes: [6, 5, 4], filesPerSecond: { median: 50, min: 40, max: 60 }, units: 5 },
    ]);
    expect(m).toMatchObject({ median: 4, min: 1, max: 6, samples: 6, rounds: 2, units: 5, note: 'n', filesPerSecond: { median: 40, min: 10, max: 60 } });
    expect(m).not.toHaveProperty('passes');
  });
  it("takes the median of the rounds' figures with the first check (parse's note)", () => {
    const m = mergeRounds([3, 1, 2].map((c) => ({ median: 1, passes: [1], firstCheckMBps: c })));
    expect(m.firstCheckMBps).toBe(2);
  });
  it('gives the error of a round that failed', () => {
    expect(mergeRounds([{ median: 1, passes: [1] }, { error: 'boom' }])).toEqual({ error: 'boom' });
  });
});

describe('runInRounds', () => {
  const workload = { id: 'first-verdict' };
  const inProcess = (id: string, log: string[], seen: object[]) => ({ id, run: async (ctx: { budget: object }) => { log.push(id); seen.push(ctx.budget); return { median: 1, passes: Array(PASSES).fill(1) }; } });
  const driver = (id: string, log: string[], cpuClock: boolean, clocks: string[]) => ({
    id, ownProcess: true, cpuClock,
    runRound: async (_w: object, ctx: { roundClock: string }) => { log.push(id); clocks.push(ctx.roundClock); return { median: 2, passes: [2, 2, 2, 2, 2, 2] }; },
  });
  const run = async (cpuClock: boolean) => {
    const log: string[] = [];
    const budgets: object[] = [];
    const clocks: string[] = [];
    const a = inProcess('a', log, budgets);
    const wl = { ...workload, run: (ctx: { budget: object }, adapter: { run: (ctx: { budget: object }) => Promise<object> }) => adapter.run(ctx) };
    const results = await runInRounds(wl, [a, driver('n', log, cpuClock, clocks)], { quick: false, budget: { time: 1200, iterations: 8, warmupTime: 200, warmupIterations: 2 } });
    return { log, budgets, clocks, results };
  };
  it('gives each engine one turn a round, CPU time when every driver can time so', async () => {
    const { log, budgets, clocks, results } = await run(true);
    expect(log).toHaveLength(2 * ROUNDS);
    expect(log.filter((id) => id === 'a')).toHaveLength(ROUNDS);
    expect(log.slice(0, 2)).toEqual(turnOrder(['a', 'n'], 0));
    expect(log.slice(2, 4)).toEqual(turnOrder(['a', 'n'], 1));
    expect(log.slice(2, 4)).toEqual(['n', 'a']); // two engines: each first in every other round
    expect(clocks.every((c) => c === 'cpu')).toBe(true);
    expect(budgets[0]).toMatchObject({ time: 0, iterations: PASSES, keepPasses: true });
    expect(typeof (budgets[0] as { now?: unknown }).now).toBe('function');
    expect(results.get('a')).toMatchObject({ median: 1, samples: PASSES * ROUNDS, rounds: ROUNDS, clock: 'cpu' });
    expect(results.get('n')).toMatchObject({ median: 2, clock: 'cpu' });
  });
  it('times every engine in wall clock when a driver cannot time in CPU', async () => {
    const { budgets, clocks, results } = await run(false);
    expect(clocks.every((c) => c === 'wall')).toBe(true);
    expect(budgets[0]).not.toHaveProperty('now');
    expect(results.get('a')).toMatchObject({ clock: 'wall' });
  });
  it("shares no time budget out: a turn's passes are counted, not timed", () => {
    expect(roundBudget({ time: 1200, iterations: 8 })).toMatchObject({ time: 0, iterations: PASSES, warmupIterations: 3 });
  });
});

const HAVE_NATIVE = existsSync(NATIVE_CPU_BIN) && existsSync(NATIVE_BIN);
if (!HAVE_NATIVE) console.warn(`[tests] ${path.relative(process.cwd(), NATIVE_CPU_BIN)} is not built: its check against google-check is skipped (apt-get install -y g++ pkg-config libabsl-dev, then npm run build:peers)`);

describe.skipIf(!HAVE_NATIVE)('google-check-cpu', () => {
  it("gives google-check's verdicts, and times its phases in CPU time: a stop of the process is not in them", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'robots-rounds-'));
    try {
      writeFileSync(path.join(dir, 'host'), 'User-agent: *\nDisallow: /private\nAllow: /private/public\n'.repeat(20000));
      const urls = ['https://h/private/x', 'https://h/private/public', 'https://h/'];
      const probes = path.join(dir, 'probes.tsv');
      writeFileSync(probes, urls.map((u) => `host\t${u}\n`).join(''));
      const verdicts = (bin: string) => execFileSync(bin, ['--verdicts', dir, probes, 'Googlebot'], { encoding: 'utf8' });
      expect(verdicts(NATIVE_CPU_BIN)).toBe(verdicts(NATIVE_BIN));
      // ~1 s of CPU in repetitions (1.2 MB parsed 5 times each), stopped (SIGSTOP) for 0.8 s of it: in wall clock the phases would hold the stop.
      const child = spawn(NATIVE_CPU_BIN, ['--bench', dir, probes, 'Googlebot', '40'], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const t0 = performance.now();
      setTimeout(() => { child.kill('SIGSTOP'); setTimeout(() => child.kill('SIGCONT'), 800); }, 150);
      await new Promise((resolve) => child.on('close', resolve));
      const wall = (performance.now() - t0) / 1000;
      const phases = [...stderr.matchAll(/(\w+) ([\d.]+)s/g)].reduce((sum, m) => sum + Number(m[2]), 0);
      expect(wall).toBeGreaterThan(0.8);
      expect(phases).toBeGreaterThan(0);
      expect(phases).toBeLessThan(wall - 0.6);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
