// robots classify --robots-warc-list: WARC files (written by warcio) named by a
// list as Common Crawl publishes them (robotstxt.paths.gz), local or served by a
// real HTTP server on 127.0.0.1 that fails, stalls or asks to wait as told; the
// verdicts always those of --robots-warc on the same files.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { CLI, expectUsageError, robots } from '../helpers/cli-run.js';
import { startServer, type Handler, type TestServer } from '../helpers/http-servers.js';
import { writeWarc } from '../helpers/warc-files.js';
import { MAX_FAILURES_IN_A_ROW } from '../../src/bulk/sources/warc/warc-list.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-list-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (file: string) => path.join(dir, file);
const rules = (tag: string) => `User-agent: *\nDisallow: /private-${tag}\n`;

/** Three WARCs as a crawl's subset would be cut: hosts apart, one host in two of them (the later capture wins). */
const WARCS = {
  'crawl-data/CC-TEST/segments/1/robotstxt/a.warc.gz': [
    { url: 'http://a.example/robots.txt', body: rules('a') },
    { url: 'http://both.example/robots.txt', body: rules('old'), date: '2024-01-01T00:00:00Z' },
  ],
  'crawl-data/CC-TEST/segments/2/robotstxt/b.warc.gz': [
    { url: 'http://b.example/robots.txt', status: 503 },
    { url: 'http://both.example/robots.txt', body: rules('new'), date: '2024-06-01T00:00:00Z' },
  ],
  'crawl-data/CC-TEST/segments/3/robotstxt/c.warc.gz': [
    { url: 'http://c.example/robots.txt', status: 301, headers: { Location: 'http://a.example/robots.txt' } },
  ],
};
const NAMES = Object.keys(WARCS);
const URLS = ['http://a.example/private-a', 'http://a.example/public', 'http://b.example/x', 'http://both.example/private-new', 'http://both.example/private-old', 'http://c.example/private-a', 'http://none.example/x'].join('\n') + '\n';
/** The served octets of each WARC, by path. */
const octets = new Map<string, Buffer>();
const local = (name: string) => path.join(dir, 'warcs', name);

