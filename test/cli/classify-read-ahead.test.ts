// robots classify --robots-dir on one thread: the host files are read ahead by a
// thread of their own (src/bulk/threads/dir-reader.ts), so the classifying
// thread does not wait on the file system. Seen from outside with strace: which
// thread opens each host's file, and that each is opened once. And nothing is
// lost on the way: a file that cannot be read is said once, its URLs disallowed;
// with --strict-robots-dir it stops the run, as when the classifier reads it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, expectUsageError, robots } from '../helpers/cli-run.js';
import { MAX_LINE_OCTETS } from '../../src/bulk/sources/line-blocks.js';

// Debian's strace; under CI it must be there (.ci/run installs it), elsewhere the case skips.
const hasStrace = spawnSync('strace', ['-V']).status === 0 || process.env.CI === 'true';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-read-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sites = path.join(dir, 'robots');
mkdirSync(sites);
// Host after host, 3 MiB of URLs: past the first block (1 MiB) the reader reads the files.
const HOSTS = 4000;
const PER_HOST = 16;
/** A host whose file is a folder (unreadable: its URLs disallowed), and one with no file (allowed), both past the first block. */
const FOLDER = 3000;
const NONE = 3500;
for (let h = 0; h < HOSTS; h++) {
  if (h === NONE) continue;
  if (h === FOLDER) mkdirSync(path.join(sites, `h${h}.example`));
  else writeFileSync(path.join(sites, `h${h}.example`), h % 2 === 0 ? 'User-agent: *\nDisallow: /private\n' : 'User-agent: *\nDisallow: /\n');
}
const urls: string[] = [];
for (let h = 0; h < HOSTS; h++) for (let i = 0; i < PER_HOST; i++) urls.push(`http://h${h}.example/${i % 2 === 0 ? 'private' : 'public'}/page-${i}.html?q=${'x'.repeat(8)}`);
const input = path.join(dir, 'urls.txt');
writeFileSync(input, urls.join('\n') + '\n');

/** What a URL of host h, i-th of its host, is decided. */
function expected(h: number, i: number): 'allowed' | 'disallowed' {
  if (h === NONE) return 'allowed';
  if (h === FOLDER || h % 2 === 1) return 'disallowed';
  return i % 2 === 0 ? 'disallowed' : 'allowed';
}

