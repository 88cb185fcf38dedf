// A --robots-dir's files, looked up both ways (robots-dir.ts): a stat first while misses are
// common (and at the start), opened first while most hosts have a file. Each way gives the
// same answer for every kind of entry: a file, none, a directory, a FIFO, a device, a loop of
// links, a file longer than the bound.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RobotsDir, type DirRobots } from '../../src/bulk/sources/robots-dir.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-dir-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MAX = 600;
const HOSTS = Array.from({ length: 1100 }, (_, i) => `h${i}.example`);
for (const h of HOSTS) writeFileSync(path.join(dir, h), `User-agent: *\nDisallow: /${h}\n`);
mkdirSync(path.join(dir, 'folder.example'));
const fifo = spawnSync('mkfifo', [path.join(dir, 'fifo.example')]).status === 0;
symlinkSync('/dev/zero', path.join(dir, 'zero.example'));
symlinkSync('loop.example', path.join(dir, 'loop.example'));
symlinkSync('h1.example', path.join(dir, 'link.example'));
symlinkSync('nowhere.example', path.join(dir, 'dangling.example'));
writeFileSync(path.join(dir, 'long.example'), 'x'.repeat(MAX * 3));
writeFileSync(path.join(dir, 'empty.example'), '');
const https = (host: string) => ({ scheme: 'https', host, port: '' });

/** What the directory answers for an entry, its octets as text. */
function answer(d: RobotsDir, host: string): unknown {
  const r: DirRobots = d.read(https(host));
  return r.kind === 'file' ? { kind: 'file', text: Buffer.from(r.body).toString('latin1') } : r;
}

const ODD = ['folder.example', ...(fifo ? ['fifo.example'] : []), 'zero.example', 'loop.example', 'link.example', 'dangling.example', 'missing.example', 'long.example', 'empty.example', 'h7.example'];
const EXPECTED: Record<string, unknown> = {
  'folder.example': { kind: 'unreadable', file: path.join(dir, 'folder.example'), why: 'is a directory' },
  'fifo.example': { kind: 'unreadable', file: path.join(dir, 'fifo.example'), why: 'not a regular file' },
  'zero.example': { kind: 'unreadable', file: path.join(dir, 'zero.example'), why: 'not a regular file' },
  'loop.example': { kind: 'unreadable', file: path.join(dir, 'loop.example'), why: 'too many levels of symbolic links' },
  'link.example': { kind: 'file', text: 'User-agent: *\nDisallow: /h1.example\n' },
  'dangling.example': { kind: 'none' },
  'missing.example': { kind: 'none' },
  'long.example': { kind: 'file', text: 'x'.repeat(MAX + 1) },
  'empty.example': { kind: 'file', text: '' },
  'h7.example': { kind: 'file', text: 'User-agent: *\nDisallow: /h7.example\n' },
};

describe('RobotsDir: a host\'s file looked up', () => {
  it('starts with a stat first, and answers each kind of entry so', () => {
    const d = new RobotsDir(dir, MAX);
    expect(d.lookup).toBe('stat');
    for (const h of ODD) expect(answer(d, h), h).toEqual(EXPECTED[h]);
    expect(d.lookup).toBe('stat');
  });

  it('opens first once a window of lookups mostly found files, and answers each kind of entry the same', () => {
    const d = new RobotsDir(dir, MAX);
    for (const h of HOSTS.slice(0, 1024)) expect(answer(d, h)).toEqual({ kind: 'file', text: `User-agent: *\nDisallow: /${h}\n` });
    expect(d.lookup).toBe('open');
    for (const h of ODD) expect(answer(d, h), h).toEqual(EXPECTED[h]);
    for (const h of HOSTS.slice(1024)) expect(answer(d, h)).toEqual({ kind: 'file', text: `User-agent: *\nDisallow: /${h}\n` });
  });

  it('goes back to a stat first when a window\'s misses are common (a miss then costs no exception)', () => {
    const d = new RobotsDir(dir, MAX);
    for (const h of HOSTS.slice(0, 1024)) d.read(https(h));
    expect(d.lookup).toBe('open');
    // A quarter of a window missing is enough to go back.
    for (let i = 0; i < 1024; i++) expect(answer(d, i % 4 === 0 ? `absent${i}.example` : HOSTS[i])).toEqual(i % 4 === 0 ? { kind: 'none' } : { kind: 'file', text: `User-agent: *\nDisallow: /${HOSTS[i]}\n` });
    expect(d.lookup).toBe('stat');
    // Fewer than a quarter: open first again.
    for (let i = 0; i < 1024; i++) d.read(https(i % 5 === 0 ? `absent${i}.example` : HOSTS[i]));
    expect(d.lookup).toBe('open');
  });
});
