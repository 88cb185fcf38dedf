// Runs the built `robots` command (dist/cli.js) as a subprocess, as a user would.
// Asynchronously: a test's worker must keep its event loop turning (vitest's RPC
// with it times out after 60 s; see test/setup/event-loop.ts), and a test of ten
// commands run with spawnSync held it for over a minute on a loaded machine.
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { cliForAnyone } from './cli-for-anyone.js';

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
}

/** A command that hangs fails its test (status null) rather than hanging the suite. */
const TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 1 << 30;

/** Runs the command: its exit status (null when killed), and what it wrote. */
export async function robots(args: string[], input?: string | Uint8Array, io: RunWith = {}): Promise<Run> {
  const out = io.stdout === undefined ? undefined : openSync(io.stdout, 'w');
  const err = io.stderr === undefined ? undefined : openSync(io.stderr, 'w');
  try {
    const cli = io.uid === undefined ? CLI : cliForAnyone();
    const child = spawn(process.execPath, [cli, ...args], {
      // (Another user starts in the copy's folder: the clone's may be out of its reach.)
      ...(io.uid === undefined ? {} : { cwd: path.dirname(cli) }),
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