/** Runs the command under strace -f (its stdin a file, or none): its exit status, and per thread id the host files it opened. */
function traced(args: string[], log: string, stdin?: string): Promise<{ status: number | null; opens: Map<number, string[]> }> {
  return new Promise((resolve, reject) => {
    const child = spawn('strace', ['-f', '-qq', '-e', 'trace=openat', '-o', log, process.execPath, CLI, ...args], { stdio: [stdin === undefined ? 'ignore' : openSync(stdin, 'r'), 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (status) => {
      const opens = new Map<number, string[]>();
      // The opens that gave a descriptor (a miss's failed open is no file). A call another thread's interrupted is
      // written in two lines: its path "<unfinished ...>", then "<... openat resumed>" with its result.
      const unfinished = new Map<number, string>();
      const opened = (tid: number, file: string, result: number) => {
        if (file.startsWith(sites + path.sep) && result >= 0) opens.set(tid, [...(opens.get(tid) ?? []), path.basename(file)]);
      };
      for (const line of readFileSync(log, 'utf8').split('\n')) {
        const call = /^(\d+)\s+openat\(AT_FDCWD, "([^"]+)"(?:.*= (-?\d+)|.*<unfinished \.\.\.>)/.exec(line);
        if (call !== null && call[3] === undefined) unfinished.set(Number(call[1]), call[2]);
        else if (call !== null) opened(Number(call[1]), call[2], Number(call[3]));
        const resumed = /^(\d+)\s+<\.\.\. openat resumed>.*= (-?\d+)/.exec(line);
        if (resumed === null) continue;
        const file = unfinished.get(Number(resumed[1]));
        unfinished.delete(Number(resumed[1]));
        if (file !== undefined) opened(Number(resumed[1]), file, Number(resumed[2]));
      }
      resolve({ status, opens });
    });
  });
}

describe('robots classify --robots-dir, one thread: host files read ahead', () => {
  // (strace slows every system call of the run: a generous limit, not a measure.)
  // A file is read by ranges, all by the reader; a stream by the main thread, whose blocks from the third on go to the reader.
  it.skipIf(!hasStrace).each([['a file', 0], ['stdin', 2]] as const)('%s: the classifying thread opens the host files of its first %i blocks only; another thread the rest, each once', { timeout: 300_000 }, async (what, blocks) => {
    const out = path.join(dir, 'out.tsv');
    const log = path.join(dir, 'strace.txt');
    const r = what === 'stdin'
      ? await traced(['classify', '--robots-dir', sites, '--threads', '1', '-q', '--out', out], log, input)
      : await traced(['classify', '--robots-dir', sites, '--threads', '1', '-q', '--out', out, input], log);
    expect(r.status).toBe(0);
    // strace -f writes the process's first thread (the classifying one) first.
    const main = Number(/^(\d+)/.exec(readFileSync(log, 'utf8'))![1]);
    const byMain = r.opens.get(main) ?? [];
    const byOthers = [...r.opens].filter(([tid]) => tid !== main).flatMap(([, files]) => files);
    const firstBlocksHosts = blocks === 0 ? 0 : Math.ceil((blocks << 20) / (urls[0].length * PER_HOST)) + 1;
    expect(byMain.length).toBeLessThanOrEqual(firstBlocksHosts);
    // Every file there was opened, once; the folder too where the thread that met it had made over 1,024 lookups,
    // all of which found a file: it then opens first and asks the open file what it is (src/bulk/sources/robots-dir.ts).
    // So the reader, reading from the first host (a file), met it opening first; from the third block (stdin), ~620
    // lookups in, with a stat first. The missing one has none. But the host whose URLs run on from the main thread's
    // last block into the next: its file is read by both threads.
    const all = [...byMain, ...byOthers];
    const folderOpened = what === 'a file';
    expect(new Set(all).size).toBe(HOSTS - 2 + (folderOpened ? 1 : 0));
    expect(all.includes(`h${FOLDER}.example`)).toBe(folderOpened);
    expect(all.length - new Set(all).size).toBeLessThanOrEqual(1);
    expect(byOthers.length).toBeGreaterThanOrEqual(HOSTS - 2 - firstBlocksHosts);
    const lines = readFileSync(out, 'utf8').split('\n').slice(0, -1);
    expect(lines.length).toBe(urls.length);
    lines.forEach((line, k) => {
      const [verdict, , url] = line.split('\t');
      expect(url).toBe(urls[k]);
      expect(verdict).toBe(expected(Math.floor(k / PER_HOST), k % PER_HOST));
    });
  });

  it('a host file that cannot be read, met by the reader: said once, its URLs disallowed; --strict-robots-dir stops the run', { timeout: 120_000 }, async () => {
    const r = await robots(['classify', '--robots-dir', sites, '--threads', '1', input]);
    expect(r.status).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.startsWith('robots: warning:'));
    expect(warnings).toEqual([`robots: warning: cannot read ${path.join(sites, `h${FOLDER}.example`)}: is a directory; its URLs are disallowed (unreachable, RFC 9309 2.3.1.3)`]);
    expect(r.stderr).toMatch(/; 1 host file could not be read \(their URLs disallowed\)\nrobots classify: URLs by their host's robots.txt: 63,968 ok, 0 unavailable \(all allowed\), 16 unreachable \(all disallowed\), 16 missing\n/);
    const lines = r.stdout.split('\n').slice(0, -1);
    expect(lines.length).toBe(urls.length);
    lines.forEach((line, k) => expect(line.split('\t')[0]).toBe(expected(Math.floor(k / PER_HOST), k % PER_HOST)));
    const strict = await robots(['classify', '--robots-dir', sites, '--threads', '1', '--strict-robots-dir', '--out', path.join(dir, 'strict.tsv'), input]);
    expect(strict.status).not.toBe(0);
    expect(strict.stderr).toMatch(new RegExp(`^robots: cannot read ${path.join(sites, `h${FOLDER}.example`).replace(/[.]/g, '\\.')}: is a directory`));
    expect(strict.stderr.split('\n').length).toBeLessThanOrEqual(3); // (a line, not a stack trace)
  });

  it('a line past the limit in a range the reader reads: the same one-line error as when the classifier reads it', { timeout: 120_000 }, async () => {
    const long = path.join(dir, 'long.txt');
    // (The hosts before the folder: no warning, the error alone.)
    writeFileSync(long, `${urls.slice(0, FOLDER * PER_HOST).join('\n')}\nhttp://h1.example/${'b'.repeat(MAX_LINE_OCTETS)}\nhttp://h1.example/a\n`);
    expectUsageError(await robots(['classify', '--robots-dir', sites, '--threads', '1', '--out', path.join(dir, 'long.tsv'), long]), new RegExp(`an input line is longer than ${MAX_LINE_OCTETS} octets`));
  });
});
