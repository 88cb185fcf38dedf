// robots classify --robots-warc: robots.txt captures in WARC files written by
// warcio (test/helpers/warc-files.ts), each HTTP outcome read as RFC 9309 2.3.1 and
// RobotsCache read it (fetch-robots.ts responseStep), in the three layouts,
// with 1 and 2 threads; damaged files said and counted, never a crash.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, robots } from '../helpers/cli-run.js';
import { writeWarc, type Capture, type WarcLayout } from '../helpers/warc-files.js';
import { echoed, SPELLINGS } from '../helpers/host-spellings.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const rules = (tag: string) => `User-agent: *\nDisallow: /private-${tag}\n`;
const at = (file: string) => path.join(dir, file);

/** Captures of every outcome class, and what each host's URLs get. */
const CAPTURES: Capture[] = [
  { url: 'http://ok.example/robots.txt', body: rules('ok') },
  { url: 'https://tls.example/robots.txt', body: rules('tls') },
  { url: 'http://empty.example/robots.txt', status: 204 },
  { url: 'http://gzip.example/robots.txt', body: gzipSync(rules('gzip')), headers: { 'Content-Encoding': 'gzip' } },
  { url: 'http://deflate.example/robots.txt', body: deflateSync(rules('deflate')), headers: { 'Content-Encoding': 'deflate' } },
  { url: 'http://gone.example/robots.txt', status: 404, body: 'not found' },
  { url: 'http://forbidden.example/robots.txt', status: 403 },
  { url: 'http://busy.example/robots.txt', status: 429 },
  { url: 'http://down.example/robots.txt', status: 503 },
  { url: 'http://error.example/robots.txt', status: 500 },
  // Across hosts: the rules of the file reached apply to the original host.
  { url: 'http://moved.example/robots.txt', status: 301, headers: { Location: 'https://www.moved.example/robots.txt' } },
  { url: 'https://www.moved.example/robots.txt', body: rules('moved') },
  // A chain of 5 redirects is followed, of 6 is not (unavailable: all allowed).
  ...[1, 2, 3, 4, 5].map((k) => ({ url: `http://c5-${k}.example/robots.txt`, status: 302, headers: { Location: k === 5 ? 'http://c5-end.example/robots.txt' : `http://c5-${k + 1}.example/robots.txt` } })),
  { url: 'http://c5-end.example/robots.txt', body: rules('c5') },
  ...[1, 2, 3, 4, 5, 6].map((k) => ({ url: `http://c6-${k}.example/robots.txt`, status: 307, headers: { Location: k === 6 ? 'http://c6-end.example/robots.txt' : `http://c6-${k + 1}.example/robots.txt` } })),
  { url: 'http://c6-end.example/robots.txt', body: rules('c6') },
  { url: 'http://loop.example/robots.txt', status: 301, headers: { Location: '/other.txt' } },
  { url: 'http://loop.example/other.txt', status: 301, headers: { Location: '/robots.txt' } },
  { url: 'http://nowhere.example/robots.txt', status: 302 }, // no Location
  { url: 'http://lost.example/robots.txt', status: 301, headers: { Location: 'http://never-captured.example/robots.txt' } },
  // Several captures of one host: the latest (by WARC-Date, not by order) wins.
  { url: 'http://often.example/robots.txt', body: rules('newest'), date: '2024-03-01T00:00:00Z' },
  { url: 'http://often.example/robots.txt', body: rules('oldest'), date: '2024-01-01T00:00:00Z' },
  { url: 'http://often.example/robots.txt', status: 503, date: '2024-02-01T00:00:00Z' },
  // Records that are not robots.txt responses, in between.
  { url: 'http://ok.example/robots.txt', type: 'request' },
  { url: 'http://other.example/robots.txt', type: 'metadata', body: 'x' },
  { url: 'http://ok.example/page.html', body: 'User-agent: *\nDisallow: /\n' },
];

