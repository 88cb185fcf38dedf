// --robots-warc in bounded memory and time, whatever a capture holds: its body
// is decoded as a stream (chunks, Content-Encoding) and read no further than
// --max-octets, and a capture so cut is named on stderr. A gzip bomb (~1 MiB
// inflating to 1 GiB) as a body's Content-Encoding and as a record's own gzip
// member, and a 256 MiB plain record, in WARC files written by
// warcio, each without holding the file or the body in the test either; the
// command's peak memory is its own report (process.resourceUsage().maxRSS at exit).
import { spawn } from 'node:child_process';
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { constants, crc32, deflateRawSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BaseSerializerBuffer, WARCRecord, WARCSerializer } from 'warcio';
import { CLI } from '../helpers/cli-run.js';
import { serializeCapture, writeWarc } from '../helpers/warc-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-limits-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (file: string) => path.join(dir, file);
const MiB = 1 << 20;
/** Issue 31's target for the bomb; the command itself takes ~60 MiB. */
const RSS_LIMIT_MIB = 200;

/**
 * A gzip stream of `rules` and then `zeros` MiB of NUL octets, made without
 * holding them: one MiB of zeros deflated once, ended by a full flush (so it
 * stands alone), repeated; a final empty block; the CRC and size of it all.
 */
function gzipBomb(rules: string, zeros: number): Buffer[] {
  const zero = Buffer.alloc(MiB);
  const text = Buffer.from(rules);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  const first = deflateRawSync(text, { finishFlush: constants.Z_FULL_FLUSH });
  const block = deflateRawSync(zero, { finishFlush: constants.Z_FULL_FLUSH, level: 9 });
  let crc = crc32(text);
  for (let k = 0; k < zeros; k++) crc = crc32(zero, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((text.length + zeros * MiB) % 2 ** 32, 4);
  return [header, first, ...Array.from({ length: zeros }, () => block), deflateRawSync(Buffer.alloc(0)), trailer];
}

/**
 * A whole WARC record in one gzip member (as WARC files are written) whose block holds
 * `zeros` MiB of NUL after the rules: the member ~1 MiB, the record 1 GiB inflated.
 * Its headers are written here (warcio would digest the 1 GiB); the record after it is warcio's.
 */
function warcRecordBomb(url: string, rules: string, zeros: number): Buffer[] {
  const http = `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n${rules}`;
  const length = Buffer.byteLength(http) + zeros * MiB;
  const head = `WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: ${url}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000000>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: ${length}\r\n\r\n`;
  const parts = gzipBomb(head + http, zeros);
  // The record's end (CRLFCRLF) goes into the member before its last block; the CRC and size with it.
  const zero = Buffer.alloc(MiB);
  const tail = Buffer.from('\r\n\r\n');
  let crc = crc32(Buffer.from(head + http));
  for (let k = 0; k < zeros; k++) crc = crc32(zero, crc);
  crc = crc32(tail, crc);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE((Buffer.byteLength(head + http) + zeros * MiB + 4) % 2 ** 32, 4);
  return [...parts.slice(0, -2), deflateRawSync(tail, { finishFlush: constants.Z_FULL_FLUSH }), deflateRawSync(Buffer.alloc(0)), trailer];
}

/** warcio's serializer buffers a record's payload to digest it: here in a file, not in memory. */
class FileBuffer extends BaseSerializerBuffer {
  private readonly fd: number;
  constructor(private readonly file: string) {
    super();
    this.fd = openSync(file, 'w');
  }
  write(chunk: Uint8Array): void {
    writeSync(this.fd, chunk);
  }
  async *readAll(): AsyncGenerator<Uint8Array> {
    closeSync(this.fd);
    yield* createReadStream(this.file, { highWaterMark: MiB });
  }
  purge(): void {
    rmSync(this.file, { force: true });
  }
}

/** A 200 capture of `url` whose body is `parts`, appended to an open WARC file (plain), streamed. */
async function appendCapture(fd: number, url: string, parts: () => Iterable<Uint8Array>, headers: Record<string, string> = {}): Promise<void> {
  const record = await WARCRecord.create(
    { url, date: '2024-01-01T00:00:00Z', type: 'response', httpHeaders: { 'Content-Type': 'text/plain', ...headers }, statusline: 'HTTP/1.1 200 OK' },
    (async function* () {
      yield* parts();
    })(),
  );
  for await (const chunk of new WARCSerializer(record, { gzip: false, digest: { algo: 'sha-1' } }, new FileBuffer(at('payload.tmp')))) writeSync(fd, chunk);
}

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  rssMiB: number;
  seconds: number;
}

