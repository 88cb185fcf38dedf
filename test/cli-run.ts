// Runs the built `robots` command (dist/cli.js) as a subprocess, as a user would.
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Where the command's stdout and stderr go instead of pipes (say /dev/full; they read ''), and as whom it runs. */
export interface RunWith {
  stdout?: string;
  stderr?: string;
  uid?: number;
}

/** Runs the command. */
export function robots(args: string[], input?: string | Uint8Array, io: RunWith = {}): Run {
  const out = io.stdout === undefined ? undefined : openSync(io.stdout, 'w');
  const err = io.stderr === undefined ? undefined : openSync(io.stderr, 'w');
  try {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      env: { ...process.env, ROBOTS_DEBUG: '' },
      stdio: ['pipe', out ?? 'pipe', err ?? 'pipe'],
      timeout: 60_000, // a command that hangs fails its test (status null) rather than hanging the suite
      ...(io.uid === undefined ? {} : { uid: io.uid, gid: io.uid }),
    });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
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
