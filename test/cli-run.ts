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

/** Runs the command; with stdoutFile, its stdout is that file (say /dev/full) and stdout reads ''. */
export function robots(args: string[], input?: string | Uint8Array, stdoutFile?: string): Run {
  const fd = stdoutFile === undefined ? undefined : openSync(stdoutFile, 'w');
  try {
    const r = spawnSync(process.execPath, [CLI, ...args], {
      input,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      env: { ...process.env, ROBOTS_DEBUG: '' },
      stdio: ['pipe', fd ?? 'pipe', 'pipe'],
    });
    return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr };
  } finally {
    if (fd !== undefined) closeSync(fd);
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
