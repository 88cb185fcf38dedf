// test/helpers/made-once.ts: files shared by the suites of a run are made once,
// whoever asks first, when the run's workers (processes) ask at the same moment;
// a lock left by a maker that died is taken over; a maker that fails leaves
// nothing that reads as made; a run's folder left by a run killed before its
// end is removed by the next run, one of a run under way kept. The helper is
// bundled (esbuild) for child processes of node, as the workers are.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRunFolder, RUN_FOLDER_VARIABLE } from './run-folder.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-made-once-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HELPER = path.join(dir, 'made-once.mjs');
buildSync({ entryPoints: [path.resolve(import.meta.dirname, '../helpers/made-once.ts')], bundle: true, format: 'esm', platform: 'node', outfile: HELPER, logLevel: 'silent' });

// A worker: asks for "thing", whose maker notes who made it and takes a while (so that the others ask meanwhile).
const WORKER = path.join(dir, 'worker.mjs');
writeFileSync(WORKER, `
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { madeOnce } from ${JSON.stringify(HELPER)};
const made = await madeOnce('thing', async (folder) => {
  appendFileSync(process.env.MAKERS, process.pid + '\\n');
  await new Promise((resolve) => setTimeout(resolve, 500));
  writeFileSync(path.join(folder, 'content'), 'made by ' + process.pid);
});
process.stdout.write(made);
`);

function worker(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('made once a run', () => {
  // Starting four node processes: seconds on a loaded machine (a hang guard).
  it('four processes asking at once: one maker, the same folder for all, whole', { timeout: 120_000 }, async () => {
    const run = path.join(dir, 'run1');
    mkdirSync(run);
    const makers = path.join(dir, 'makers1');
    const all = await Promise.all(Array.from({ length: 4 }, () => worker({ [RUN_FOLDER_VARIABLE]: run, MAKERS: makers })));
    for (const r of all) expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(makers, 'utf8').trim().split('\n')).toHaveLength(1);
    expect(new Set(all.map((r) => r.stdout))).toEqual(new Set([path.join(run, 'thing')]));
    expect(readFileSync(path.join(run, 'thing', 'content'), 'utf8')).toMatch(/^made by \d+$/);
    // Nothing else left: no lock, no folder being built.
    expect(readdirSync(run)).toEqual(['thing']);
  });

  it("a lock left by a maker that died is taken over", { timeout: 120_000 }, async () => {
    const run = path.join(dir, 'run2');
    mkdirSync(path.join(run, 'thing.lock'), { recursive: true });
    // The pid of a process that has ended.
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('close', resolve));
    writeFileSync(path.join(run, 'thing.lock', 'pid'), String(gone.pid));
    const makers = path.join(dir, 'makers2');
    const r = await worker({ [RUN_FOLDER_VARIABLE]: run, MAKERS: makers });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(path.join(run, 'thing'));
    expect(readdirSync(run)).toEqual(['thing']);
  });

  it('a maker that fails: the error, nothing made, the next one makes it', { timeout: 120_000 }, async () => {
    const run = path.join(dir, 'run3');
    mkdirSync(run);
    const failing = path.join(dir, 'failing.mjs');
    writeFileSync(failing, `
import { madeOnce } from ${JSON.stringify(HELPER)};
await madeOnce('thing', async () => { throw new Error('the maker failed'); });
`);
    const failed = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [failing], { env: { ...process.env, [RUN_FOLDER_VARIABLE]: run } });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.once('close', (status) => resolve({ status, stderr }));
    });
    expect(failed.status).not.toBe(0);
    expect(failed.stderr).toContain('the maker failed');
    expect(readdirSync(run)).toEqual([]);
    const r = await worker({ [RUN_FOLDER_VARIABLE]: run, MAKERS: path.join(dir, 'makers3') });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(path.join(run, 'thing', 'content'))).toBe(true);
  });
});

describe("the run's folder", () => {
  it('a new run removes the folders of runs whose process is gone, and keeps those of runs under way', { timeout: 120_000 }, async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('close', resolve));
    const left = mkdtempSync(path.join(tmpdir(), 'robots-test-run-'));
    writeFileSync(path.join(left, 'owner.pid'), String(gone.pid));
    mkdirSync(path.join(left, 'corpus-warcs'));
    const running = mkdtempSync(path.join(tmpdir(), 'robots-test-run-'));
    writeFileSync(path.join(running, 'owner.pid'), String(process.pid));
    const mine = makeRunFolder();
    try {
      expect(existsSync(left)).toBe(false);
      expect(existsSync(running)).toBe(true);
      expect(readFileSync(path.join(mine, 'owner.pid'), 'utf8')).toBe(String(process.pid));
    } finally {
      for (const f of [left, running, mine]) rmSync(f, { recursive: true, force: true });
    }
  });
});
