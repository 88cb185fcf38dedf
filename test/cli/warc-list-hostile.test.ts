// robots classify --robots-warc-list against a hostile server on 127.0.0.1:
// Retry-After that is huge, negative or garbage, headers or bodies that
// trickle, 1xx replies without end, bodies that never end or are cut,
// redirect loops and redirects to other schemes, gzip that is not a WARC, a
// list of 10,000 entries, entries that climb out of their base.
// Each case ends (the command's own limits, lowered here by its options so
// that it ends soon), says each bad entry in one line, and loses nothing of
// the good entries. No assertion is on time: each is on what was said, sent
// and left, the hang guard (cli-run.ts) aside.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, expectUsageError, robots } from '../helpers/cli-run.js';
import type { Handler } from '../helpers/http-servers.js';
import { writeWarc } from '../helpers/warc-files.js';
import { PREFETCH } from '../../src/bulk/sources/warc/warc-list.js';
import { MAX_INFORMATIONAL } from '../../src/bulk/sources/warc/warc-download.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (file: string) => path.join(dir, file);

/** The good WARC: a.example disallows /private. */
let good: Buffer;
const URLS = 'http://a.example/private\nhttp://a.example/public\n';
/** What every run that read the good WARC prints (jsonl, `allowed` of each URL). */
const GOOD_VERDICTS = [false, true];

/** The server: its handler set by each test, its requests and sockets counted. */
const server = { origin: '', count: 0 };
let handle: Handler;
/** Sockets open now, and the most open at once since the last reset. */
let open = 0;
let mostOpen = 0;
/** Sockets opened since the last reset. */
let connections = 0;
const http1 = http.createServer((req, res) => {
  server.count++;
  handle(req, res);
});
http1.on('connection', (socket) => {
  connections++;
  mostOpen = Math.max(mostOpen, ++open);
  socket.once('close', () => open--);
});
const serveGood: Handler = (_, res) => {
  res.writeHead(200, { 'content-length': good.length });
  res.end(good);
};

beforeAll(async () => {
  good = await writeWarc(at('good.warc.gz'), [{ url: 'http://a.example/robots.txt', body: 'User-agent: *\nDisallow: /private\n' }]);
  writeFileSync(at('urls.txt'), URLS);
  handle = serveGood;
  await new Promise<void>((resolve) => http1.listen(0, '127.0.0.1', resolve));
  server.origin = `http://127.0.0.1:${(http1.address() as AddressInfo).port}`;
});
afterAll(async () => {
  http1.closeAllConnections();
  await new Promise((resolve) => http1.close(resolve));
});
afterEach(() => {
  handle = serveGood;
  server.count = 0;
  mostOpen = open;
  connections = 0;
});

function list(name: string, lines: string[]): string {
  writeFileSync(at(name), lines.join('\n') + '\n');
  return at(name);
}
const url = (p: string) => `${server.origin}${p}`;

function ownTmp(): string {
  return mkdtempSync(path.join(dir, 'tmp-'));
}

/** classify over the list (jsonl); the downloads' folder must be gone after. */
async function classify(args: string[], env: Record<string, string> = {}, killAfterMs?: number) {
  const tmp = ownTmp();
  const r = await robots(['classify', ...args, '--format', 'jsonl', at('urls.txt')], undefined, { env: { TMPDIR: tmp, ...env }, killAfterMs });
  expect(readdirSync(tmp)).toEqual([]);
  return { ...r, allowed: r.stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l).allowed as boolean) };
}

/** The warning lines of a run, about the entry whose path ends so. */
const warnings = (stderr: string, tail: string) => stderr.split('\n').filter((l) => l.startsWith('robots classify: warning: ') && l.includes(`${tail} (`));

