// robots index + classify --robots-index: WARCs (written by warcio) indexed
// apart into host shards, then classified shard by shard, give exactly the
// lines of one --robots-warc run over all the WARCs; --as-of before, between
// and after captures; redirects across indexes and shards; a damaged, cut or
// foreign index file refused in one line; the index command's limits.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { CANNOT_RUN_AS_ANOTHER_USER } from '../helpers/cli-for-anyone.js';
import { CLI, expectUsageError, robots } from '../helpers/cli-run.js';
import { writeWarc, type Capture } from '../helpers/warc-files.js';
import { SPELLINGS } from '../helpers/host-spellings.js';
import { captureShard, shardFileName } from '../../src/bulk/index/robots-index-format.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-warc-index-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (...p: string[]) => path.join(dir, ...p);
const rules = (tag: string) => `User-agent: *\nDisallow: /private-${tag}\n`;
const SHARDS = 4;

/** Four WARCs: 40 hosts spread over them, some captured in several with different dates, redirects from one WARC to another. */
function warcs(): Capture[][] {
  const w: Capture[][] = [[], [], [], []];
  for (let h = 0; h < 40; h++) {
    const url = `http://h${h}.example/robots.txt`;
    w[h % 4].push({ url, body: rules(`h${h}-jan`), date: '2024-01-15T00:00:00Z' });
    if (h % 3 === 0) w[(h + 1) % 4].push({ url, body: rules(`h${h}-mar`), date: '2024-03-15T00:00:00Z' });
    if (h % 5 === 0) w[(h + 2) % 4].push({ url, status: h % 10 === 0 ? 503 : 404, date: '2024-02-15T00:00:00Z' });
  }
  // Redirects whose target is in another WARC (and, for some, another shard).
  for (let k = 0; k < 8; k++) {
    w[k % 4].push({ url: `http://r${k}.example/robots.txt`, status: 301, headers: { Location: `https://www.r${k}.example/robots.txt` }, date: '2024-02-01T00:00:00Z' });
    w[(k + 1) % 4].push({ url: `https://www.r${k}.example/robots.txt`, body: rules(`r${k}`), date: '2024-02-01T00:00:00Z' });
  }
  // A chain of three hops over three WARCs.
  w[0].push({ url: 'http://chain.example/robots.txt', status: 302, headers: { Location: 'http://chain2.example/robots.txt' } });
  w[1].push({ url: 'http://chain2.example/robots.txt', status: 307, headers: { Location: 'http://chain3.example/robots.txt' } });
  w[2].push({ url: 'http://chain3.example/robots.txt', body: rules('chain') });
  // Moved later: a redirect in March, the file itself in January.
  w[3].push({ url: 'http://later.example/robots.txt', body: rules('later-jan'), date: '2024-01-10T00:00:00Z' });
  w[2].push({ url: 'http://later.example/robots.txt', status: 301, headers: { Location: 'https://www.r1.example/robots.txt' }, date: '2024-03-10T00:00:00Z' });
  // Records that are not responses.
  w[1].push({ url: 'http://h1.example/robots.txt', type: 'request' });
  return w;
}

const URLS: string[] = [];
for (let k = 0; k < 400; k++) {
  const h = (k * 7) % 46;
  const host = h < 40 ? `h${h}` : `never${h}`;
  URLS.push(`http://${host}.example/${['private-h' + h + '-jan', 'private-h' + h + '-mar', 'page'][k % 3]}?k=${k}`);
}
for (let k = 0; k < 8; k++) URLS.push(`http://r${k}.example/private-r${k}`, `http://r${k}.example/public`);
URLS.push('http://chain.example/private-chain', 'http://later.example/private-later-jan', 'http://later.example/private-r1', 'not a url');
const urlsFile = at('urls.txt');
const warcFiles = [0, 1, 2, 3].map((k) => at(`w${k}.warc.gz`));
/** Indexes made apart, one per WARC, named in an order other than the WARCs'. */
const ORDER = [2, 0, 3, 1];
const indexDirs = ORDER.map((k) => at('idx', `w${k}`));
const fromIndexes = indexDirs.flatMap((d) => ['--robots-index', d]);
const fromWarcs = warcFiles.flatMap((f) => ['--robots-warc', f]);