/** [url, verdict, robots, http] */
const EXPECT: [string, 'allowed' | 'disallowed', string, number | undefined][] = [
  ['http://ok.example/private-ok/x', 'disallowed', 'ok', 200],
  ['http://ok.example/page.html', 'allowed', 'ok', 200],
  ['https://tls.example/private-tls', 'disallowed', 'ok', 200],
  ['http://tls.example/private-tls', 'allowed', 'missing', undefined], // another origin: not captured
  ['http://empty.example/anything', 'allowed', 'ok', 204],
  ['http://gzip.example/private-gzip', 'disallowed', 'ok', 200],
  ['http://deflate.example/private-deflate', 'disallowed', 'ok', 200],
  ['http://gone.example/private', 'allowed', 'unavailable', 404],
  ['http://forbidden.example/private', 'allowed', 'unavailable', 403],
  ['http://busy.example/x', 'disallowed', 'unreachable', 429],
  ['http://down.example/x', 'disallowed', 'unreachable', 503],
  ['http://error.example/x', 'disallowed', 'unreachable', 500],
  ['http://moved.example/private-moved', 'disallowed', 'ok', 200],
  ['http://moved.example/public', 'allowed', 'ok', 200],
  ['http://c5-1.example/private-c5', 'disallowed', 'ok', 200],
  ['http://c6-1.example/private-c6', 'allowed', 'unavailable', 307],
  ['http://loop.example/private', 'allowed', 'unavailable', 301],
  ['http://nowhere.example/private', 'allowed', 'unavailable', 302],
  ['http://lost.example/private', 'allowed', 'missing', 301],
  ['http://often.example/private-newest', 'disallowed', 'ok', 200],
  ['http://often.example/private-oldest', 'allowed', 'ok', 200],
  ['http://never.example/x', 'allowed', 'missing', undefined],
  ['HTTP://OK.EXAMPLE:80/private-ok', 'disallowed', 'ok', 200],
];

const URLS = EXPECT.map(([u]) => u).join('\n') + '\n';