describe('robots classify --robots-warc-list from a hostile server', () => {
  /** The good WARC served at each path after one reply `first(path)`; the command run on each path at once
   * (each waits its back-off: at once, the waits overlap); its run and the replies its path had. */
  async function afterOneReply(paths: string[], first: (path: string, res: import('node:http').ServerResponse) => void) {
    const replies = new Map<string, number>();
    handle = (req, res) => {
      const n = replies.get(req.url!) ?? 0;
      replies.set(req.url!, n + 1);
      if (n > 0) return serveGood(req, res);
      first(req.url!, res);
    };
    const runs = await Promise.all(paths.map((p, k) => classify(['--robots-warc-list', list(`after-one-${k}.txt`, [url(p)]), '--warc-retries', '1'])));
    return runs.map((r, k) => ({ r, replies: replies.get(paths[k]) }));
  }

  it('Retry-After negative, fractional or garbage is ignored: the back-off is waited, not 0 s', async () => {
    const values = ['-5', '1.5', 'soon', '1e3', 'Wed, 99 Foo 2024 25:61:00 GMT'];
    const paths = values.map((_, k) => `/garbage-${k}.warc.gz`);
    const runs = await afterOneReply(paths, (p, res) => {
      res.writeHead(503, { 'retry-after': values[paths.indexOf(p)] });
      res.end();
    });
    runs.forEach(({ r, replies }, k) => {
      expect([r.status, r.allowed], values[k]).toEqual([0, GOOD_VERDICTS]);
      expect(warnings(r.stderr, paths[k]), values[k]).toEqual([expect.stringMatching(/http 503 Service Unavailable; retry 1 of 1 in 1\.0 s$/)]);
      expect(replies, values[k]).toBe(2);
    });
  }, 40_000); // five runs at once of a second's back-off each, on a machine that may be busy

  it('Retry-After as an HTTP date, in each of its three forms, is read against the reply\'s Date', async () => {
    const date = 'Sun, 06 Nov 1994 08:49:37 GMT';
    const values = ['Sun, 06 Nov 1994 08:49:38 GMT', 'Sunday, 06-Nov-94 08:49:38 GMT', 'Sun Nov  6 08:49:38 1994'];
    const paths = values.map((_, k) => `/dated-${k}.warc.gz`);
    const runs = await afterOneReply(paths, (p, res) => {
      res.writeHead(429, { 'retry-after': values[paths.indexOf(p)], date });
      res.end();
    });
    runs.forEach(({ r, replies }, k) => {
      expect([r.status, r.allowed], values[k]).toEqual([0, GOOD_VERDICTS]);
      expect(warnings(r.stderr, paths[k]), values[k]).toEqual([expect.stringMatching(/http 429 Too Many Requests; retry 1 of 1 in 1\.0 s$/)]);
      expect(replies, values[k]).toBe(2);
    });
  }, 40_000);

  it('Retry-After huge (seconds or a date in year 9999) is capped at 10 minutes; an interrupted wait leaves nothing behind', async () => {
    for (const value of ['99999999999999999999', 'Fri, 31 Dec 9999 23:59:59 GMT']) {
      handle = (_, res) => {
        res.writeHead(503, { 'retry-after': value });
        res.end();
      };
      const tmp = ownTmp();
      const child = spawn(process.execPath, [CLI, 'classify', '--robots-warc-list', list('huge.txt', [url('/a.warc.gz')]), at('urls.txt')], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, TMPDIR: tmp } });
      let stderr = '';
      const exited = new Promise<[number | null, string | null]>((resolve) => child.once('exit', (code, sig) => resolve([code, sig])));
      // The wait is said before it begins; the test stops the command there rather than wait 10 minutes.
      await new Promise<void>((resolve) => {
        child.stderr.on('data', (d) => {
          stderr += d;
          if (stderr.includes('\n')) resolve();
        });
        child.once('exit', () => resolve());
      });
      child.kill('SIGTERM');
      expect(await exited).toEqual([null, 'SIGTERM']);
      expect(stderr).toMatch(/a\.warc\.gz \(.*huge\.txt:1\): http 503 Service Unavailable; retry 1 of 5 in 600 s\n/);
      expect(readdirSync(tmp)).toEqual([]);
    }
  }, 40_000);

  it('a body trickling (an octet every 100 ms, with or without Content-Length) is cut by the slow-rate limit over --warc-timeout-ms, retried, skipped; the good entry read', async () => {
    const trickles = new Set<NodeJS.Timeout>();
    handle = (req, res) => {
      if (req.url === '/good.warc.gz') return serveGood(req, res);
      res.writeHead(200, req.url!.includes('chunked') ? {} : { 'content-length': 1e9 });
      const timer = setInterval(() => res.write('x'), 100);
      trickles.add(timer);
      res.once('close', () => clearInterval(timer));
    };
    try {
      const r = await classify(['--robots-warc-list', list('trickle.txt', [url('/trickle.warc.gz'), url('/chunked.warc.gz'), url('/good.warc.gz')]), '--warc-timeout-ms', '1000', '--warc-retries', '1']);
      expect([r.status, r.allowed]).toEqual([1, GOOD_VERDICTS]);
      for (const [tail, line] of [['/trickle.warc.gz', 1], ['/chunked.warc.gz', 2]] as const) {
        expect(warnings(r.stderr, tail)).toEqual([
          expect.stringMatching(new RegExp(`\\(.*trickle\\.txt:${line}\\): slower than 1 KiB/s: \\d+ octets in 1000 ms \\(after \\d+\\); retry 1 of 1 in 1\\.0 s$`)),
          expect.stringMatching(/slower than 1 KiB\/s: .* \(after 2 attempts\): skipped, its captures are missing$/),
        ]);
      }
      expect(server.count).toBe(5);
    } finally {
      for (const t of trickles) clearInterval(t);
    }
  }, 40_000);

  it('a reply whose headers trickle (an octet every 100 ms, never idle, never done) is cut by the same limit', async () => {
    const trickles = new Set<NodeJS.Timeout>();
    handle = (req, res) => {
      if (req.url === '/good.warc.gz') return serveGood(req, res);
      // The status line, then a header an octet at a time, written on the socket itself.
      req.socket.write('HTTP/1.1 200 OK\r\nX-Slow: ');
      const timer = setInterval(() => req.socket.write('a'), 100);
      trickles.add(timer);
      req.socket.once('close', () => clearInterval(timer));
    };
    try {
      const r = await classify(['--robots-warc-list', list('headers.txt', [url('/headers.warc.gz'), url('/good.warc.gz')]), '--warc-timeout-ms', '1000', '--warc-retries', '0']);
      expect([r.status, r.allowed]).toEqual([1, GOOD_VERDICTS]);
      expect(warnings(r.stderr, '/headers.warc.gz')).toEqual([expect.stringMatching(/headers\.txt:1\): slower than 1 KiB\/s: \d+ octets in 1000 ms \(after 0\): skipped, its captures are missing$/)]);
    } finally {
      for (const t of trickles) clearInterval(t);
    }
  }, 40_000);

  it('informational replies without end (103 Early Hints every 10 ms, well over the slowest rate) are cut after a few, not retried', async () => {
    const hints = new Set<NodeJS.Timeout>();
    handle = (req, res) => {
      if (req.url === '/good.warc.gz') return serveGood(req, res);
      const timer = setInterval(() => res.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' }), 10);
      hints.add(timer);
      res.once('close', () => clearInterval(timer));
    };
    try {
      const r = await classify(['--robots-warc-list', list('hints.txt', [url('/hints.warc.gz'), url('/good.warc.gz')])]);
      expect([r.status, r.allowed]).toEqual([1, GOOD_VERDICTS]);
      expect(warnings(r.stderr, '/hints.warc.gz')).toEqual([expect.stringMatching(new RegExp(`hints\\.txt:1\\): more than ${MAX_INFORMATIONAL} informational \\(1xx\\) replies: skipped, its captures are missing$`))]);
      expect(server.count).toBe(2);
    } finally {
      for (const t of hints) clearInterval(t);
    }
  }, 40_000);

  it('a body larger than --warc-max-mb is refused, not retried: by its Content-Length before a read, or when it passes the limit (a body that never ends)', async () => {
    handle = (req, res) => {
      if (req.url === '/good.warc.gz') return serveGood(req, res);
      if (req.url === '/announced.warc.gz') {
        res.writeHead(200, { 'content-length': (1 << 20) + 1 });
        return res.end(); // (it would be cut short too: the length alone refuses it)
      }
      res.writeHead(200);
      const block = Buffer.alloc(64 << 10, 0x41);
      const pour = () => {
        while (!res.destroyed && res.write(block));
      };
      res.on('drain', pour);
      pour();
    };
    const r = await classify(['--robots-warc-list', list('big.txt', [url('/announced.warc.gz'), url('/endless.warc.gz'), url('/good.warc.gz')]), '--warc-max-mb', '1']);
    expect([r.status, r.allowed]).toEqual([1, GOOD_VERDICTS]);
    expect(warnings(r.stderr, '/announced.warc.gz')).toEqual([expect.stringMatching(/big\.txt:1\): Content-Length 1,048,577: longer than --warc-max-mb 1 \(1,048,576 octets\): skipped, its captures are missing$/)]);
    expect(warnings(r.stderr, '/endless.warc.gz')).toEqual([expect.stringMatching(/big\.txt:2\): longer than --warc-max-mb 1 \(1,048,576 octets\): skipped, its captures are missing$/)]);
    expect(server.count).toBe(3);
    // robots index takes the same limit.
    const tmp = ownTmp();
    const index = await robots(['index', '--robots-warc-list', at('big.txt'), '--warc-max-mb', '1', '--out', at('big-idx')], undefined, { env: { TMPDIR: tmp } });
    expect([index.status, index.stderr]).toEqual([1, expect.stringMatching(/endless\.warc\.gz \(.*big\.txt:2\): longer than --warc-max-mb 1 .*: skipped/)]);
    expect(readdirSync(tmp)).toEqual([]);
    expectUsageError(await robots(['classify', '--robots-warc-list', at('big.txt'), '--warc-max-mb', '0', at('urls.txt')]), /--warc-max-mb must be a whole number from 1 to/);
    expectUsageError(await robots(['classify', '--robots-warc', at('good.warc.gz'), '--warc-max-mb', '5', at('urls.txt')]), /--warc-max-mb is for the entries of --robots-warc-list, which is not given/);
  }, 40_000);

  it('bodies cut short, with and without Content-Length, are retried then skipped; the good entry read', async () => {
    handle = (req, res) => {
      if (req.url === '/good.warc.gz') return serveGood(req, res);
      res.writeHead(200, req.url!.includes('chunked') ? {} : { 'content-length': good.length });
      res.write(good.subarray(0, 20));
      setTimeout(() => res.socket?.destroy(), 20);
    };
    const r = await classify(['--robots-warc-list', list('cut.txt', [url('/cut.warc.gz'), url('/chunked.warc.gz'), url('/good.warc.gz')]), '--warc-retries', '1']);
    expect([r.status, r.allowed]).toEqual([1, GOOD_VERDICTS]);
    expect(warnings(r.stderr, '/cut.warc.gz').at(-1)).toMatch(/cut\.txt:1\): cut short: .*after 20 octets \(after 2 attempts\): skipped/);
    expect(warnings(r.stderr, '/chunked.warc.gz').at(-1)).toMatch(/cut\.txt:2\): cut short: .*after 20 octets \(after 2 attempts\): skipped/);
    expect(server.count).toBe(5);
  }, 40_000);

  it('a redirect loop ends after 5 hops, not retried; redirects to file:, ftp:, data: and javascript: are refused, not followed', async () => {
    const targets: Record<string, string> = { '/file': 'file:///etc/passwd', '/ftp': 'ftp://127.0.0.1/x.warc.gz', '/data': 'data:text/plain,WARC/1.0', '/js': 'javascript:alert(1)' };
    handle = (req, res) => {
      if (req.url === '/good.warc.gz') return serveGood(req, res);
      res.writeHead(req.url === '/loop' ? 302 : 301, { location: targets[req.url!] ?? '/loop' });
      res.end();
    };
    // (The good entry in the middle: five failures in a row would stop the run.)
    const r = await classify(['--robots-warc-list', list('redirects.txt', [url('/loop'), url('/file'), url('/good.warc.gz'), url('/ftp'), url('/data'), url('/js')])]);
    expect([r.status, r.allowed]).toEqual([1, GOOD_VERDICTS]);
    expect(warnings(r.stderr, '/loop')).toEqual([expect.stringMatching(/redirects\.txt:1\): more than 5 redirects: skipped/)]);
    for (const [p, scheme, line] of [['/file', 'file:', 2], ['/ftp', 'ftp:', 4], ['/data', 'data:', 5], ['/js', 'javascript:', 6]] as const) {
      expect(warnings(r.stderr, p)).toEqual([expect.stringMatching(new RegExp(`redirects\\.txt:${line}\\): http 301 to ${scheme} \\(http and https only\\): skipped`))]);
    }
    expect(server.count).toBe(6 + 4 + 1);
  });

  it('gzip that is not a WARC (HTML gzipped, a gzip cut short, a WARC then garbage) is damage named by the URL; the good entry read', async () => {
    const bodies: Record<string, Buffer> = {
      '/html.warc.gz': gzipSync('<html>Service temporarily unavailable</html>'),
      '/cut-gzip.warc.gz': gzipSync(Buffer.alloc(100_000, 1)).subarray(0, 50),
      '/tail.warc.gz': Buffer.concat([gzipSync(Buffer.from('not a record\r\n\r\n')), Buffer.from('garbage')]),
    };
    handle = (req, res) => {
      const body = bodies[req.url!];
      if (body === undefined) return serveGood(req, res);
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    };
    const r = await classify(['--robots-warc-list', list('gzip.txt', [...Object.keys(bodies).map(url), url('/good.warc.gz')])]);
    expect([r.status, r.allowed]).toEqual([0, GOOD_VERDICTS]);
    for (const p of Object.keys(bodies)) {
      const lines = r.stderr.split('\n').filter((l) => l.includes(`${p}:`));
      expect(lines, p).toEqual([expect.stringMatching(new RegExp(`^robots classify: warning: ${url(p).replace(/\./g, '\\.')}: cannot read past uncompressed offset 0 \\(.+\\): the captures after it are skipped$`))]);
    }
    expect(r.stderr).toMatch(/3 damaged parts skipped \(said above\); 4 of 4 downloaded/);
  });
});

