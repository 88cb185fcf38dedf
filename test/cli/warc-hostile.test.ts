// robots classify --robots-warc and robots index on WARCs a crawl can hold but
// no one would plan for: 100,000 captures of one host's robots.txt (the latest
// by WARC-Date wins, not the last read), and WARC-Dates far in the future or
// that do not read as dates, with and without --as-of. Written by warcio; the
// command's peak memory is its own report (process.resourceUsage().maxRSS at
// exit, the threads' included), as in warc-limits.test.ts.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARCRecord, WARCSerializer } from 'warcio';
import { CLI } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (file: string) => path.join(dir, file);

/** A response record of url dated exactly `date` (warcio would add a Z to one that has none), gzipped as Common Crawl writes them. */
async function capture(url: string, date: string, body: string): Promise<Uint8Array> {
  const record = await WARCRecord.create(
    { url, date: '2024-01-01T00:00:00Z', type: 'response', httpHeaders: { 'Content-Type': 'text/plain' }, statusline: 'HTTP/1.1 200 OK' },
    (async function* () {
      yield new TextEncoder().encode(body);
    })(),
  );
  record.warcHeaders.headers.set('WARC-Date', date);
  return WARCSerializer.serialize(record, { gzip: true });
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  rssMiB: number;
}

/** The command, its peak memory reported at exit. */
function measured(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--require', at('max-rss.cjs'), CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ROBOTS_DEBUG: '', TMPDIR: dir } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // A hang guard only: a run here takes seconds.
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) => {
    child.once('close', (status) => {
      clearTimeout(timer);
      const rss = /max-rss (\d+)\n/.exec(stderr);
      if (process.env.ROBOTS_TEST_VERBOSE) console.log(`${args.join(' ')}: ${rss === null ? '?' : (Number(rss[1]) / 1024).toFixed(0)} MiB`);
      resolve({ status, stdout, stderr: stderr.replace(/max-rss \d+\n/, ''), rssMiB: rss === null ? NaN : Number(rss[1]) / 1024 });
    });
  });
}

/** The `allowed` of each URL of a jsonl run, and its `robots`. */
const verdicts = (r: Run) => r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).map((v) => `${v.allowed ? 'allowed' : 'disallowed'} ${v.robots}`);

beforeAll(() => {
  writeFileSync(at('max-rss.cjs'), "process.on('exit', () => require('node:fs').writeSync(2, `max-rss ${process.resourceUsage().maxRSS}\\n`));\n");
});

describe('100,000 captures of one host', () => {
  /** Distinct captures (warcio is slow: 100,000 serializations take minutes), each written 1,000 times. */
  const DISTINCT = 100;
  const COPIES = 1000;
  /** Each body's padding: 100,000 of them, 200 MiB decoded, would show in the peak memory were they held. */
  const PAD = '#'.repeat(2048);
  /** Capture k is dated 2020-01-01 plus k days; written in an order where the latest is not the last. */
  const order = Array.from({ length: DISTINCT }, (_, j) => (j * 37) % DISTINCT);
  const URLS = ['http://big.example/c99', 'http://big.example/c63', 'http://big.example/c31'];

  beforeAll(async () => {
    const distinct: Uint8Array[] = [];
    for (const k of order) {
      const date = new Date(Date.UTC(2020, 0, 1 + k)).toISOString().replace('.000', '');
      distinct.push(await capture('http://big.example/robots.txt', date, `User-agent: *\nDisallow: /c${k}\n${PAD}\n`));
    }
    const fd = openSync(at('big.warc.gz'), 'w');
    for (let copy = 0; copy < COPIES; copy++) for (const part of distinct) writeSync(fd, part);
    closeSync(fd);
    writeFileSync(at('big-urls.txt'), URLS.join('\n') + '\n');
    expect(order.at(-1)).toBe(63); // (the last written)
  }, 60_000);

  // Read whole, each run in bounded memory: the index keeps one capture per URL, its bodies in a file;
  // robots index writes every one to its shard as it reads. Either, holding the bodies, would pass its bound.
  const BOUND_MIB = 200;
  /** robots index: its reading threads have heaps of their own. */
  const INDEX_BOUND_MIB = 300;

  it('classify --robots-warc: the latest by WARC-Date (c99), not the last read (c63); --as-of 2020-02-01 the one of that day (c31); memory bounded', async () => {
    const r = await measured(['classify', '--robots-warc', at('big.warc.gz'), '--format', 'jsonl', at('big-urls.txt')]);
    expect([r.status, verdicts(r)]).toEqual([0, ['disallowed ok', 'allowed ok', 'allowed ok']]);
    expect(r.stderr).toMatch(/indexed 100,000 responses \(1 URLs\) of 100,000 records in 1 WARC file/);
    expect(r.rssMiB).toBeLessThan(BOUND_MIB);
    const asOf = await measured(['classify', '--robots-warc', at('big.warc.gz'), '--as-of', '2020-02-01', '--format', 'jsonl', '-q', at('big-urls.txt')]);
    expect([asOf.status, verdicts(asOf)]).toEqual([0, ['allowed ok', 'allowed ok', 'disallowed ok']]);
    expect(asOf.rssMiB).toBeLessThan(BOUND_MIB);
  }, 120_000); // two reads of 100,000 records (~40 MB): seconds each on a quiet machine

  it('robots index writes all 100,000; classify --robots-index chooses as --robots-warc does; memory bounded', async () => {
    const idx = await measured(['index', '--out', at('big-idx'), '--shards', '4', at('big.warc.gz')]);
    expect(idx.status).toBe(0);
    expect(idx.stderr).toMatch(/100,000 captures of 100,000 records in 1 WARC file/);
    expect(idx.rssMiB).toBeLessThan(INDEX_BOUND_MIB);
    for (const [asOf, expected] of [[[], ['disallowed ok', 'allowed ok', 'allowed ok']], [['--as-of', '2020-02-01'], ['allowed ok', 'allowed ok', 'disallowed ok']]] as const) {
      const r = await measured(['classify', '--robots-index', at('big-idx'), ...asOf, '--format', 'jsonl', '-q', at('big-urls.txt')]);
      expect([r.status, verdicts(r)]).toEqual([0, expected]);
      expect(r.rssMiB).toBeLessThan(BOUND_MIB);
    }
  }, 120_000);
});