describe('robots classify --robots-warc', () => {
  beforeAll(async () => {
    for (const layout of ['plain', 'gzip-records', 'gzip-whole'] as WarcLayout[]) await writeWarc(at(`all-${layout}.warc${layout === 'plain' ? '' : '.gz'}`), CAPTURES, layout);
    writeFileSync(at('urls.txt'), URLS);
  });

  for (const layout of ['plain', 'gzip-records', 'gzip-whole'] as WarcLayout[]) {
    for (const threads of ['1', '2']) {
      it(`every outcome class as the policy says (${layout}, ${threads} thread(s)), JSON lines with the HTTP status`, async () => {
        const file = at(`all-${layout}.warc${layout === 'plain' ? '' : '.gz'}`);
        const r = await robots(['classify', '--robots-warc', file, '--format', 'jsonl', '--threads', threads, at('urls.txt')]);
        expect(r.stderr).not.toMatch(/warning/);
        expect(r.status).toBe(0);
        const got = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
        expect(got.map((g) => [g.url, g.allowed ? 'allowed' : 'disallowed', g.robots, g.http])).toEqual(EXPECT);
        expect(r.stderr).toMatch(new RegExp(`indexed ${CAPTURES.filter((c) => (c.type ?? 'response') === 'response').length} responses`));
        const kinds = (k: string) => EXPECT.filter(([, , kind]) => kind === k).length;
        expect(r.stderr).toContain(`URLs by their host's robots.txt: ${kinds('ok')} ok, ${kinds('unavailable')} unavailable (all allowed), ${kinds('unreachable')} unreachable (all disallowed), ${kinds('missing')} missing`);
        const tsv = await robots(['classify', '--robots-warc', file, '--threads', threads, '-q', at('urls.txt')]);
        expect(tsv.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0])).toEqual(EXPECT.map(([, v]) => v));
      });
    }
  }

  it('--missing disallow: hosts without a capture (or whose redirect leads out of the captures) are disallowed', async () => {
    const r = await robots(['classify', '--robots-warc', at('all-plain.warc'), '--missing', 'disallow', '-q', at('urls.txt')]);
    const verdicts = r.stdout.trimEnd().split('\n').map((l) => l.split('\t')[0]);
    EXPECT.forEach(([, v, kind], i) => expect(verdicts[i], EXPECT[i][0]).toBe(kind === 'missing' ? 'disallowed' : v));
    expect((await robots(['classify', '--robots-warc', at('all-plain.warc'), '--missing', 'maybe', at('urls.txt')])).stderr).toMatch(/--missing must be allow or disallow/);
  });

  it('several WARC files: the latest capture of each URL across them', async () => {
    await writeWarc(at('later.warc.gz'), [{ url: 'http://ok.example/robots.txt', body: rules('later'), date: '2025-01-01T00:00:00Z' }, { url: 'http://down.example/robots.txt', status: 404, date: '2020-01-01T00:00:00Z' }]);
    const r = await robots(['classify', '--robots-warc', at('all-gzip-records.warc.gz'), '--robots-warc', at('later.warc.gz'), '-q'], 'http://ok.example/private-later\nhttp://ok.example/private-ok\nhttp://down.example/x\n');
    expect(r.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(['disallowed', 'allowed', 'disallowed', '']);
  });

  it('every spelling of a host finds its origin\'s capture (IPv4 numbers, IPv6 forms, escapes, backslashes, a trailing dot), as --robots-dir does', async () => {
    const all = 'User-agent: *\nDisallow: /\n';
    await writeWarc(at('spellings.warc.gz'), [
      { url: 'http://127.0.0.1/robots.txt', body: all },
      { url: 'http://[::1]/robots.txt', body: all },
      { url: 'http://e.com/robots.txt', body: all },
      { url: 'http://dot.example./robots.txt', body: all }, // captured with a trailing dot: the name without it
    ]);
    const urls = [...SPELLINGS.map(([u]) => u), 'http://dot.example/a', 'http://other.com/a', 'http://u@other.com\\@e.com/a'];
    for (const threads of ['1', '2']) {
      const r = await robots(['classify', '--robots-warc', at('spellings.warc.gz'), '--threads', threads, '--format', 'jsonl', '-q'], urls.join('\n') + '\n');
      expect(r.status).toBe(0);
      const got = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(got.map((l) => [l.url, l.allowed, l.robots])).toEqual([
        ...SPELLINGS.map(([u]) => [echoed(u), false, 'ok']),
        ['http://dot.example/a', false, 'ok'],
        ['http://other.com/a', true, 'missing'],
        ['http://u@other.com\\@e.com/a', true, 'missing'], // (its host is other.com: `\` ends the authority)
      ]);
    }
  });

  it('a capture cut short: its host unreachable (disallowed), said in the JSON line; the other captures stand', async () => {
    const whole = await writeWarc(at('cut.warc'), [{ url: 'http://ok.example/robots.txt', body: rules('ok') }, { url: 'http://cut.example/robots.txt', body: rules('cut') + '#'.repeat(4000) }], 'plain');
    writeFileSync(at('cut.warc'), whole.subarray(0, whole.length - 2000));
    const r = await robots(['classify', '--robots-warc', at('cut.warc'), '--format', 'jsonl', '-q'], 'http://ok.example/private-ok\nhttp://cut.example/public\n');
    expect(r.status).toBe(0);
    const [ok, cut] = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect([ok.allowed, ok.robots]).toEqual([false, 'ok']);
    expect([cut.allowed, cut.robots]).toEqual([false, 'unreachable']);
  });

  it('a damaged gzip member: a warning with its offset, counted in the summary; no host is allowed but by --missing', async () => {
    const good = await writeWarc(at('d1.warc.gz'), [{ url: 'http://first.example/robots.txt', body: rules('first') }, { url: 'http://second.example/robots.txt', body: rules('second') }]);
    const bad = Buffer.from(good);
    // Flip octets inside the second member's compressed data.
    for (let k = bad.length - 60; k < bad.length - 40; k++) bad[k] ^= 0x5a;
    writeFileSync(at('damaged.warc.gz'), bad);
    const r = await robots(['classify', '--robots-warc', at('damaged.warc.gz'), '--format', 'jsonl'], 'http://first.example/private-first\nhttp://second.example/private-second\nhttp://second.example/public\n');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/warning: .*damaged\.warc\.gz: cannot read past uncompressed offset \d+ \(.*\): the captures after it are skipped/);
    expect(r.stderr).toMatch(/1 damaged part skipped/);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    // What was read before the damage stands, but zlib may stop before handing out the last
    // octets before it: the captures there are lost (warned), their hosts missing, allowed by default ...
    for (const l of lines) expect(l.allowed === false || l.robots === 'missing').toBe(true);
    // ... and disallowed under --missing disallow; a capture read near the damage is never taken as allowing.
    const strict = await robots(['classify', '--robots-warc', at('damaged.warc.gz'), '--missing', 'disallow', '-q'], 'http://first.example/public\nhttp://second.example/public\n');
    expect(strict.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(['disallowed', 'disallowed', '']);
  });

  it('a damaged member at the end of a larger file: the captures well before it stand', async () => {
    const noise = (k: number) => Array.from({ length: 40 }, (_, i) => `# ${(Math.imul(k * 40 + i, 2654435761) >>> 0).toString(36)}`).join('\n');
    const captures = Array.from({ length: 300 }, (_, k) => ({ url: `http://h${k}.example/robots.txt`, body: `${rules(String(k))}${noise(k)}\n` }));
    const good = await writeWarc(at('many.warc.gz'), captures);
    const bad = Buffer.from(good);
    for (let k = bad.length - 100; k < bad.length - 80; k++) bad[k] ^= 0x5a;
    writeFileSync(at('many-damaged.warc.gz'), bad);
    const urls = captures.map((_, k) => `http://h${k}.example/private-${k}`).join('\n') + '\n';
    const r = await robots(['classify', '--robots-warc', at('many-damaged.warc.gz'), '--format', 'jsonl'], urls);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/cannot read past uncompressed offset/);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const kept = lines.filter((l) => l.robots === 'ok' && !l.allowed).length;
    expect(kept, r.stderr + lines.slice(0, 2).map((l) => JSON.stringify(l)).join("\n")).toBeGreaterThan(200);
    for (const l of lines) expect(l.allowed === false || l.robots === 'missing').toBe(true);
  });

  it('a 0-byte file, a file that is not WARC, a missing file, a directory: no crash, clear words', async () => {
    writeFileSync(at('empty.warc'), '');
    writeFileSync(at('text.warc'), 'this is not a WARC file\n'.repeat(10));
    let r = await robots(['classify', '--robots-warc', at('empty.warc'), '-q'], 'http://ok.example/private-ok\n');
    expect([r.status, r.stdout]).toEqual([0, 'allowed\t0\thttp://ok.example/private-ok\n']);
    r = await robots(['classify', '--robots-warc', at('text.warc')], 'http://ok.example/x\n');
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/text\.warc: cannot read past offset 0 \(not a WARC record/);
    r = await robots(['classify', '--robots-warc', at('nope.warc')], 'http://ok.example/x\n');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot read WARC file .*nope\.warc: no such file/);
    r = await robots(['classify', '--robots-warc', dir], 'http://ok.example/x\n');
    expect([r.status, r.stderr]).toEqual([2, expect.stringMatching(/is a directory/)]);
    r = await robots(['classify', '--robots-warc', at('empty.warc'), '--robots-dir', dir], 'http://ok.example/x\n');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/give one of --robots FILE/);
  });

  it('the index holds no bodies in memory: its spill file is removed at the end', async () => {
    const tmp = ownTmp();
    const r = await robots(['classify', '--robots-warc', at('all-plain.warc'), '-q', at('urls.txt')], undefined, { env: { TMPDIR: tmp } });
    expect(r.status).toBe(0);
    expect(spills(tmp)).toEqual([]);
  });
});