const lines = (stdout: string) => (stdout === '' ? [] : stdout.trimEnd().split('\n'));

/** The shard runs' outputs are the whole run's: every line in one shard, each shard in input order. */
function expectUnion(whole: string[], shards: string[][]): void {
  for (const s of shards) {
    let i = 0;
    for (const line of s) {
      while (i < whole.length && whole[i] !== line) i++;
      expect(i, `a line out of order or not in the whole run: ${line}`).toBeLessThan(whole.length);
      i++;
    }
  }
  expect(shards.flat().sort()).toEqual([...whole].sort());
}

describe('robots index, classify --robots-index', () => {
  beforeAll(async () => {
    const w = warcs();
    for (let k = 0; k < 4; k++) await writeWarc(warcFiles[k], w[k]);
    writeFileSync(urlsFile, URLS.join('\n') + '\n');
    for (const k of ORDER) {
      const r = await robots(['index', '--shards', String(SHARDS), '--out', at('idx', `w${k}`), warcFiles[k]]);
      expect(r.stderr).toMatch(/^robots index: \d+ captures of \d+ records in 1 WARC file .* written to .* in 4 shards/);
      expect(r.status).toBe(0);
    }
  });

  it('writes a manifest (shards, format version, id, the source WARCs) and one checked file per shard', () => {
    const m = JSON.parse(readFileSync(at('idx', 'w0', 'index.json'), 'utf8'));
    expect(m).toMatchObject({ format: 'robots-index', version: 1, shards: SHARDS, sources: [{ path: warcFiles[0] }] });
    expect(m.id).toMatch(/^[0-9a-f]{16}$/);
    expect(readdirSync(at('idx', 'w0')).sort()).toEqual(['index.json', ...[0, 1, 2, 3].map((s) => shardFileName(s, SHARDS))].sort());
    expect(m.captures).toBe(warcs()[0].filter((c) => c.type === undefined).length);
  });

  for (const format of ['tsv', 'jsonl']) {
    for (const threads of ['1', '2']) {
      // Each format once and each thread count once (tsv with 1, jsonl with 2): the shards a run reads do not depend
      // on the format it writes, any thread count writes one thread's octets (test/cli/threads.test.ts), and each case
      // is six starts of the command.
      if ((format === 'tsv') !== (threads === '1')) continue;
      it(`shard by shard, the indexes made apart give the one --robots-warc run's lines (${format}, ${threads} thread(s))`, async () => {
        const whole = await robots(['classify', ...fromWarcs, '--format', format, '--threads', threads, '-q', urlsFile]);
        expect(whole.status).toBe(0);
        const all = lines(whole.stdout);
        expect(all).toHaveLength(URLS.length);
        const shards: string[][] = [];
        for (let i = 0; i < SHARDS; i++) {
          const r = await robots(['classify', ...fromIndexes, '--shard', `${i}/${SHARDS}`, '--format', format, '--threads', threads, urlsFile]);
          expect(r.status).toBe(0);
          expect(r.stderr).toMatch(new RegExp(`read \\d+ captures \\(\\d+ URLs chosen\\) from shard ${i}/${SHARDS} of 4 indexes`));
          shards.push(lines(r.stdout));
        }
        expect(shards.every((s) => s.length > 0)).toBe(true);
        expectUnion(all, shards);
        // Without --shard: every shard of every index, the whole run.
        const every = await robots(['classify', ...fromIndexes, '--format', format, '--threads', threads, '-q', urlsFile]);
        expect(lines(every.stdout)).toEqual(all);
      });
    }
  }

  it('every spelling of a host finds its capture in its shard (IPv4 numbers, IPv6 forms, escapes, a trailing dot), as --robots-warc does', async () => {
    const all = 'User-agent: *\nDisallow: /\n';
    await writeWarc(at('spellings.warc.gz'), [
      { url: 'http://127.0.0.1/robots.txt', body: all },
      { url: 'http://[::1]/robots.txt', body: all },
      { url: 'http://e.com/robots.txt', status: 301, headers: { Location: 'http://www.e.com/robots.txt' } },
      { url: 'http://www.e.com/robots.txt', body: all },
      { url: 'http://dot.example./robots.txt', body: all },
    ]);
    const shards = 5;
    expect((await robots(['index', '--shards', String(shards), '--out', at('idx-spellings'), '-q', at('spellings.warc.gz')])).status).toBe(0);
    const input = [...SPELLINGS.map(([u]) => u), 'http://dot.example/a', 'http://other.com/a'].join('\n') + '\n';
    const whole = await robots(['classify', '--robots-warc', at('spellings.warc.gz'), '--format', 'jsonl', '-q'], input);
    expect(lines(whole.stdout).map((l) => JSON.parse(l).robots)).toEqual([...SPELLINGS.map(() => 'ok'), 'ok', 'missing']);
    const parts = [];
    for (let i = 0; i < shards; i++) parts.push(lines((await robots(['classify', '--robots-index', at('idx-spellings'), '--shard', `${i}/${shards}`, '--format', 'jsonl', '-q'], input)).stdout));
    expectUnion(lines(whole.stdout), parts);
  });

  it('the verdicts are those of the captures the cache\'s policy keeps, redirects followed across indexes and shards', async () => {
    // Some redirect leads to another shard (else this test would not test that).
    const across = [0, 1, 2, 3, 4, 5, 6, 7].filter((k) => captureShard(`http://r${k}.example/robots.txt`, SHARDS) !== captureShard(`https://www.r${k}.example/robots.txt`, SHARDS));
    expect(across.length).toBeGreaterThan(0);
    const input = ['http://h0.example/private-h0-mar', 'http://h0.example/private-h0-jan', 'http://h10.example/x', 'http://h5.example/private-h5-jan',
      ...across.map((k) => `http://r${k}.example/private-r${k}`), 'http://chain.example/private-chain', 'http://later.example/private-r1'];
    for (const k of across) {
      const i = captureShard(`http://r${k}.example/robots.txt`, SHARDS);
      const r = await robots(['classify', ...fromIndexes, '--shard', `${i}/${SHARDS}`, '--format', 'jsonl', '-q'], `http://r${k}.example/private-r${k}\n`);
      expect(JSON.parse(r.stdout)).toMatchObject({ allowed: false, robots: 'ok', http: 200 });
    }
    const r = await robots(['classify', ...fromIndexes, '--format', 'jsonl', '-q'], input.join('\n') + '\n');
    const got = lines(r.stdout).map((l) => JSON.parse(l));
    expect(got.map((g) => [g.allowed, g.robots])).toEqual([
      [false, 'ok'], // h0: March's file (its 503 of February is older)
      [true, 'ok'],
      [true, 'ok'], // h10: January's file, kept through a 503 in February as the cache keeps its copy (no March capture)
      [true, 'unavailable'], // h5: 404 in February
      ...across.map(() => [false, 'ok']),
      [false, 'ok'],
      [false, 'ok'], // later.example: redirected in March to www.r1's file
    ]);
  });

  it('--as-of: the captures at or before the date (under the cache\'s policy), with --robots-warc and --robots-index alike; none then: missing', async () => {
    const input = 'http://h0.example/private-h0-jan\nhttp://h0.example/private-h0-mar\nhttp://h10.example/x\nhttp://later.example/private-later-jan\nhttp://later.example/private-r1\n';
    const cases: [string, string[]][] = [
      ['2023-12-31', ['allowed missing', 'allowed missing', 'allowed missing', 'allowed missing', 'allowed missing']],
      ['2024-01-15', ['disallowed ok', 'allowed ok', 'allowed ok', 'disallowed ok', 'allowed ok']], // (a date: to the end of the day)
      ['2024-01-14T23:59:59Z', ['allowed missing', 'allowed missing', 'allowed missing', 'disallowed ok', 'allowed ok']],
      // h0 and h10: a 503 in February after January's file: January's file still (RobotsCache's copy).
      ['2024-02-20T00:00:00+01:00', ['disallowed ok', 'allowed ok', 'allowed ok', 'disallowed ok', 'allowed ok']],
      ['2024-03-15', ['allowed ok', 'disallowed ok', 'allowed ok', 'allowed ok', 'disallowed ok']],
      ['2030-01-01', ['allowed ok', 'disallowed ok', 'allowed ok', 'allowed ok', 'disallowed ok']],
    ];
    for (const [date, want] of cases) {
      for (const source of [fromWarcs, fromIndexes]) {
        const r = await robots(['classify', ...source, '--as-of', date, '--format', 'jsonl', '-q'], input);
        expect(r.status).toBe(0);
        expect(lines(r.stdout).map((l) => JSON.parse(l)).map((g) => `${g.allowed ? 'allowed' : 'disallowed'} ${g.robots}`), `${date} ${source[0]}`).toEqual(want);
      }
    }
    // Before every capture, with --missing disallow: all disallowed.
    const none = await robots(['classify', ...fromIndexes, '--as-of', '2020-01-01', '--missing', 'disallow', '-q'], input);
    expect(lines(none.stdout).map((l) => l.split('\t')[0])).toEqual(Array(5).fill('disallowed'));
    // Shard by shard as of a date: still the one run's lines.
    const whole = lines((await robots(['classify', ...fromWarcs, '--as-of', '2024-02-20', '-q', urlsFile])).stdout);
    const shards = [];
    for (let i = 0; i < SHARDS; i++) shards.push(lines((await robots(['classify', ...fromIndexes, '--as-of', '2024-02-20', '--shard', `${i}/${SHARDS}`, '-q', urlsFile])).stdout));
    expectUnion(whole, shards);
  }, 120_000); // (18 commands, one after another: generous for a loaded machine, where 15 s did not do)

  it('a bad --as-of is refused in one line; so is --as-of without captures', async () => {
    for (const bad of ['yesterday', '2024-02-30', '2024-13-01', '2024-01-01T25:00:00Z', '2024-1-1', '']) {
      expectUsageError(await robots(['classify', ...fromIndexes, '--as-of', bad], 'http://a.example/\n'), /--as-of must be an ISO 8601 date/);
    }
    writeFileSync(at('r.txt'), 'User-agent: *\nDisallow: /\n');
    expectUsageError(await robots(['classify', '--robots', at('r.txt'), '--as-of', '2024-01-01'], 'http://a.example/\n'), /--as-of picks among captures/);
  });

  it('a shard count that does not match is refused in one line', async () => {
    expectUsageError(await robots(['classify', ...fromIndexes, '--shard', '0/3'], 'http://a.example/\n'), /--shard 0\/3 does not match the indexes: .* has 4 shards \(give --shard i\/4\)/);
    await robots(['index', '--shards', '3', '--out', at('idx3'), warcFiles[0], '-q']);
    expectUsageError(await robots(['classify', '--robots-index', indexDirs[0], '--robots-index', at('idx3'), '--shard', '0/4'], 'http://a.example/\n'), /the indexes do not agree on their shards: .* has 4, .*idx3 has 3/);
    expectUsageError(await robots(['classify', '--robots-index', indexDirs[0], '--robots-warc', warcFiles[0]], 'http://a.example/\n'), /give one of --robots FILE/);
  });

  describe('a damaged, cut or foreign index file: one line naming it, never a crash', () => {
    const copy = (name: string) => {
      const d = at('bad', name);
      rmSync(d, { recursive: true, force: true });
      mkdirSync(d, { recursive: true });
      for (const f of readdirSync(indexDirs[0])) copyFileSync(path.join(indexDirs[0], f), path.join(d, f));
      return d;
    };
    /** The shard holding the most captures of w2's index, its file. */
    const busiest = () => {
      const m = JSON.parse(readFileSync(path.join(indexDirs[0], 'index.json'), 'utf8'));
      return (m.files as { name: string; octets: number; captures: number }[]).reduce((a, b) => (b.captures > a.captures ? b : a));
    };
    const shardOfFile = (name: string) => Number(/^shard-(\d+)/.exec(name)![1]);

    it('an octet flipped in a record: a checksum mismatch at its offset', async () => {
      const d = copy('flipped');
      const f = busiest();
      const file = path.join(d, f.name);
      const octets = readFileSync(file);
      octets[100] ^= 0x20;
      writeFileSync(file, octets);
      const r = await robots(['classify', '--robots-index', d, '--shard', `${shardOfFile(f.name)}/${SHARDS}`], 'http://a.example/\n');
      expectUsageError(r, new RegExp(`${f.name}: damaged record at offset \\d+ \\(checksum mismatch\\)`));
      // Without --shard too (every shard read).
      expectUsageError(await robots(['classify', '--robots-index', d], 'http://a.example/\n'), /damaged record/);
      // A record's length damaged (2 GiB): said, not allocated.
      octets[100] ^= 0x20;
      octets.writeUInt32LE(0x7fffffff, 32);
      writeFileSync(file, octets);
      expectUsageError(await robots(['classify', '--robots-index', d], 'http://a.example/\n'), new RegExp(`${f.name}: damaged record at offset 32 \\(it runs past the records\\)`));
      octets.writeUInt32LE(3, 32);
      writeFileSync(file, octets);
      expectUsageError(await robots(['classify', '--robots-index', d], 'http://a.example/\n'), new RegExp(`${f.name}: damaged record at offset 32 \\(a length of 3 octets\\)`));
    });

    it('a file cut short (its size not the manifest\'s), or cut and its manifest edited to match (no footer)', async () => {
      const d = copy('cut');
      const f = busiest();
      truncateSync(path.join(d, f.name), f.octets - 40);
      expectUsageError(await robots(['classify', '--robots-index', d], 'http://a.example/\n'), new RegExp(`${f.name}: ${f.octets - 40} octets, its manifest says ${f.octets} \\(cut short, or replaced\\)`));
      const m = JSON.parse(readFileSync(path.join(d, 'index.json'), 'utf8'));
      m.files.find((x: { name: string }) => x.name === f.name).octets = f.octets - 40;
      writeFileSync(path.join(d, 'index.json'), JSON.stringify(m));
      expectUsageError(await robots(['classify', '--robots-index', d], 'http://a.example/\n'), /cut short \(no footer/);
    });

    it('a foreign file in a shard\'s place, a shard of another index run, a foreign or missing manifest', async () => {
      const d = copy('foreign');
      const f = busiest();
      writeFileSync(path.join(d, f.name), Buffer.alloc(f.octets, 'x'));
      expectUsageError(await robots(['classify', '--robots-index', d], 'http://a.example/\n'), new RegExp(`${f.name}: not a shard of a robots index`));
      // The same shard of another index (same shard count): another run's id.
      const other = copy('other');
      const o = JSON.parse(readFileSync(path.join(indexDirs[1], 'index.json'), 'utf8')).files.find((x: { name: string }) => x.name === f.name);
      copyFileSync(path.join(indexDirs[1], f.name), path.join(other, f.name));
      const m = JSON.parse(readFileSync(path.join(other, 'index.json'), 'utf8'));
      m.files.find((x: { name: string }) => x.name === f.name).octets = o.octets;
      writeFileSync(path.join(other, 'index.json'), JSON.stringify(m));
      expectUsageError(await robots(['classify', '--robots-index', other], 'http://a.example/\n'), /written by another run of robots index/);
      const noManifest = copy('no-manifest');
      rmSync(path.join(noManifest, 'index.json'));
      expectUsageError(await robots(['classify', '--robots-index', noManifest], 'http://a.example/\n'), /index\.json \(no such file or directory\): not a robots index, or its robots index run did not finish/);
      writeFileSync(path.join(noManifest, 'index.json'), '{"hello": 1}');
      expectUsageError(await robots(['classify', '--robots-index', noManifest], 'http://a.example/\n'), /is not a robots index manifest/);
      writeFileSync(path.join(noManifest, 'index.json'), '{"format":"robots-index","version":9,"shards":4}');
      expectUsageError(await robots(['classify', '--robots-index', noManifest], 'http://a.example/\n'), /format version 9; this robots reads version 1/);
      expectUsageError(await robots(['classify', '--robots-index', at('nowhere')], 'http://a.example/\n'), /not a robots index/);
    });

    it('a damaged directory is found when a redirect is looked up in it', async () => {
      // w0's index: r0 (in w0) redirects to www.r0 (indexed with w1): copy w1's index, damage its directories.
      const d = at('bad', 'dir');
      rmSync(d, { recursive: true, force: true });
      mkdirSync(d, { recursive: true });
      for (const f of readdirSync(indexDirs[3])) copyFileSync(path.join(indexDirs[3], f), path.join(d, f));
      const target = captureShard('https://www.r0.example/robots.txt', SHARDS);
      const from = captureShard('http://r0.example/robots.txt', SHARDS);
      if (target === from) return; // (nothing to look up across shards: tested above otherwise)
      const file = path.join(d, shardFileName(target, SHARDS));
      const octets = readFileSync(file);
      octets[octets.length - 40] ^= 0x01; // (in the directory, just before the footer)
      writeFileSync(file, octets);
      const r = await robots(['classify', '--robots-index', indexDirs[1], '--robots-index', d, '--shard', `${from}/${SHARDS}`], 'http://r0.example/x\n');
      expectUsageError(r, /damaged directory \(checksum mismatch\)/);
    });
  });

  describe("robots index's limits", () => {
    // Ten runs of the command, independent: started at once, as a busy machine's cores can take them. One after the
    // other they took over 60 s at load 26-29; 180 s, a hang guard (each run has its own).
    it('no WARC, a missing or unreadable one, no --out, a bad --shards: one line, nothing written', async () => {
      const bads = ['0', '-1', '2.5', 'many', '65537'];
      const [noWarc, missing, directory, noOut, maxOctets, ...shards] = await Promise.all([
        robots(['index', '--out', at('x1')]),
        robots(['index', '--out', at('x2'), at('missing.warc.gz')]),
        robots(['index', '--out', at('x3'), dir]),
        robots(['index', warcFiles[0]]),
        robots(['index', '--max-octets', '10', '--out', at('x5'), warcFiles[0]]),
        ...bads.map((bad) => robots(['index', '--shards', bad, '--out', at(`x4-${bad}`), warcFiles[0]])),
      ]);
      expectUsageError(noWarc, /no WARC files/);
      expectUsageError(missing, /cannot read WARC file .*missing\.warc\.gz: no such file or directory/);
      expect(existsSync(at('x2'))).toBe(false);
      expectUsageError(directory, /cannot read WARC file .*: is a directory/);
      expectUsageError(noOut, /--out DIR is required/);
      for (const r of shards) expectUsageError(r, /--shards must be a whole number from 1 to 65536/);
      for (const bad of bads) expect(existsSync(at(`x4-${bad}`)), bad).toBe(false);
      expectUsageError(maxOctets, /--max-octets must be at least/);
    }, 180_000);

    it('an --out that cannot be written (under a file, read-only), or that holds another index of another shard count or a foreign manifest', async () => {
      writeFileSync(at('a-file'), 'x');
      expectUsageError(await robots(['index', '--out', at('a-file', 'idx'), warcFiles[0]]), /cannot create the index directory .*: not a directory/);
      expectUsageError(await robots(['index', '--out', at('a-file'), warcFiles[0]]), /cannot create the index directory|is not a directory/);
      // Read-only to its owner; root writes anywhere, so as root the command runs as nobody.
      mkdirSync(at('ro'), { mode: 0o555 });
      const asRoot = process.getuid?.() === 0;
      if (asRoot && CANNOT_RUN_AS_ANOTHER_USER !== undefined) {
        console.warn(`SKIPPED: an --out that cannot be written, as nobody (nobody could not run the command: ${CANNOT_RUN_AS_ANOTHER_USER})`);
      } else {
        chmodSync(dir, 0o755); // (the WARC readable by the user the command runs as)
        const ro = await robots(['index', '--out', at('ro'), warcFiles[0]], undefined, asRoot ? { uid: 65534 } : {});
        expectUsageError(ro, /cannot write in the index directory .*ro: permission denied/);
      }
      expectUsageError(await robots(['index', '--shards', '2', '--out', indexDirs[0], warcFiles[0]]), /already holds an index of 4 shards: give --shards 4 to replace it, or another --out/);
      mkdirSync(at('foreign'));
      writeFileSync(at('foreign', 'index.json'), '{"not": "ours"}');
      expectUsageError(await robots(['index', '--out', at('foreign'), warcFiles[0]]), /is not a robots index manifest: give another --out/);
    });

    it('run again with the same shards: the index replaced (a new id), no temporary file left', async () => {
      const d = at('again');
      expect((await robots(['index', '--shards', '2', '--out', d, warcFiles[0], '-q'])).status).toBe(0);
      const first = JSON.parse(readFileSync(path.join(d, 'index.json'), 'utf8'));
      const r = await robots(['index', '--shards', '2', '--out', d, '-q', '--robots-warc', warcFiles[1], warcFiles[2]]);
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      const second = JSON.parse(readFileSync(path.join(d, 'index.json'), 'utf8'));
      expect(second.id).not.toBe(first.id);
      expect(second.sources.map((s: { path: string }) => s.path)).toEqual([warcFiles[1], warcFiles[2]]);
      expect(readdirSync(d).sort()).toEqual(['index.json', shardFileName(0, 2), shardFileName(1, 2)]);
    });

    it('every shard of an index of more shards than the process may open files: read one file at a time', async () => {
      const d = at('many');
      expect((await robots(['index', '--shards', '300', '--out', d, '-q', ...warcFiles])).status).toBe(0);
      const whole = await robots(['classify', ...fromWarcs, '-q', '--threads', '1', urlsFile]);
      const r = spawnSync('sh', ['-c', `ulimit -n 64 && exec "${process.execPath}" "${CLI}" classify --robots-index ${d} -q --threads 1 ${urlsFile}`], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(whole.stdout);
    });

    it('a body longer than --max-octets: cut (said on stderr), the index holds its first octets', async () => {
      const long = `User-agent: *\nDisallow: /early\n${'#'.repeat(900_000)}\nDisallow: /late\n`;
      await writeWarc(at('long.warc.gz'), [{ url: 'http://long.example/robots.txt', body: long }]);
      const r = await robots(['index', '--max-octets', '600000', '--out', at('long'), at('long.warc.gz')]);
      expect(r.status).toBe(0);
      expect(r.stderr).toMatch(/warning: .*long\.warc\.gz: the capture of http:\/\/long\.example\/robots\.txt .* longer than --max-octets/);
      expect(r.stderr).toMatch(/1 capture cut to --max-octets/);
      const c = await robots(['classify', '--robots-index', at('long'), '-q'], 'http://long.example/early\nhttp://long.example/late\n');
      expect(lines(c.stdout).map((l) => l.split('\t')[0])).toEqual(['disallowed', 'allowed']);
    });

    it('a damaged WARC: said, its good captures indexed', async () => {
      const good = await writeWarc(at('d.warc.gz'), [{ url: 'http://first.example/robots.txt', body: rules('first') }, { url: 'http://second.example/robots.txt', body: rules('second') }]);
      const bad = Buffer.from(good);
      for (let k = bad.length - 60; k < bad.length - 40; k++) bad[k] ^= 0x5a;
      writeFileSync(at('d.warc.gz'), bad);
      const r = await robots(['index', '--out', at('dmg'), at('d.warc.gz')]);
      expect(r.status).toBe(0);
      expect(r.stderr).toMatch(/warning: .*d\.warc\.gz: cannot read past/);
      const viaWarc = await robots(['classify', '--robots-warc', at('d.warc.gz'), '--format', 'jsonl', '-q'], 'http://first.example/private-first\nhttp://second.example/x\n');
      const viaIndex = await robots(['classify', '--robots-index', at('dmg'), '--format', 'jsonl', '-q'], 'http://first.example/private-first\nhttp://second.example/x\n');
      expect(viaIndex.stdout).toBe(viaWarc.stdout);
    });
  });
});