/** Runs the command with its peak memory reported at exit (a preloaded script: maxRSS is the whole process's, threads too).
 * Asynchronously: a run of seconds on a busy machine would hold the worker's event loop (test/setup/event-loop.ts). */
async function measured(args: string[], input: string, timeout = 60_000): Promise<Run> {
  const began = performance.now();
  const child = spawn(process.execPath, ['--require', at('max-rss.cjs'), CLI, ...args], { env: { ...process.env, ROBOTS_DEBUG: '' } });
  // (SIGKILL: a command caught in a loop of promises never gets to a SIGTERM handler.)
  const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdin.on('error', () => {}); // (a command that ends before it reads its input)
  child.stdin.end(input);
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  }).finally(() => clearTimeout(timer));
  const seconds = (performance.now() - began) / 1000;
  const rss = /max-rss (\d+)/.exec(stderr);
  if (process.env.ROBOTS_TEST_VERBOSE) console.log(`${args.join(' ')}: ${rss === null ? '?' : (Number(rss[1]) / 1024).toFixed(0)} MiB, ${seconds.toFixed(2)} s`);
  return { status, stdout, stderr: stderr.replace(/max-rss \d+\n/, ''), rssMiB: rss === null ? NaN : Number(rss[1]) / 1024, seconds };
}

const RULES = (tag: string) => `User-agent: *\nDisallow: /${tag}-private\n`;

