// robots index on threads (--threads): a WARC gzipped per record is cut into
// stretches at member starts, read apart, and routed in file order; the shard
// files are byte-identical (past the header's run id) whatever the threads and
// wherever the cuts fall (ROBOTS_INDEX_STRETCH_OCTETS=1: a stretch per member),
// and to the index of the same records as a plain WARC, which the main thread
// reads in one stream. A false member start inside a record (a gzip body that
// inflates to "WARC/", stored as it is) and a damaged member in the second
// stretch are read as one reader reads them: the same shards and warnings.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectUsageError, robots } from '../helpers/cli-run.js';
import { serializeCapture, type Capture } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-index-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (...p: string[]) => path.join(dir, ...p);
const rules = (tag: string) => `User-agent: *\nDisallow: /private-${tag}\n`;
const chunked = (body: string) => `5\r\n${body.slice(0, 5)}\r\n${(body.length - 5).toString(16)}\r\n${body.slice(5)}\r\n0\r\n\r\n`;

/** Many kinds of record, hosts captured again at other dates, a long body. */
function captures(): Capture[] {
  const out: Capture[] = [{ url: 'http://info.example/', type: 'warcinfo', body: 'software: test\r\n' }];
  for (let k = 0; k < 60; k++) {
    const url = `http://h${k % 45}.example/robots.txt`;
    const date = `2024-0${1 + (k % 9)}-15T00:00:00Z`;
    if (k % 11 === 5) out.push({ url, status: 301, headers: { Location: `https://www.h${k}.example/robots.txt` }, date });
    else if (k % 13 === 7) out.push({ url, status: k % 2 === 0 ? 404 : 503, date });
    else if (k % 17 === 3) out.push({ url, body: gzipSync(rules(`gz${k}`)), headers: { 'Content-Encoding': 'gzip' }, date });
    else if (k % 19 === 4) out.push({ url, body: chunked(rules(`ch${k}`)), headers: { 'Transfer-Encoding': 'chunked' }, date });
    else if (k % 23 === 6) out.push({ url, body: deflateSync(rules(`df${k}`)), headers: { 'Content-Encoding': 'deflate' }, date });
    else out.push({ url, body: rules(`h${k}`) + (k === 30 ? `# ${'long '.repeat(40_000)}\n` : ''), date });
    if (k % 9 === 0) out.push({ url, type: 'request' });
    if (k % 14 === 0) out.push({ url: `http://m${k}.example/robots.txt`, type: 'metadata', body: 'x' });
    if (k % 15 === 0) out.push({ url, type: 'revisit' });
  }
  return out;
}

/** Octets that do not compress (a stored block keeps a gzip inside them as it is). */
function noise(n: number): string {
  let x = 777;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out += String.fromCharCode(33 + ((x >>> 16) % 90));
  }
  return out;
}

/** The records as gzip members (each its own, as WARC writers write them; `stored`: kept as they are), and as a plain WARC. */
async function write(name: string, list: Capture[], stored: (k: number) => boolean = () => false): Promise<{ starts: number[]; octets: Buffer }> {
  const plain: Uint8Array[] = [];
  const gz: Buffer[] = [];
  for (const [k, c] of list.entries()) {
    const record = await serializeCapture(c, false);
    plain.push(record);
    gz.push(gzipSync(record, stored(k) ? { level: 0 } : {}));
  }
  writeFileSync(at(`${name}.warc`), Buffer.concat(plain));
  const octets = Buffer.concat(gz);
  writeFileSync(at(`${name}.warc.gz`), octets);
  const starts: number[] = [];
  let o = 0;
  for (const m of gz) {
    starts.push(o);
    o += m.length;
  }
  return { starts, octets };
}