describe('robots classify --robots-warc, interrupted', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`by ${signal} while it waits for URLs: the spill is removed and the process ends by the signal`, async () => {
      await writeWarc(at('signal.warc.gz'), CAPTURES);
      const tmp = ownTmp();
      const child = spawn(process.execPath, [CLI, 'classify', '--robots-warc', at('signal.warc.gz'), '--threads', '1'], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.stdin.write('http://ok.example/private-ok\n'); // (stdin stays open: the run waits for more)
      // (up to 60 s: a loaded machine can take seconds to start and index; the wait ends as soon as it has)
      for (let t = 0; !/indexed/.test(stderr) && t < 1200; t++) await new Promise((r) => setTimeout(r, 50));
      expect(spills(tmp)).toHaveLength(1); // the spill, while it runs
      const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, sig) => resolve([code, sig])));
      child.kill(signal);
      expect(await exited).toEqual([null, signal]);
      expect(spills(tmp)).toEqual([]);
    });
  }
});

/** A temp folder of the test's own, for the command's TMPDIR: the suites and the other suites' commands
 * write spills to the shared one at the same time (a count of them there failed with two suites running). */
function ownTmp(): string {
  return mkdtempSync(path.join(dir, 'tmp-'));
}

/** The command's spill folders in a temp folder. */
function spills(tmp: string): string[] {
  return readdirSync(tmp).filter((f) => f.startsWith('robots-warc-'));
}