describe('robots classify --robots-warc: bounded whatever a capture holds', () => {
  beforeAll(async () => {
    writeFileSync(at('max-rss.cjs'), "process.on('exit', () => require('node:fs').writeSync(2, `max-rss ${process.resourceUsage().maxRSS}\\n`));\n");
    // A gzip bomb: ~1 MiB on disk, 1 GiB inflated; beside it a capture that fits.
    const bomb = openSync(at('bomb.warc'), 'w');
    await appendCapture(bomb, 'http://bomb.example/robots.txt', () => gzipBomb(RULES('bomb'), 1024), { 'Content-Encoding': 'gzip' });
    writeSync(bomb, await serializeCapture({ url: 'http://small.example/robots.txt', body: RULES('small') }, false));
    closeSync(bomb);
    // A WARC record whose gzip member inflates to 1 GiB (the layout the fast reader reads), then one that fits.
    const warcBomb = openSync(at('warc-bomb.warc.gz'), 'w');
    for (const part of warcRecordBomb('http://bomb.example/robots.txt', RULES('bomb'), 1024)) writeSync(warcBomb, part);
    writeSync(warcBomb, await serializeCapture({ url: 'http://small.example/robots.txt', body: RULES('small') }, true));
    closeSync(warcBomb);
    // A plain record of 256 MiB.
    const big = openSync(at('big.warc'), 'w');
    const filler = Buffer.alloc(MiB, '#');
    await appendCapture(big, 'http://big.example/robots.txt', function* () {
      yield Buffer.from(RULES('big'));
      for (let k = 0; k < 256; k++) yield filler;
    });
    closeSync(big);
  }, 120_000);

  it(`a gzip bomb (1 GiB from ~1 MiB): inflated no further than --max-octets, named on stderr, under ${RSS_LIMIT_MIB} MiB and in seconds`, async () => {
    const r = await measured(['classify', '--robots-warc', at('bomb.warc'), '--format', 'jsonl'], 'http://bomb.example/bomb-private\nhttp://bomb.example/public\nhttp://small.example/small-private\n');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    // Its first --max-octets octets are its robots.txt: their rules hold.
    expect(lines.map((l) => [l.url, l.allowed, l.robots])).toEqual([
      ['http://bomb.example/bomb-private', false, 'ok'],
      ['http://bomb.example/public', true, 'ok'],
      ['http://small.example/small-private', false, 'ok'],
    ]);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('warning'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/bomb\.warc: the capture of http:\/\/bomb\.example\/robots\.txt \(record at offset 0\) is longer than --max-octets once decoded: its first 512000 octets are used/);
    expect(r.stderr).toMatch(/1 capture cut to --max-octets/);
    expect(r.rssMiB).toBeLessThan(RSS_LIMIT_MIB);
    expect(r.seconds).toBeLessThan(15); // (it took 20 s, and 2.2 GB, when the body was inflated whole; now well under a second of it)
  });

  it(`a WARC record whose gzip member inflates to 1 GiB (from ~1 MiB): streamed, its body cut to --max-octets, under ${RSS_LIMIT_MIB} MiB`, async () => {
    const r = await measured(['classify', '--robots-warc', at('warc-bomb.warc.gz'), '--format', 'jsonl'], 'http://bomb.example/bomb-private\nhttp://bomb.example/public\nhttp://small.example/small-private\n');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).map((l) => [l.url, l.allowed, l.robots])).toEqual([
      ['http://bomb.example/bomb-private', false, 'ok'],
      ['http://bomb.example/public', true, 'ok'],
      ['http://small.example/small-private', false, 'ok'],
    ]);
    expect(r.stderr).toMatch(/warc-bomb\.warc\.gz: the capture of http:\/\/bomb\.example\/robots\.txt \(record at uncompressed offset 0\) is longer than --max-octets once decoded: its first 512000 octets are used/);
    expect(r.stderr).toMatch(/indexed 2 responses/);
    expect(r.rssMiB).toBeLessThan(RSS_LIMIT_MIB);
    expect(r.seconds).toBeLessThan(30);
  });

  it(`robots index on threads: the record whose member inflates to 1 GiB streamed by its thread, its body cut, under ${RSS_LIMIT_MIB} MiB`, async () => {
    const out = at('bomb-index');
    const r = await measured(['index', '--robots-warc', at('warc-bomb.warc.gz'), '--out', out, '--threads', '2'], '');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warc-bomb\.warc\.gz: the capture of http:\/\/bomb\.example\/robots\.txt \(record at uncompressed offset 0\) is longer than --max-octets once decoded: its first 512000 octets are used/);
    expect(r.stderr).toMatch(/robots index: 2 captures of 2 records/);
    expect(r.rssMiB).toBeLessThan(RSS_LIMIT_MIB);
    expect(r.seconds).toBeLessThan(30);
    const c = await measured(['classify', '--robots-index', out, '--format', 'jsonl'], 'http://bomb.example/bomb-private\nhttp://small.example/small-private\n');
    expect(c.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).map((l) => [l.url, l.allowed, l.robots])).toEqual([
      ['http://bomb.example/bomb-private', false, 'ok'],
      ['http://small.example/small-private', false, 'ok'],
    ]);
  });

  it(`a 256 MiB plain record: read past, not held; named on stderr; under ${RSS_LIMIT_MIB} MiB`, async () => {
    const r = await measured(['classify', '--robots-warc', at('big.warc'), '--format', 'jsonl', '--max-octets', '600000'], 'http://big.example/big-private\nhttp://big.example/public\n');
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).allowed)).toEqual([false, true]);
    expect(r.stderr).toMatch(/big\.warc: the capture of http:\/\/big\.example\/robots\.txt \(record at offset 0\) is longer than --max-octets once decoded: its first 600000 octets are used/);
    expect(r.rssMiB).toBeLessThan(RSS_LIMIT_MIB);
  });

  it('chunked transfer coding, with and without gzip, decodes as before; a chunk that claims 4 GiB is not waited for', async () => {
    const chunked = (body: Uint8Array, sizes: number[]) => {
      const parts: Buffer[] = [];
      let at = 0;
      for (const n of sizes) {
        parts.push(Buffer.from(`${n.toString(16)}\r\n`), Buffer.from(body.subarray(at, at + n)), Buffer.from('\r\n'));
        at += n;
      }
      parts.push(Buffer.from('0\r\n\r\n'));
      return Buffer.concat(parts);
    };
    const plain = Buffer.from(RULES('chunked'));
    const zipped = gzipSync(RULES('zipped'));
    const fd = openSync(at('chunked.warc'), 'w');
    await appendCapture(fd, 'http://chunked.example/robots.txt', () => [chunked(plain, [5, plain.length - 5])], { 'Transfer-Encoding': 'chunked' });
    await appendCapture(fd, 'http://zipped.example/robots.txt', () => [chunked(zipped, [7, zipped.length - 7])], { 'Transfer-Encoding': 'chunked', 'Content-Encoding': 'gzip' });
    await appendCapture(fd, 'http://huge.example/robots.txt', () => [Buffer.from(`ffffffff\r\n${RULES('huge')}`)], { 'Transfer-Encoding': 'chunked' });
    closeSync(fd);
    const r = await measured(['classify', '--robots-warc', at('chunked.warc'), '--format', 'jsonl', '-q'], 'http://chunked.example/chunked-private\nhttp://zipped.example/zipped-private\nhttp://zipped.example/public\nhttp://huge.example/huge-private\n');
    expect(r.status).toBe(0);
    expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).map((l) => [l.allowed, l.robots])).toEqual([[false, 'ok'], [false, 'ok'], [true, 'ok'], [false, 'ok']]);
  });

  it('a record cut short that is not read (a 404, a request): no hang; the capture before it stands', async () => {
    for (const last of [{ status: 404 }, { type: 'request' as const }]) {
      const whole = await writeWarc(at('cut.warc'), [{ url: 'http://ok.example/robots.txt', body: RULES('ok') }, { url: 'http://gone.example/robots.txt', body: '#'.repeat(4000), ...last }], 'plain');
      writeFileSync(at('cut.warc'), whole.subarray(0, whole.length - (last.type ? 20 : 2000)));
      const r = await measured(['classify', '--robots-warc', at('cut.warc'), '--format', 'jsonl', '-q'], 'http://ok.example/ok-private\nhttp://gone.example/x\n');
      expect(r.status, JSON.stringify(last)).toBe(0); // (it waited for ever, and was killed after 60 s)
      expect(r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l)).map((l) => [l.allowed, l.robots])).toEqual([[false, 'ok'], last.status ? [true, 'unavailable'] : [true, 'missing']]);
    }
  });

  it('the whole file gzipped and cut short anywhere: the read ends in seconds, a warning names the damage, exit 0 as for other damaged WARCs', async () => {
    const whole = await writeWarc(
      at('whole.warc'),
      [
        { url: 'http://ok.example/robots.txt', body: RULES('ok') },
        // (A 404's body is not read but read past: where it did not compress away, cuts in it spun.)
        { url: 'http://gone.example/robots.txt', status: 404, body: Array.from({ length: 600 }, (_, k) => ((k * 2654435761) >>> 0).toString(16)).join(' ') },
        { url: 'http://ok.example/robots.txt', type: 'request' },
        { url: 'http://long.example/robots.txt', body: `${RULES('long')}${Array.from({ length: 400 }, (_, k) => `# ${k * 7919}`).join('\n')}\n` },
        { url: 'http://last.example/robots.txt', body: RULES('last') },
      ],
      'gzip-whole',
    );
    const urls = ['ok', 'gone', 'long', 'last'].map((h) => `http://${h}.example/${h}-private\n`).join('');
    // Each cut a file of its own, the eleven runs at once, as a busy machine's cores can take them.
    const cuts = Array.from({ length: 11 }, (_, k) => Math.floor((whole.length * (k + 1)) / 12));
    for (const cut of cuts) writeFileSync(at(`whole-cut-${cut}.warc.gz`), whole.subarray(0, cut));
    // (Cuts in the 404 spun for ever, busy and deaf to SIGTERM: killed after 60 s, the status is null. A hang guard,
    // not a clock: at load 25 a run that ended by itself took over 10 s from start to exit.)
    const runs = await Promise.all(cuts.map((cut) => measured(['classify', '--robots-warc', at(`whole-cut-${cut}.warc.gz`), '--format', 'jsonl'], urls)));
    for (const [k, cut] of cuts.entries()) {
      const r = runs[k];
      expect(r.status, `cut at ${cut}: ${r.stderr}`).toBe(0);
      expect(r.stderr, `cut at ${cut}`).toMatch(/warning: .*whole-cut-\d+\.warc\.gz: cannot read past uncompressed offset \d+ \(unexpected end of file\): the captures after it are skipped/);
      expect(r.stderr, `cut at ${cut}`).toMatch(/1 damaged part skipped/);
      // What was read just before the damage is not trusted (zlib hands out octets before their checksum):
      // no host is allowed by a capture of this file.
      for (const l of r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line))) expect(['unreachable', 'missing'], `cut at ${cut}: ${l.url}`).toContain(l.robots);
    }
  }, 120_000);
});