/** robots index of `warc` (one file, or several) into `out`: its exit, stderr, and shard files (past the header's run id, octets 20 to 32). */
async function index(warc: string | string[], out: string, threads: number, stretch?: number, extra: string[] = []): Promise<{ status: number | null; stderr: string; shards: Record<string, Buffer> }> {
  const files = (typeof warc === 'string' ? [warc] : warc).flatMap((w) => ['--robots-warc', at(w)]);
  const r = await robots(['index', ...files, '--shards', '4', '--out', at(out), '--threads', String(threads), ...extra], undefined, {
    env: stretch === undefined ? {} : { ROBOTS_INDEX_STRETCH_OCTETS: String(stretch) },
  });
  const shards: Record<string, Buffer> = {};
  if (r.status === 0) {
    for (const f of readdirSync(at(out)).filter((n) => n.endsWith('.rix'))) {
      const b = readFileSync(at(out, f));
      shards[f] = Buffer.concat([b.subarray(0, 20), b.subarray(32)]);
    }
  }
  return { status: r.status, stderr: r.stderr, shards };
}

const summary = (stderr: string) => /(\d[\d,]*) captures of (\d[\d,]*) records/.exec(stderr)?.slice(1);
const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.includes('warning'));

describe('robots index --threads', () => {
  let threeMembers = 0;
  beforeAll(async () => {
    await write('many', captures());
    // A record whose gzip body inflates to a WARC record of its own, stored as it is in its member: a false start.
    const inner = gzipSync(await serializeCapture({ url: 'http://inner.example/robots.txt', body: noise(9000) }, false));
    const withFalse = [...captures().slice(0, 5), { url: 'http://outer.example/robots.txt', body: inner, headers: { 'Content-Type': 'application/gzip' } }, ...captures().slice(5, 12)];
    const written = await write('false-start', withFalse, (k) => k === 5);
    expect(written.octets.includes(inner)).toBe(true);
    // A damaged member (its deflate data flipped) in the second stretch of four members.
    const d = await write('damaged', captures().slice(0, 14));
    threeMembers = d.starts[3]; // (stretches of ~3 members: the damaged one, the 7th, is in the second)
    const damaged = Buffer.from(d.octets);
    damaged[d.starts[6] + 30] ^= 0x55;
    writeFileSync(at('damaged.warc.gz'), damaged);
  }, 60_000);

  // Six runs of the command, independent: started at once, as a busy machine's cores can take them. One after the
  // other they took over 60 s at load 30 (other helpers' suites and builds on 2 cores); 180 s, a hang guard.
  it('gives byte-identical shards with 1, 2 and 3 threads, a stretch per member or per MiB, and as the plain WARC read in one stream', async () => {
    const variants = [[1, 1], [2, 1], [3, 1], [2, undefined], [3, 20_000]] as const;
    const [plain, ...runs] = await Promise.all([
      index('many.warc', 'plain', 2),
      ...variants.map(([threads, stretch]) => index('many.warc.gz', `gz-${threads}-${stretch}`, threads, stretch)),
    ]);
    expect(plain.status, plain.stderr).toBe(0);
    expect(Object.keys(plain.shards)).toHaveLength(4);
    for (const r of runs) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.shards).toEqual(plain.shards);
      expect(summary(r.stderr)).toEqual(summary(plain.stderr));
      expect(warnings(r.stderr)).toEqual(warnings(plain.stderr).map((l) => l.replace('many.warc:', 'many.warc.gz:').replace(/record at offset/, 'record at uncompressed offset')));
    }
  }, 180_000);

  it('a gzip body that looks like a member start inside a record: read as one reader reads it, nothing said', async () => {
    const plain = await index('false-start.warc', 'false-plain', 2);
    expect(plain.status, plain.stderr).toBe(0);
    for (const stretch of [1, 2000, undefined]) {
      const r = await index('false-start.warc.gz', `false-${stretch}`, 2, stretch);
      expect(r.status, r.stderr).toBe(0);
      expect(r.shards).toEqual(plain.shards);
      expect(warnings(r.stderr)).toEqual([]);
      expect(summary(r.stderr)).toEqual(summary(plain.stderr));
    }
  }, 60_000);

  it('a damaged member in the second stretch: said once, the same shards and warning whatever the threads; the captures of the stretches before it kept', async () => {
    // One stretch: the file read in one stream from its start, as classify --robots-warc reads it (zlib held back the
    // octets of the members before the damage: no capture is read).
    const one = await index('damaged.warc.gz', 'damaged-one', 1, 1 << 30);
    expect(one.status, one.stderr).toBe(0);
    expect(warnings(one.stderr)).toEqual([expect.stringMatching(/damaged\.warc\.gz: cannot read past uncompressed offset 0 \(.+\): the captures after it are skipped$/)]);
    // Stretches of three members or so (the damaged one in the second) and of one: the stretches before the damaged
    // one are read whole, the rest in one stream from its start.
    for (const stretch of [threeMembers, 1]) {
      const runs = [];
      for (const threads of [1, 2, 3]) runs.push(await index('damaged.warc.gz', `damaged-${threads}-${stretch}`, threads, stretch));
      for (const r of runs) {
        expect(r.status, r.stderr).toBe(0);
        expect(r.shards).toEqual(runs[0].shards);
        expect(warnings(r.stderr)).toEqual(warnings(runs[0].stderr));
        expect(summary(r.stderr)).toEqual(summary(runs[0].stderr));
      }
      expect(warnings(runs[0].stderr)).toEqual([
        expect.stringMatching(/damaged\.warc\.gz: cannot read past uncompressed offset [1-9]\d* \(.+\): the captures after it are skipped, and \d+ read just before it taken as unreachable$/),
      ]);
      expect(Number(summary(runs[0].stderr)![0])).toBeGreaterThan(0);
    }
  }, 60_000);

  it('several files at once: their captures in the order of the files, as the plain WARCs give them; the damage said in its turn', async () => {
    const plain = await index(['false-start.warc', 'many.warc'], 'several-plain', 2);
    const gz = await index(['false-start.warc.gz', 'many.warc.gz'], 'several-gz', 3, 1);
    expect([plain.status, gz.status]).toEqual([0, 0]);
    expect(gz.shards).toEqual(plain.shards);
    const runs = [];
    for (const threads of [1, 3]) runs.push(await index(['many.warc.gz', 'damaged.warc.gz', 'false-start.warc.gz'], `several-${threads}`, threads, 1));
    expect(runs.map((r) => r.status)).toEqual([0, 0]);
    expect(runs[1].shards).toEqual(runs[0].shards);
    expect(warnings(runs[1].stderr)).toEqual(warnings(runs[0].stderr));
    expect(warnings(runs[0].stderr).filter((l) => /damaged\.warc\.gz: cannot read past/.test(l))).toHaveLength(1);
  }, 60_000);

  it('N reading threads are the main thread and N - 1 workers (a worker is an isolate to start, and its JIT compiles the reading again)', async () => {
    // A module each thread of the command runs first (NODE_OPTIONS --import reaches the workers too) logs which it is.
    writeFileSync(at('thread-log.mjs'), `import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
appendFileSync(process.env.ROBOTS_THREAD_LOG, isMainThread ? 'main\\n' : 'worker\\n');
`);
    for (const threads of [1, 2, 3]) {
      const log = at(`threads-${threads}.log`);
      writeFileSync(log, '');
      const files = ['--robots-warc', at('many.warc.gz')];
      const r = await robots(['index', ...files, '--shards', '4', '--out', at(`count-${threads}`), '--threads', String(threads)], undefined, {
        env: { ROBOTS_INDEX_STRETCH_OCTETS: '1', NODE_OPTIONS: `--import=${pathToFileURL(at('thread-log.mjs')).href}`, ROBOTS_THREAD_LOG: log },
      });
      expect(r.status, r.stderr).toBe(0);
      const started = readFileSync(log, 'utf8').split('\n').filter((l) => l !== '');
      expect({ threads, main: started.filter((l) => l === 'main').length, workers: started.filter((l) => l === 'worker').length }).toEqual({ threads, main: 1, workers: threads - 1 });
    }
  }, 60_000);

  it('--threads must be a whole number from 1 to 256', async () => {
    for (const bad of ['0', '-1', '1.5', 'x', '257']) {
      expectUsageError(await robots(['index', '--robots-warc', at('many.warc.gz'), '--out', at('bad'), '--threads', bad]), /--threads must be a whole number from 1 to 256, got "/);
    }
  });
});