let server: TestServer;
/** The handler each test sets; by default each WARC served as it is. */
let handle: Handler;
const serveWarcs: Handler = (req, res) => {
  const body = octets.get((req.url ?? '').replace(/^\/+/, '').replace(/^base\//, ''));
  if (body === undefined) {
    res.writeHead(404);
    return res.end('not found');
  }
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
  res.end(body);
};

/** The verdicts of --robots-warc on all three files: what every list run must give. */
let expected: string;

beforeAll(async () => {
  for (const [name, captures] of Object.entries(WARCS)) {
    mkdirSync(path.dirname(local(name)), { recursive: true });
    octets.set(name, await writeWarc(local(name), captures));
  }
  writeFileSync(at('urls.txt'), URLS);
  server = await startServer((req, res) => handle(req, res));
  const r = await robots(['classify', ...NAMES.flatMap((n) => ['--robots-warc', local(n)]), '--format', 'jsonl', '-q', at('urls.txt')]);
  expect(r.status).toBe(0);
  expected = r.stdout;
  // (The run is what it should be: the later capture of both.example, b's 503, c's redirect to a.)
  expect(expected.trimEnd().split('\n').map((l) => JSON.parse(l).allowed)).toEqual([false, true, false, false, true, false, true]);
}, 30_000);
afterAll(() => server.close());
afterEach(() => {
  handle = serveWarcs;
  server.requests.length = 0;
  server.count = 0;
});

/** A list file: the lines, plain or gzipped. */
function list(name: string, lines: string[], gzip = false): string {
  const text = lines.join('\n') + '\n';
  writeFileSync(at(name), gzip ? gzipSync(text) : text);
  return at(name);
}

/** A TMPDIR of the test's own: what the command leaves there is seen. */
function ownTmp(): string {
  return mkdtempSync(path.join(dir, 'tmp-'));
}

const classify = (args: string[], tmp = ownTmp(), input?: string) => robots(['classify', ...args, '--format', 'jsonl', ...(input === undefined ? [at('urls.txt')] : [])], input, { env: { TMPDIR: tmp } });

describe('robots classify --robots-warc-list', () => {
  beforeAll(() => {
    handle = serveWarcs;
  });

  it('a plain list of local paths: the verdicts of --robots-warc on the same files', async () => {
    const r = await classify(['--robots-warc-list', list('local.txt', NAMES.map(local))]);
    expect(r.stderr).not.toMatch(/warning/);
    expect([r.status, r.stdout]).toEqual([0, expected]);
    expect(r.stderr).toMatch(/in 3 WARC files.*; 0 of 3 downloaded \(0\.0 MiB\)/);
    expect(server.count).toBe(0);
  });

  it('a gzipped list of http URLs (Common Crawl\'s robotstxt.paths.gz shape): downloaded, the same verdicts, the downloads removed', async () => {
    const tmp = ownTmp();
    const r = await classify(['--robots-warc-list', list('urls.gz', NAMES.map((n) => `${server.origin}/${n}`), true)], tmp);
    expect(r.stderr).not.toMatch(/warning/);
    expect([r.status, r.stdout]).toEqual([0, expected]);
    expect(server.requests.map((q) => q.path)).toEqual(NAMES.map((n) => `/${n}`));
    expect(server.requests[0].headers['user-agent']).toMatch(/^robots-wasm\//);
    const total = [...octets.values()].reduce((a, b) => a + b.length, 0);
    expect(r.stderr).toContain(`; 3 of 3 downloaded (${(total / 2 ** 20).toFixed(1)} MiB)`);
    expect(r.stderr).not.toContain('WARC files ['); // (no bar: stderr is not a terminal)
    expect(readdirSync(tmp)).toEqual([]);
  });

  it('relative entries against --warc-base: a URL (with or without its trailing slash) and a directory', async () => {
    const relative = list('relative.txt', ['# a comment, then a blank line', '', ...NAMES]);
    for (const base of [`${server.origin}/base/`, `${server.origin}/base`]) {
      server.requests.length = 0;
      const r = await classify(['--robots-warc-list', relative, '--warc-base', base, '--user-agent', 'MyAudit/1.0']);
      expect([r.status, r.stdout, r.stderr]).toEqual([0, expected, expect.not.stringMatching(/warning/)]);
      expect(server.requests.map((q) => [q.path, q.headers['user-agent']])).toEqual(NAMES.map((n) => [`/base/${n}`, 'MyAudit/1.0']));
    }
    const r = await classify(['--robots-warc-list', relative, '--warc-base', path.join(dir, 'warcs')]);
    expect([r.status, r.stdout]).toEqual([0, expected]);
  });

  it('combined with --robots-warc, a file: URL, and from stdin', async () => {
    let r = await classify(['--robots-warc', local(NAMES[0]), '--robots-warc-list', list('rest.txt', [`file://${local(NAMES[1])}`, `${server.origin}/${NAMES[2]}`])]);
    expect([r.status, r.stdout]).toEqual([0, expected]);
    r = await robots(['classify', '--robots-warc-list', '-', '--format', 'jsonl', '-q', at('urls.txt')], gzipSync(NAMES.map(local).join('\n')));
    expect([r.status, r.stdout]).toEqual([0, expected]);
    expectUsageError(await robots(['classify', '--robots-warc-list', '-'], 'x'), /--robots-warc-list - reads the list from stdin, so the URLs cannot come from there too/);
  });

  it('a server that fails twice (500, then a body cut short), then serves: retried with back-off, the same verdicts', async () => {
    let n = 0;
    handle = (req, res) => {
      if (!req.url!.endsWith('b.warc.gz')) return serveWarcs(req, res);
      n++;
      if (n === 1) {
        res.writeHead(500);
        return res.end();
      }
      if (n === 2) {
        // Promises the whole file, sends half, and closes.
        const body = octets.get(NAMES[1])!;
        res.writeHead(200, { 'content-length': body.length });
        res.write(body.subarray(0, body.length >> 1));
        return setTimeout(() => res.socket?.destroy(), 20);
      }
      serveWarcs(req, res);
    };
    const began = performance.now();
    const r = await classify(['--robots-warc-list', list('retry.txt', NAMES.map((name) => `${server.origin}/${name}`))]);
    expect([r.status, r.stdout]).toEqual([0, expected]);
    expect(n).toBe(3);
    expect(r.stderr).toMatch(/warning: http:\/\/127\.0\.0\.1:\d+\/\S+b\.warc\.gz \(.*retry\.txt:2\): http 500 Internal Server Error; retry 1 of 5 in 1\.0 s/);
    expect(r.stderr).toMatch(/b\.warc\.gz \(.*retry\.txt:2\): cut short: .*; retry 2 of 5 in 2\.0 s/);
    expect(performance.now() - began).toBeGreaterThan(3000); // 1 s, then 2 s
  }, 30_000);

  it('a server that always fails: the attempts are bounded (1 + --warc-retries), the URL named and skipped, the rest classified, exit 1', async () => {
    handle = (req, res) => {
      if (!req.url!.endsWith('b.warc.gz')) return serveWarcs(req, res);
      res.writeHead(502);
      res.end();
    };
    const r = await classify(['--robots-warc-list', list('fails.txt', NAMES.map((name) => `${server.origin}/${name}`)), '--warc-retries', '2']);
    expect(r.status).toBe(1);
    expect(server.requests.filter((q) => q.path.endsWith('b.warc.gz'))).toHaveLength(3);
    expect(r.stderr).toMatch(/warning: \S+b\.warc\.gz \(.*fails\.txt:2\): http 502 Bad Gateway \(after 3 attempts\): skipped, its captures are missing/);
    expect(r.stderr).toMatch(/; 2 of 3 downloaded .*; 1 skipped \(said above\): their captures are missing/);
    // Every URL has its line; b.example's capture is missing, both.example's is the older one.
    const got = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(got.map((l) => [l.url, l.robots])).toEqual([
      ['http://a.example/private-a', 'ok'],
      ['http://a.example/public', 'ok'],
      ['http://b.example/x', 'missing'],
      ['http://both.example/private-new', 'ok'],
      ['http://both.example/private-old', 'ok'],
      ['http://c.example/private-a', 'ok'],
      ['http://none.example/x', 'missing'],
    ]);
    expect(got[4].allowed).toBe(false);
    // With -q too: the skip is said, and the exit says it.
    const quiet = await classify(['--robots-warc-list', at('fails.txt'), '--warc-retries', '0', '-q']);
    expect(quiet.status).toBe(1);
    expect(quiet.stderr).toMatch(/http 502 Bad Gateway: skipped[^]*1 WARC file of the list skipped/);
  }, 30_000);

  it('a 404 is not retried (a wrong path will not appear)', async () => {
    const r = await classify(['--robots-warc-list', list('missing.txt', [`${server.origin}/nope.warc.gz`, local(NAMES[0])])]);
    expect(r.status).toBe(1);
    expect(server.count).toBe(1);
    expect(r.stderr).toMatch(/nope\.warc\.gz \(.*missing\.txt:1\): http 404 Not Found: skipped/);
  });

  it('Retry-After on a 503 and a 429 is waited for instead of the back-off', async () => {
    // Both runs at once (each waits 2 s), each list naming the file under a query of its own, so each first reply is its own.
    const replies = new Map<string, number>();
    handle = (req, res) => {
      const status = Number(new URL(req.url!, server.origin).searchParams.get('status'));
      const n = replies.get(req.url!) ?? 0;
      replies.set(req.url!, n + 1);
      if (n > 0) {
        req.url = req.url!.replace(/\?.*/, '');
        return serveWarcs(req, res);
      }
      res.writeHead(status, { 'retry-after': '2' });
      res.end();
    };
    const began = performance.now();
    const runs = await Promise.all([503, 429].map((status) => classify(['--robots-warc-list', list(`after-${status}.txt`, [`${server.origin}/${NAMES[0]}?status=${status}`])])));
    expect(performance.now() - began).toBeGreaterThan(2000);
    [503, 429].forEach((status, k) => {
      expect(runs[k].status, String(status)).toBe(0);
      expect(runs[k].stderr).toMatch(new RegExp(`http ${status} .*; retry 1 of 5 in 2\\.0 s`));
      expect(replies.get(`/${NAMES[0]}?status=${status}`), String(status)).toBe(2);
    });
  }, 30_000);

  it('a server that stalls: --warc-timeout-ms ends each attempt (before the reply, and in the body), bounded; a slow but steady one is waited for', async () => {
    const body = octets.get(NAMES[0])!;
    handle = (req, res) => {
      if (req.url!.includes('silent')) return; // never replies
      res.writeHead(200, { 'content-length': body.length });
      res.write(body.subarray(0, 10)); // then nothing
    };
    const began = performance.now();
    const r = await classify(['--robots-warc-list', list('stall.txt', [`${server.origin}/silent/a.warc.gz`, `${server.origin}/stall/a.warc.gz`]), '--warc-timeout-ms', '300', '--warc-retries', '1']);
    expect(r.status).toBe(1);
    expect(server.count).toBe(4);
    expect(r.stderr).toMatch(/silent\/a\.warc\.gz \(.*stall\.txt:1\): no reply for 300 ms \(after 2 attempts\): skipped/);
    expect(r.stderr).toMatch(/stall\/a\.warc\.gz \(.*stall\.txt:2\): no octets for 300 ms \(after 10\) \(after 2 attempts\): skipped/);
    expect(performance.now() - began).toBeLessThan(10_000);
    // Twenty pieces 150 ms apart: 3 s in all, never 1.5 s without octets, and each 1.5 s well over
    // the slowest rate (1 KiB/s): a WARC of some 40 KiB, its body 80 KiB of comment lines that do not deflate.
    const steady = await writeWarc(at('steady.warc.gz'), [{ url: 'http://a.example/robots.txt', body: rules('a') + randomBytes(40_000).toString('hex').replace(/.{78}/g, '# $&\n') }]);
    handle = (_, res) => {
      const body = steady;
      res.writeHead(200, { 'content-length': body.length });
      const step = Math.ceil(body.length / 20);
      let k = 0;
      const timer = setInterval(() => {
        res.write(body.subarray(k, k + step));
        k += step;
        if (k >= body.length) {
          clearInterval(timer);
          res.end();
        }
      }, 150);
    };
    const slow = await classify(['--robots-warc-list', list('slow.txt', [`${server.origin}/${NAMES[0]}`]), '--warc-timeout-ms', '1500']);
    expect([slow.status, slow.stderr]).toEqual([0, expect.not.stringMatching(/warning/)]);
  }, 30_000);

  it(`${MAX_FAILURES_IN_A_ROW} downloads failing in a row (a wrong --warc-base: a 404 each) stop the run, exit 2, nothing written; fewer are skipped`, async () => {
    const names = Array.from({ length: 20 }, (_, k) => `wrong/${k}.warc.gz`);
    const out = at('stopped.tsv');
    const r = await classify(['--robots-warc-list', list('wrong.txt', names), '--warc-base', `${server.origin}/`, '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').at(-1)).toMatch(new RegExp(`^robots: ${MAX_FAILURES_IN_A_ROW} WARC files of the list in a row could not be downloaded \\(the last: \\S+/wrong/${MAX_FAILURES_IN_A_ROW - 1}\\.warc\\.gz \\(.*wrong\\.txt:${MAX_FAILURES_IN_A_ROW}\\): http 404 Not Found\\): stopped`));
    expect(server.count).toBeLessThanOrEqual(MAX_FAILURES_IN_A_ROW + 2); // (those in flight when it stops)
    expect(readdirSync(dir)).not.toContain('stopped.tsv');
    // One fewer in a row, then a file that is there: skipped, and the run goes on.
    const r2 = await classify(['--robots-warc-list', list('wrong2.txt', [...names.slice(0, MAX_FAILURES_IN_A_ROW - 1), NAMES[0], ...names.slice(0, MAX_FAILURES_IN_A_ROW - 1), NAMES[1], NAMES[2]]), '--warc-base', `${server.origin}/`]);
    expect(r2.status).toBe(1);
    expect(r2.stderr).toMatch(new RegExp(`; 3 of ${2 * MAX_FAILURES_IN_A_ROW + 1} downloaded .*; ${2 * MAX_FAILURES_IN_A_ROW - 2} skipped`));
    expect(r2.stdout).toBe(expected);
  });

  it('https: a server whose certificate verifies (NODE_EXTRA_CA_CERTS) is read; one that does not fails at once, not retried', async () => {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', at('key.pem'), '-out', at('cert.pem'), '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    let requests = 0;
    const tls = https.createServer({ key: readFileSync(at('key.pem')), cert: readFileSync(at('cert.pem')) }, (req, res) => {
      requests++;
      serveWarcs(req, res);
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
      const lines = list('https.txt', NAMES.map((n) => `${origin}/${n}`));
      const ok = await robots(['classify', '--robots-warc-list', lines, '--format', 'jsonl', at('urls.txt')], undefined, { env: { NODE_EXTRA_CA_CERTS: at('cert.pem'), TMPDIR: ownTmp() } });
      expect([ok.status, ok.stdout, ok.stderr]).toEqual([0, expected, expect.not.stringMatching(/warning/)]);
      expect(requests).toBe(3);
      const bad = await classify(['--robots-warc-list', list('https1.txt', [`${origin}/${NAMES[0]}`, local(NAMES[1])])]);
      expect(bad.status).toBe(1);
      expect(requests).toBe(3); // (the handshake fails before any request)
      expect(bad.stderr).toMatch(/https:\/\/127\.0\.0\.1:\d+\/\S+a\.warc\.gz \(.*https1\.txt:1\): self[- ]signed certificate: skipped/);
      expect(bad.stderr).not.toMatch(/retry/);
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });

  it('robots index takes the same list: its index of the downloads classifies as --robots-warc does; the manifest names the URLs; a skipped file exits 1', async () => {
    const out = at('idx');
    const lines = list('idx.txt', NAMES.map((n) => `${server.origin}/${n}`));
    const r = await robots(['index', '--robots-warc-list', lines, '--shards', '2', '--out', out], undefined, { env: { TMPDIR: ownTmp() } });
    expect([r.status, r.stderr]).toEqual([0, expect.stringMatching(/robots index: .* in 3 WARC files .*; 3 of 3 downloaded/)]);
    expect(JSON.parse(readFileSync(path.join(out, 'index.json'), 'utf8')).sources.map((f: { path: string }) => f.path)).toEqual(NAMES.map((n) => `${server.origin}/${n}`));
    const c = await robots(['classify', '--robots-index', out, '--format', 'jsonl', '-q', at('urls.txt')]);
    expect([c.status, c.stdout]).toEqual([0, expected]);
    handle = (req, res) => (req.url!.endsWith('b.warc.gz') ? res.writeHead(404).end() : serveWarcs(req, res));
    const skipped = await robots(['index', '--robots-warc-list', lines, '--out', at('idx2')]);
    expect([skipped.status, skipped.stderr]).toEqual([1, expect.stringMatching(/b\.warc\.gz \(.*idx\.txt:2\): http 404 Not Found: skipped/)]);
    expectUsageError(await robots(['index', '--warc-base', dir, '--out', at('idx3'), local(NAMES[0])]), /--warc-base is for the entries of --robots-warc-list, which is not given/);
  });

  it('a redirect is followed (up to 5)', async () => {
    handle = (req, res) => {
      const m = /^\/hop(\d+)$/.exec(req.url!);
      if (m === null) return serveWarcs(req, res);
      res.writeHead(302, { location: Number(m[1]) === 0 ? `/${NAMES[0]}` : `/hop${Number(m[1]) - 1}` });
      res.end();
    };
    expect((await classify(['--robots-warc-list', list('hop.txt', [`${server.origin}/hop4`])])).status).toBe(0);
    const r = await classify(['--robots-warc-list', list('hops.txt', [`${server.origin}/hop5`])]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/hop5 \(.*\): more than 5 redirects: skipped/);
  });

  it('bad input, each said in one line before anything is fetched: a missing list, bad lines, a missing local entry, an empty list, a bad base', async () => {
    expectUsageError(await classify(['--robots-warc-list', at('no-such-list.gz')]), /cannot read WARC list .*no-such-list\.gz: no such file or directory/);
    expectUsageError(await classify(['--robots-warc-list', dir]), /cannot read WARC list .*: is a directory/);
    expectUsageError(await classify(['--robots-warc-list', list('s3.txt', [local(NAMES[0]), 's3://commoncrawl/crawl-data/x.warc.gz', 'ftp://x/y', 'https://[bad/'])]), /s3\.txt:2: s3: URLs are not fetched .* \(and 2 more bad lines\)\n$/);
    expectUsageError(await classify(['--robots-warc-list', list('gone.txt', [local(NAMES[0]), '/no/such/file.warc.gz'])]), /gone\.txt:2: cannot read WARC file \/no\/such\/file\.warc\.gz: no such file or directory/);
    expectUsageError(await classify(['--robots-warc-list', list('empty.txt', ['', '# nothing'])]), /--robots-warc-list .*empty\.txt names no WARC file/);
    writeFileSync(at('binary.gz'), gzipSync(Buffer.from([0xff, 0xfe, 0x00, 0x41])));
    expectUsageError(await classify(['--robots-warc-list', at('binary.gz')]), /binary\.gz: not UTF-8 text/);
    writeFileSync(at('control.txt'), `${local(NAMES[0])}\n\x01\x02\n`);
    expectUsageError(await classify(['--robots-warc-list', at('control.txt')]), /control\.txt:2: not a path or URL \(control characters\)/);
    expectUsageError(await classify(['--robots-warc-list', list('rel.txt', ['a.warc.gz']), '--warc-base', at('no-dir')]), /cannot read --warc-base .*no-dir: no such file or directory/);
    expectUsageError(await classify(['--robots-warc', local(NAMES[0]), '--warc-base', dir]), /--warc-base is for the entries of --robots-warc-list, which is not given/);
    expectUsageError(await classify(['--robots-warc-list', at('rel.txt'), '--warc-retries', '-1']), /--warc-retries must be a whole number from 0 to 100, got "-1"/);
    expectUsageError(await classify(['--robots-warc-list', at('rel.txt'), '--warc-timeout-ms', '0']), /--warc-timeout-ms must be a whole number from 1/);
    expectUsageError(await classify(['--robots-warc-list', at('rel.txt'), '--robots-dir', dir]), /give one of --robots FILE/);
    expect(server.count).toBe(0);
  });

  it('a list longer than 64 MiB is refused: gzipped (a bomb), plain, or from stdin; 64 MiB is read', async () => {
    const long = Buffer.alloc((64 << 20) + 1, 0x0a); // blank lines: nothing but length
    writeFileSync(at('bomb.gz'), gzipSync(long));
    expectUsageError(await classify(['--robots-warc-list', at('bomb.gz')]), /cannot read WARC list .*bomb\.gz: longer than 64 MiB once decompressed/);
    writeFileSync(at('long.txt'), long);
    expectUsageError(await classify(['--robots-warc-list', at('long.txt')]), /cannot read WARC list .*long\.txt: longer than 64 MiB/);
    expectUsageError(await robots(['classify', '--robots-warc-list', '-', at('urls.txt')], long), /--robots-warc-list stdin is longer than 64 MiB/);
    // One octet fewer: read (and found to name no file).
    writeFileSync(at('just.gz'), gzipSync(long.subarray(1)));
    expectUsageError(await classify(['--robots-warc-list', at('just.gz')]), /just\.gz names no WARC file/);
  }, 120_000); // four commands each reading 64 MiB: 30 s was too short beside other suites (a hang guard, not a clock)

  it('a download that is not a WARC (an HTML page with 200) is damage, said as for --robots-warc, named by its URL', async () => {
    handle = (_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>this is not a WARC</html>\n');
    };
    const r = await classify(['--robots-warc-list', list('html.txt', [`${server.origin}/page.warc.gz`])]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`warning: ${server.origin}/page\\.warc\\.gz: cannot read past offset 0 \\(not a WARC record`));
    expect(r.stderr).not.toMatch(/robots-warc-list-[A-Za-z0-9]+\//);
  });

  it('a progress bar when stderr is a terminal: files read of all, MiB read and the rate, MiB downloaded', async () => {
    // util-linux's script(1): the command on a pseudo-terminal, its output as the terminal got it.
    const command = [process.execPath, CLI, 'classify', '--robots-warc-list', list('bar.txt', NAMES.map((name) => `${server.origin}/${name}`)), at('urls.txt')].map((a) => `'${a}'`).join(' ');
    const child = spawn('script', ['-qec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    expect(await new Promise((resolve) => child.once('close', resolve))).toBe(0);
    const bars = out.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/[\r\n]+/).filter((l) => l.includes('WARC files ['));
    expect(bars[0]).toMatch(/\] 0\/3 \| 0\.0 MiB read, [\d.]+ MiB\/s \| [\d.]+ MiB downloaded/);
    expect(bars.at(-1)).toMatch(/\] 3\/3 \| [\d.]+ MiB read, [\d.]+ MiB\/s \| [\d.]+ MiB downloaded/);
    expect(out).toMatch(/indexed 5 responses/);
  });

  it('at most 3 downloads on disk at a time, whatever the list\'s length', async () => {
    const tmp = ownTmp();
    let most = 0;
    handle = (req, res) => {
      const held = readdirSync(tmp).flatMap((d) => readdirSync(path.join(tmp, d)));
      most = Math.max(most, held.length);
      serveWarcs(req, res);
    };
    const entries = Array.from({ length: 12 }, (_, k) => `${server.origin}/${NAMES[k % 3]}`);
    const r = await classify(['--robots-warc-list', list('twelve.txt', entries)], tmp);
    expect([r.status, r.stdout]).toEqual([0, expected]);
    expect(server.count).toBe(12);
    expect(most).toBeLessThanOrEqual(3);
    expect(readdirSync(tmp)).toEqual([]);
  });
});


describe('robots classify --robots-warc-list, interrupted', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`by ${signal} in the middle of a download: the downloads are removed and the process ends by the signal`, async () => {
      const body = octets.get(NAMES[0])!;
      handle = (_, res) => {
        res.writeHead(200, { 'content-length': body.length });
        res.write(body.subarray(0, 100)); // then nothing, until the command is stopped
      };
      const tmp = ownTmp();
      const child = spawn(process.execPath, [CLI, 'classify', '--robots-warc-list', list('stopped.txt', [`${server.origin}/${NAMES[0]}`]), at('urls.txt')], { stdio: 'ignore', env: { ...process.env, TMPDIR: tmp } });
      const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, sig) => resolve([code, sig])));
      const downloads = () => readdirSync(tmp).filter((d) => d.startsWith('robots-warc-list-')).flatMap((d) => readdirSync(path.join(tmp, d)));
      // (up to 30 s: a loaded machine can take seconds to start; the wait ends as soon as the download has begun)
      for (let t = 0; (server.count === 0 || downloads().length === 0) && t < 600; t++) await new Promise((r) => setTimeout(r, 50));
      expect(downloads()).toHaveLength(1);
      child.kill(signal);
      expect(await exited).toEqual([null, signal]);
      expect(readdirSync(tmp)).toEqual([]); // the download's folder, and the index's spill
    }, 40_000);
  }
});