describe('robots classify --robots-warc-list of 10,000 entries', () => {
  it(`downloads them ${PREFETCH} ahead of the reader on a few sockets, in a heap of 64 MiB; a failing entry among them skipped, the rest read`, async () => {
    const names = Array.from({ length: 10_000 }, (_, k) => `/crawl/${k}.warc.gz`);
    let inFlight = 0;
    let mostInFlight = 0;
    handle = (req, res) => {
      mostInFlight = Math.max(mostInFlight, ++inFlight);
      res.once('close', () => inFlight--);
      if (req.url === '/crawl/5000.warc.gz') return res.writeHead(404).end();
      serveGood(req, res);
    };
    // (The command's own hang guard is the test's: 10,000 downloads took over 60 s beside two CPU hogs.)
    const r = await classify(['--robots-warc-list', list('ten-thousand.txt', names.map(url)), '-q'], { NODE_OPTIONS: '--max-old-space-size=64' }, 230_000);
    expect([r.status, r.allowed]).toEqual([1, GOOD_VERDICTS]);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/crawl\/5000\.warc\.gz \(.*ten-thousand\.txt:5001\): http 404 Not Found: skipped, its captures are missing$/),
      expect.stringMatching(/1 WARC file of the list skipped/),
    ]);
    expect(server.count).toBe(10_000);
    // (A request may arrive before the server has seen the one before it close; a kept-alive socket
    // the client let go may linger open a moment: a few more than PREFETCH, but not a socket an entry.)
    expect(mostInFlight).toBeLessThanOrEqual(PREFETCH + 1);
    expect(mostOpen).toBeLessThanOrEqual(2 * PREFETCH + 1);
    expect(connections).toBeLessThan(1_000);
  }, 240_000); // 10,000 downloads and indexings: ~20 s on a quiet machine, more on a busy one
});

