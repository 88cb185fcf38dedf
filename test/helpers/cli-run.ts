// Runs the built `robots` command (dist/cli.js) as a user would: in a process of its own where the test is about
// the process (where its output goes, whom it runs as, or asked), else in a host process that runs it run after
// run as a process would (test/helpers/cli-host.ts; ROBOTS_TEST_CLI=process: every run a process).
// Asynchronously: a test's worker must keep its event loop turning (vitest's RPC
// with it times out after 60 s; see test/setup/event-loop.ts), and a test of ten
// commands run with spawnSync held it for over a minute on a loaded machine.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { cliForAnyone } from './cli-for-anyone.js';
import { runInHost } from './cli-host.js';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Where the command's stdout and stderr go instead of pipes (say /dev/full; they read ''), and as whom it runs. */
export interface RunWith {
  stdout?: string;
  stderr?: string;
  /** Run as this user (and its group): from a copy of the command that user can read (test/helpers/cli-for-anyone.ts). */
  uid?: number;
  /** More environment (say TMPDIR: a folder of the test's own, where no other test's command writes). */
  env?: Record<string, string>;
  /** Kill it after this long (default TIMEOUT_MS): for a run whose work is large, with its test's own longer timeout. */
  killAfterMs?: number;
  /** A process of its own, for a test about the process (its signals, its pipes, its start): other runs share hosts. */
  process?: boolean;
}

/** ROBOTS_TEST_CLI=process: every run in a process of its own, as before the hosts (test/helpers/cli-host.ts). */
const HOSTS = process.env.ROBOTS_TEST_CLI !== 'process';
/** The variables the command reads when it needs them (os.tmpdir(), its error report), which a host's run can set. */
const READ_AT_EACH_RUN = new Set(['TMPDIR', 'ROBOTS_DEBUG']);

/** A command that hangs fails its test (status null) rather than hanging the suite. */
const TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 1 << 30;

/** Runs the command: its exit status (null when killed), and what it wrote. */
export async function robots(args: string[], input?: string | Uint8Array, io: RunWith = {}): Promise<Run> {
  // Where what it writes goes, whom it runs as, and variables read once a process (Node's NODE_OPTIONS at its
  // start, ROBOTS_INDEX_STRETCH_OCTETS as its module loads) are a process's own; the rest runs in a host
  // (test/helpers/cli-host.ts).
  const readOnce = Object.keys(io.env ?? {}).some((name) => !READ_AT_EACH_RUN.has(name));
  if (HOSTS && io.stdout === undefined && io.stderr === undefined && io.uid === undefined && !readOnce && io.process !== true) {
    return runInHost(CLI, args, input, { ...process.env, ROBOTS_DEBUG: '', ...io.env }, io.killAfterMs ?? TIMEOUT_MS);
  }
  return runProcess(io.uid === undefined ? CLI : cliForAnyone(), args, input, io);
}

/** Runs a Node program (the command, or another: test/setup/cli-host.test.ts) in a process of its own. */
export async function runProcess(program: string, args: string[], input?: string | Uint8Array, io: RunWith = {}): Promise<Run> {
  const out = io.stdout === undefined ? undefined : openSync(io.stdout, 'w');
  const err = io.stderr === undefined ? undefined : openSync(io.stderr, 'w');
  try {
    const child = spawn(process.execPath, [program, ...args], {
      // (Another user starts in the copy's folder: the clone's may be out of its reach.)
      ...(io.uid === undefined ? {} : { cwd: path.dirname(program) }),
      env: { ...process.env, ROBOTS_DEBUG: '', ...io.env },
      stdio: ['pipe', out ?? 'pipe', err ?? 'pipe'],
      ...(io.uid === undefined ? {} : { uid: io.uid, gid: io.uid }),
    });
    const collect = (stream: NodeJS.ReadableStream | null) => {
      const chunks: Buffer[] = [];
      let size = 0;
      stream?.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_OUTPUT) child.kill('SIGKILL');
        else chunks.push(c);
      });
      return () => Buffer.concat(chunks).toString('utf8');
    };
    const stdout = collect(child.stdout);
    const stderr = collect(child.stderr);
    // The command may exit before it reads all its input (a usage error): EPIPE then is no failure of the test.
    child.stdin!.on('error', () => {});
    child.stdin!.end(input);
    const timer = setTimeout(() => child.kill('SIGTERM'), io.killAfterMs ?? TIMEOUT_MS);
    const status = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => resolve(code));
    }).finally(() => clearTimeout(timer));
    return { status, stdout: stdout(), stderr: stderr() };
  } finally {
    if (out !== undefined) closeSync(out);
    if (err !== undefined) closeSync(err);
  }
}
/** A user's mistake: exit 2, one line on stderr starting "robots: ", no stack trace, nothing on stdout. */
export function expectUsageError(r: Run, mentions: RegExp): void {
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^robots: /);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).toMatch(mentions);
}