describe('WARC-Dates far in the future, or that do not read', () => {
  /** Each host: a capture dated 2024 (its rules disallow /old), then one dated as given (disallowing /new). */
  const ODD: Record<string, string> = {
    'y9999.example': '9999-12-31T23:59:59Z',
    'last-day.example': '+275760-09-13T00:00:00Z', // (the last day a JavaScript Date holds)
    'past-last.example': '+275760-09-14T00:00:00Z',
    'garbage.example': 'garbage',
    'empty.example': '',
    'no-such-day.example': '2026-13-45',
    'no-zone.example': '2024-06-01', // (a date all the same: later than 2024-01-01)
    // Not W3C-ISO8601, though Date.parse reads them (as 2030 in local time, as May 2001): undated.
    'loose.example': '1/1/2030',
    'minus-five.example': '-5',
  };
  const hosts = Object.keys(ODD);
  const urls = hosts.flatMap((h) => [`http://${h}/old`, `http://${h}/new`]);
  /** Which capture each host's URLs are classified by: `old`, `new`, or none (`missing`). */
  const chosen = (r: Run) => {
    const v = verdicts(r);
    return Object.fromEntries(hosts.map((h, k) => [h, v[2 * k].startsWith('disallowed') ? 'old' : v[2 * k + 1].startsWith('disallowed') ? 'new' : v[2 * k].split(' ')[1]]));
  };

  beforeAll(async () => {
    const parts: Uint8Array[] = [];
    for (const [host, date] of Object.entries(ODD)) {
      parts.push(await capture(`http://${host}/robots.txt`, '2024-01-01T00:00:00Z', 'User-agent: *\nDisallow: /old\n'));
      parts.push(await capture(`http://${host}/robots.txt`, date, 'User-agent: *\nDisallow: /new\n'));
    }
    // A host captured only undated.
    parts.push(await capture('http://undated.example/robots.txt', 'garbage', 'User-agent: *\nDisallow: /new\n'));
    writeFileSync(at('dates.warc.gz'), Buffer.concat(parts));
    writeFileSync(at('dates-urls.txt'), [...urls, 'http://undated.example/new'].join('\n') + '\n');
    expect((await measured(['index', '-q', '--out', at('dates-idx'), at('dates.warc.gz')])).status).toBe(0);
  }, 30_000);

  const FAR = { 'y9999.example': 'new', 'last-day.example': 'new' };
  const UNREAD = { 'past-last.example': 'old', 'garbage.example': 'old', 'empty.example': 'old', 'no-such-day.example': 'old', 'loose.example': 'old', 'minus-five.example': 'old' };

  it('without --as-of: a far date is a date (the latest); one that does not read never replaces a dated capture; a host captured only undated has it', async () => {
    const r = await measured(['classify', '--robots-warc', at('dates.warc.gz'), '--format', 'jsonl', '-q', at('dates-urls.txt')]);
    expect(r.status).toBe(0);
    expect(chosen(r)).toEqual({ ...FAR, ...UNREAD, 'no-zone.example': 'new' });
    expect(verdicts(r).at(-1)).toBe('disallowed ok');
    // The index reads the same.
    const i = await measured(['classify', '--robots-index', at('dates-idx'), '--format', 'jsonl', '-q', at('dates-urls.txt')]);
    expect([i.status, i.stdout]).toEqual([0, r.stdout]);
  }, 60_000);

  it('with --as-of: a far date is after it, an undated capture is never taken (a host captured only undated is missing); --as-of 9999-12-31 takes year 9999', async () => {
    for (const source of [['--robots-warc', at('dates.warc.gz')], ['--robots-index', at('dates-idx')]]) {
      const r = await measured(['classify', ...source, '--as-of', '2030-01-01', '--format', 'jsonl', '-q', at('dates-urls.txt')]);
      expect(r.status).toBe(0);
      expect(chosen(r)).toEqual({ 'y9999.example': 'old', 'last-day.example': 'old', ...UNREAD, 'no-zone.example': 'new' });
      expect(verdicts(r).at(-1)).toBe('allowed missing');
      const end = await measured(['classify', ...source, '--as-of', '9999-12-31', '--format', 'jsonl', '-q', at('dates-urls.txt')]);
      expect(chosen(end)).toMatchObject({ 'y9999.example': 'new', 'last-day.example': 'old' });
    }
  }, 60_000);
});