describe('--robots-warc-list entries with ..', () => {
  it('a relative entry that climbs out of --warc-base (a URL or a directory), however spelt, is a bad line: nothing fetched, exit 2', async () => {
    mkdirSync(at('base/sub'), { recursive: true });
    writeFileSync(at('base/sub/x.warc.gz'), good);
    writeFileSync(at('outside.warc.gz'), good);
    for (const entry of ['../outside.warc.gz', 'sub/../../outside.warc.gz', '%2e%2e/outside.warc.gz', '..\\outside.warc.gz', '\\\\evil.example\\x.warc.gz']) {
      const r = await robots(['classify', '--robots-warc-list', list('climb.txt', ['sub/x.warc.gz', entry]), '--warc-base', url('/base/'), at('urls.txt')]);
      expectUsageError(r, new RegExp(`climb\\.txt:2: .* is not under --warc-base ${url('/base/').replace(/\./g, '\\.')}`));
    }
    expect(server.count).toBe(0);
    const r = await robots(['classify', '--robots-warc-list', list('climb-dir.txt', ['sub/x.warc.gz', '../outside.warc.gz']), '--warc-base', at('base'), at('urls.txt')]);
    expectUsageError(r, /climb-dir\.txt:2: \.\.\/outside\.warc\.gz is not under --warc-base .*base/);
  });

  it('.. that stays under the base is the path it names; absolute paths and URLs name what they name', async () => {
    const r = await classify(['--robots-warc-list', list('stay.txt', ['sub/../sub/x.warc.gz', at('outside.warc.gz'), url('/base/../good.warc.gz')]), '--warc-base', at('base'), '-q']);
    expect([r.status, r.allowed, r.stderr]).toEqual([0, GOOD_VERDICTS, '']);
    expect(server.count).toBe(1);
  });
});
