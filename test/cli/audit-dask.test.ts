// The whole audit map/reduce as tasks of Dask distributed (docs/bulk.md, "On
// Dask distributed"; scripts/audit-dask.py): a scheduler and two workers on
// 127.0.0.1, started here and stopped here (each in a process group of its
// own, killed whole, checked gone, pass or fail), then a task per WARC (robots
// index), a task per shard (robots audit --shard i/N --summary), and the merge:
// its summary equal to one machine's run over the same WARCs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLI, robots } from '../helpers/cli-run.js';
import { corpusWarcs } from '../helpers/corpus-warcs.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CORPUS = path.join(SHARED, 'corpus', 'robots');

/** A Python that has Dask distributed: Debian's python3-distributed is /usr/bin/python3's, which another python3 on PATH may not see. */
function daskPython(): string | undefined {
  return [process.env.PYTHON, 'python3', '/usr/bin/python3'].find((p) => p !== undefined && spawnSync(p, ['-c', 'import distributed'], { stdio: 'ignore' }).status === 0);
}
const PYTHON = daskPython();
// CI installs python3-distributed (.ci/run): there a skip would pass silently.
const HAVE_DASK = PYTHON !== undefined || process.env.CI === 'true';
const why = HAVE_DASK ? '' : ' (skipped: Dask distributed is not installed; apt-get install python3-distributed)';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-dask-'));
const at = (name: string) => path.join(dir, name);
const started: ChildProcess[] = [];

/** A process group's members still alive. */
function alive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopAll(): Promise<void> {
  for (const child of started) if (child.pid !== undefined && alive(child.pid)) process.kill(-child.pid, 'SIGTERM');
  // A process that ignores SIGTERM for 10 s (a busy machine's slow shutdown) is killed.
  for (let i = 0; i < 100 && started.some((c) => c.pid !== undefined && alive(c.pid)); i++) await new Promise((r) => setTimeout(r, 100));
  for (const child of started) if (child.pid !== undefined && alive(child.pid)) process.kill(-child.pid, 'SIGKILL');
  for (let i = 0; i < 50 && started.some((c) => c.pid !== undefined && alive(c.pid)); i++) await new Promise((r) => setTimeout(r, 100));
}

/** A Dask process in a group of its own (its children die with it); its output kept for the error. */
function daskProcess(module: string, args: string[], log: string[]): ChildProcess {
  const child = spawn(PYTHON!, ['-m', module, ...args], { cwd: dir, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.on('data', (d) => log.push(String(d)));
  started.push(child);
  return child;
}

async function waitFor(what: string, ready: () => boolean, log: string[], guardMs: number): Promise<void> {
  const end = Date.now() + guardMs;
  while (!ready()) {
    if (Date.now() > end || started.some((c) => c.exitCode !== null)) throw new Error(`${what} did not start:\n${log.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

afterAll(async () => {
  await stopAll();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!HAVE_SHARED)('audit on Dask distributed', () => {
  const log: string[] = [];
  const schedulerFile = at('scheduler.json');
  let warcs: string[];

  beforeAll(async () => {
    if (!HAVE_DASK) return;
    if (PYTHON === undefined) throw new Error('CI=true but no python3 imports distributed: .ci/run installs python3-distributed');
    const hosts = readdirSync(CORPUS).sort();
    // (The corpus in three WARCs, written once a run by warcio: test/helpers/corpus-warcs.ts.)
    warcs = (await corpusWarcs()).parts;
    writeFileSync(at('ranks.csv'), hosts.map((h, i) => `${i * 250 + 1},${h}`).join('\n') + '\n');
    // The scheduler ends itself after 10 idle minutes, the workers a minute after it: none outlives a test run killed hard.
    daskProcess('distributed.cli.dask_scheduler', ['--host', '127.0.0.1', '--port', '0', '--no-dashboard', '--scheduler-file', schedulerFile, '--idle-timeout', '600'], log);
    await waitFor('the scheduler', () => existsSync(schedulerFile), log, 120_000);
    for (const name of ['w1', 'w2']) {
      mkdirSync(at(name));
      daskProcess('distributed.cli.dask_worker', ['--scheduler-file', schedulerFile, '--host', '127.0.0.1', '--nthreads', '1', '--no-nanny', '--no-dashboard', '--death-timeout', '60', '--local-directory', at(name), '--name', name], log);
    }
    await waitFor('two workers', () => log.join('').split('Registered to:').length - 1 >= 2, log, 180_000);
    // Starting Python and Dask on a loaded machine: minutes at worst (hang guards only).
  }, 600_000);

  it.skipIf(!HAVE_DASK)(`a task per WARC, a task per shard, the merge: the one machine's summary${why}`, { timeout: 900_000 }, async () => {
    const script = spawn(PYTHON!, [path.join(ROOT, 'scripts/audit-dask.py'), '--scheduler-file', schedulerFile, '--shards', '3', '--work', at('work'),
      '--robots', `${process.execPath} ${CLI}`, ...warcs, '--', '--ranks', at('ranks.csv'), '--crawlers', 'GPTBot,CCBot,Googlebot'], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(script);
    let stdout = '';
    let stderr = '';
    script.stdout!.on('data', (d) => (stdout += d));
    script.stderr!.on('data', (d) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => script.on('close', resolve));
    expect(status, `${stderr}\n${log.join('')}`).toBe(0);
    expect(stdout.trim()).toBe(at('work/summary.json'));
    // An index per WARC; both workers took tasks (three index tasks, three audit tasks and the merge, on one thread each).
    expect(readdirSync(at('work/idx')).sort()).toEqual(['0', '1', '2']);
    expect(stderr).toMatch(/^audit-dask: 3 index tasks, 3 audit tasks and the merge, on w1, w2$/m);

    const one = await robots(['audit', ...warcs.flatMap((w) => ['--robots-warc', w]), '--ranks', at('ranks.csv'), '--crawlers', 'GPTBot,CCBot,Googlebot', '--summary', at('one.json'), '-q', '--out', '/dev/null'], undefined, { killAfterMs: 600_000 });
    expect(one.status).toBe(0);
    const merged = JSON.parse(readFileSync(at('work/summary.json'), 'utf8'));
    expect(merged).toEqual(JSON.parse(readFileSync(at('one.json'), 'utf8')));
    expect(merged.sites).toBe(4241);
    // The sites' lines of the shards are the one machine's, in another order.
    const rows = [0, 1, 2].flatMap((i) => readFileSync(at(`work/sites/${i}.tsv`), 'utf8').split('\n').slice(1).filter((l) => l !== ''));
    expect(rows.length).toBe(4241);
  });

  it.skipIf(!HAVE_DASK)(`the scheduler and the workers are stopped, none left behind${why}`, { timeout: 120_000 }, async () => {
    const groups = started.map((c) => c.pid!).filter((p) => p !== undefined);
    await stopAll();
    expect(groups.filter(alive)).toEqual([]);
  });
});
