// The command run in a host process that runs it run after run (test/helpers/cli-host-child.mjs, which says what a
// run there meets: a process's arguments, environment, descriptors 0 to 2, exit status and end). A suite's worker
// keeps up to MAX_HOSTS of them, one run at a time each, started at its first run and gone with the worker. A run
// that outlives its limit is killed with its host (status null, as a killed process); a run that calls
// process.exit() ends its host with that status, which is the run's. Why: ~1,100 runs of the command a suite run
// cost ~0.2 CPU-s each in a process of their own, three quarters of it Node's start and the command's compile
// (docs/testing.md).
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./cli-host-child.mjs', import.meta.url));
/** As many hosts as runs a test starts at once, up to the cores a run's processes would have shared. */
const MAX_HOSTS = 2;

interface Host {
  /** The program it runs. */
  cli: string;
  child: ChildProcess;
  dir: string;
  input: string;
  stdout: string;
  stderr: string;
  /** Set when it has exited, or is about to (its run crashed): not taken again. */
  ended: boolean;
}

const idle: Host[] = [];
const all = new Set<Host>();
const waiting: { cli: string; take: (host: Host) => void }[] = [];

function startHost(cli: string): Host {
  const dir = mkdtempSync(path.join(tmpdir(), 'robots-cli-host-'));
  const [input, stdout, stderr] = ['input', 'stdout', 'stderr'].map((name) => path.join(dir, name));
  writeFileSync(input, '');
  const fds = [openSync(input, 'r'), openSync(stdout, 'a'), openSync(stderr, 'a')];
  const child = spawn(process.execPath, [CHILD, cli, input], { stdio: [...fds, 'ipc'] });
  for (const fd of fds) closeSync(fd);
  const host: Host = { cli, child, dir, input, stdout, stderr, ended: false };
  child.once('exit', () => {
    host.ended = true;
    all.delete(host);
    const at = idle.indexOf(host);
    if (at !== -1) idle.splice(at, 1);
  });
  all.add(host);
  return host;
}

/** A host out of the pool: killed if it runs still, its folder removed. */
function retire(host: Host): void {
  all.delete(host);
  if (!host.ended) host.child.kill('SIGKILL');
  rmSync(host.dir, { recursive: true, force: true });
}

process.once('exit', () => {
  for (const host of all) retire(host);
});

async function takeHost(cli: string): Promise<Host> {
  const at = idle.findIndex((host) => host.cli === cli);
  if (at !== -1) return idle.splice(at, 1)[0];
  // An idle host of another program gives way.
  if (all.size >= MAX_HOSTS && idle.length > 0) retire(idle.shift()!);
  if (all.size < MAX_HOSTS) return startHost(cli);
  return new Promise((take) => waiting.push({ cli, take }));
}

function giveBack(host: Host): void {
  const next = waiting.shift();
  if (!host.ended && (next === undefined || next.cli === host.cli)) {
    if (next === undefined) idle.push(host);
    else next.take(host);
    return;
  }
  retire(host);
  if (next !== undefined) next.take(startHost(next.cli));
}

export interface HostRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command (cli: the built dist/cli.js) with these arguments, input and environment in a host. */
export async function runInHost(cli: string, args: string[], input: string | Uint8Array | undefined, env: Record<string, string | undefined>, killAfterMs: number): Promise<HostRun> {
  const host = await takeHost(cli);
  try {
    writeFileSync(host.input, input ?? '');
    const status = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => host.child.kill('SIGKILL'), killAfterMs);
      const onMessage = (m: { status: number; last: boolean }) => {
        // (A host whose run crashed ends after its reply.)
        if (m.last) host.ended = true;
        done(m.status);
      };
      const onExit = (code: number | null) => done(code);
      const done = (s: number | null) => {
        clearTimeout(timer);
        host.child.off('message', onMessage).off('exit', onExit).off('error', reject);
        resolve(s);
      };
      host.child.on('message', onMessage).once('exit', onExit).once('error', reject);
      host.child.send({ args, env });
    });
    const run = { status, stdout: readFileSync(host.stdout, 'utf8'), stderr: readFileSync(host.stderr, 'utf8') };
    // (Not kept until the next run: a test's input or output may be hundreds of MB.)
    for (const file of [host.input, host.stdout, host.stderr]) truncateSync(file);
    return run;
  } finally {
    giveBack(host);
  }
}
