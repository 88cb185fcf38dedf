// End to end: the built `robots classify` command, in a child process, with 1 and
// 2 worker threads (issue 3's figures). Only this engine has the command, so only
// its google-profile row runs. The figure is the command's own URLs/s (its summary:
// reading, classifying and writing, process start-up excluded); the wall-clock
// rate, start-up included, is kept beside it. Thread counts alternate run by run so
// that the machine's noise falls on both alike. Not in the headline: there is no
// peer to take a ratio against.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WARCRecord, WARCSerializer } from 'warcio';
import { SHARED } from '../corpus.mjs';
import { repeatedUrlFile, runClassify, runIndex, urlListFile } from '../classify-cli.mjs';
import { formatFigure } from '../format.mjs';
import { shuffled } from '../synthetic.mjs';

/** @typedef {ReturnType<typeof runClassify>} ClassifyRun */

export const CLASSIFY_HOST = 'www.linkedin.com';
const THREADS = [1, 2];
const urlCount = (quick) => (quick ? 1_000_000 : 10_000_000);
/** The long run: three times as many URLs, so that each thread's warm-up (its JIT, its
 * automaton's states, which every thread builds for itself) weighs a third as much. */
const LONG_RUN = 3;
const repetitions = (quick) => (quick ? 1 : 3);
const ROBOTS_DIR = path.join(SHARED, 'corpus', 'robots');

function summarise(runs) {
  const own = runs.map((r) => r.own).sort((a, b) => a - b);
  const wall = runs.map((r) => r.wall).sort((a, b) => a - b);
  const mid = (xs) => xs[Math.floor(xs.length / 2)];
  return { median: mid(own), min: own[0], max: own[own.length - 1], samples: own.length, wall: mid(wall), urls: runs[0].urls };
}

/** Runs each thread count `repeat` times, alternating; one table row per thread count. */
function measureThreads(args, repeat) {
  const runs = THREADS.map(() => /** @type {ClassifyRun[]} */ ([]));
  /** @type {(t: number) => ClassifyRun[]} */
  const runsOf = (t) => runs[THREADS.indexOf(t)];
  for (let i = 0; i < repeat; i++) for (const t of THREADS) runsOf(t).push(runClassify(args, t));
  const variants = THREADS.map((t) => ({ label: `robots classify --threads ${t}`, threads: t, ...summarise(runsOf(t)), note: '' }));
  const one = variants[0].median;
  for (const v of variants) {
    v.note = `wall clock ${formatFigure(v.wall, 'URLs/s')} URLs/s with process start${v.threads > 1 ? `; ${(v.median / one).toFixed(2)}× one thread` : ''}`;
  }
  return { ...variants[0], variants };
}

const common = {
  kind: 'end-to-end',
  unit: 'URLs/s',
  needsCorpus: true,
  appliesTo: (adapter) => adapter.id === 'wasm-google',
};

/** 10M URLs (1M quick) on one real robots.txt: the corpus probe paths, repeated; and three times as many. */
export const classifyOne = {
  ...common,
  id: 'classify',
  title: 'robots classify, one robots.txt',
  describe: (ctx) => `\`robots classify --robots ${CLASSIFY_HOST} --profile google\` on ${urlCount(ctx.quick).toLocaleString('en')} URLs (the corpus probe paths on that host, repeated) and on ${(LONG_RUN * urlCount(ctx.quick)).toLocaleString('en')}, output to /dev/null; ${repetitions(ctx.quick)} run(s) per thread count`,
  async run(ctx) {
    const paths = ctx.corpus().flatMap((h) => h.urls.map((u) => u.slice(h.origin.length) || '/'));
    const args = (file) => ['--robots', path.join(ROBOTS_DIR, CLASSIFY_HOST), '--agent', ctx.agent, '--profile', 'google', file];
    const short = measureThreads(args(await repeatedUrlFile(CLASSIFY_HOST, paths, urlCount(ctx.quick))), repetitions(ctx.quick));
    const long = measureThreads(args(await repeatedUrlFile(CLASSIFY_HOST, paths, LONG_RUN * urlCount(ctx.quick))), repetitions(ctx.quick));
    const named = (what, r) => r.variants.map((v) => ({ ...v, label: `${v.label}${what}` }));
    return { ...short, variants: [...short.variants, ...named(`, ${(LONG_RUN * urlCount(ctx.quick) / 1e6).toFixed(0)}M URLs`, long)] };
  },
};

/**
 * A folder of the corpus files `copies` times over (copy k: "k.<host>", a link to the file) and
 * its URLs (the probes, copy k's on "https://k.<host>"): a run `copies` times as long with as
 * many hosts, each loaded once. Made once in the temp folder.
 */
function corpusDirCopies(ctx, copies) {
  const folder = path.join(os.tmpdir(), `robots-bench-dir-x${copies}`);
  if (!existsSync(path.join(folder, '.complete'))) {
    mkdirSync(folder, { recursive: true });
    for (const host of readdirSync(ROBOTS_DIR)) {
      for (let k = 0; k < copies; k++) {
        const link = path.join(folder, k === 0 ? host : `${k}.${host}`);
        if (!existsSync(link)) symlinkSync(path.join(ROBOTS_DIR, host), link);
      }
    }
    writeFileSync(path.join(folder, '.complete'), '');
  }
  const urls = Array.from({ length: copies }, (_, k) => ctx.corpus().flatMap((h) => h.urls.map((u) => (k === 0 ? u : u.replace('https://', `https://${k}.`))))).flat();
  return { folder, file: urlListFile(`probes-x${copies}`, urls) };
}

/**
 * The corpus probes over --robots-dir: one robots.txt per host, each parsed and compiled once;
 * 1 and 2 threads on the probes as they come (grouped by host), on the probes ×10 (ten renamed
 * copies of the corpus: a run long enough that each thread's start and warm-up weigh little), and
 * on the probes interleaved (every URL's host another: a crawl log's order).
 */
export const classifyDir = {
  ...common,
  id: 'classify-dir',
  title: 'robots classify, one robots.txt per host',
  describe: (ctx) => `\`robots classify --robots-dir corpus/robots --profile google\` on the corpus probe URLs (${ctx.quick ? 'every 4th host' : '4,241 hosts'}), on them ×${ctx.quick ? 3 : 10} (renamed copies of the corpus, as many hosts) and interleaved; output to /dev/null; ${repetitions(ctx.quick)} run(s) per thread count, alternating`,
  async run(ctx) {
    const hosts = ctx.quick ? ctx.corpus().filter((_, i) => i % 4 === 0) : ctx.corpus();
    const urls = hosts.flatMap((h) => h.urls);
    const args = (dir, file) => ['--robots-dir', dir, '--agent', ctx.agent, '--profile', 'google', file];
    const copies = corpusDirCopies(ctx, ctx.quick ? 3 : 10);
    const plain = measureThreads(args(ROBOTS_DIR, urlListFile(ctx.quick ? 'probes-quick' : 'probes', urls)), repetitions(ctx.quick));
    const long = measureThreads(args(copies.folder, copies.file), repetitions(ctx.quick));
    const mixed = measureThreads(args(ROBOTS_DIR, urlListFile(ctx.quick ? 'probes-quick-interleaved' : 'probes-interleaved', shuffled(urls))), repetitions(ctx.quick));
    const named = (what, r) => r.variants.map((v) => ({ ...v, label: `${v.label}${what}` }));
    return { ...plain, variants: [...plain.variants, ...named(`, probes ×${ctx.quick ? 3 : 10}`, long), ...named(', probes interleaved', mixed)] };
  },
};

/**
 * A WARC of the corpus files (each the 200 capture of https://<host>/robots.txt,
 * gzip per record), `copies` times over with the hosts renamed (copy k: "k.<host>"),
 * written by warcio once and kept in the temp folder.
 */
export async function corpusWarc(copies, prefix = '', name = `corpus-x${copies}`) {
  const file = path.join(os.tmpdir(), `robots-bench-${name}.warc.gz`);
  if (existsSync(file)) return file;
  const parts = [];
  const hosts = readdirSync(ROBOTS_DIR);
  for (let k = 0; k < copies; k++) {
    for (const host of hosts) {
      const body = Buffer.concat([Buffer.from(prefix), readFileSync(path.join(ROBOTS_DIR, host))]);
      const record = await WARCRecord.create(
        { url: `https://${k === 0 ? '' : `${k}.`}${host}/robots.txt`, date: '2024-01-01T00:00:00Z', type: 'response', httpHeaders: { 'Content-Type': 'text/plain' }, statusline: 'HTTP/1.1 200 OK' },
        (async function* () { yield body; })(),
      );
      parts.push(await WARCSerializer.serialize(record, { gzip: true }));
    }
  }
  writeFileSync(`${file}.partial`, Buffer.concat(parts));
  renameSync(`${file}.partial`, file);
  return file;
}

const CRAWLERS = ['Googlebot', 'Bingbot', 'GPTBot', 'CCBot', 'ClaudeBot'];

/** `gzip -dc FILE > /dev/null` (one thread): MiB/s of the file as it is on disk, the yardstick of indexing. */
function gunzipMiBs(file) {
  const began = performance.now();
  const r = spawnSync('gzip', ['-dc', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`gzip -dc ${file} exited with ${r.status}: ${r.stderr}`);
  return statSync(file).size / 2 ** 20 / ((performance.now() - began) / 1000);
}

/**
 * `robots index` of `file` and `gzip -dc` of it, one after the other (gzip -dc first or not: a round's noise falls on
 * either first), their runs pushed to `indexed` and `gunzipped`; the index written into a fresh `dir`, as a crawl's
 * map step writes it (replacing an index unlinks its shard files first, a cost that gzip -dc > /dev/null does not pay).
 */
function indexAndGunzip(gunzipFirst, file, dir, indexed, gunzipped) {
  if (gunzipFirst) gunzipped.push(gunzipMiBs(file));
  rmSync(dir, { recursive: true, force: true });
  indexed.push(runIndex(file, INDEX_SHARDS, dir, ['--max-octets', 'Infinity']));
  if (!gunzipFirst) gunzipped.push(gunzipMiBs(file));
}

/** Host shards of the bench's indexes (`robots index --shards`): a crawl's map step writes many. */
const INDEX_SHARDS = 16;

/** A temp folder for an index `robots index` writes (an index of as many shards there is replaced). */
const indexDir = (name) => path.join(os.tmpdir(), `robots-bench-index-${name}`);

/**
 * --robots-warc against --robots-dir on the same files and URLs (the corpus
 * probes), 1 and 2 threads; five crawlers at once (--crawlers) against one;
 * and a WARC ten times the corpus (42,410 hosts) through a 16 MiB host cache:
 * indexing MiB/s against `gzip -dc` on the same file in the same run (issue 31's
 * goal: at least as fast), and peak memory. Issue 31's map and reduce steps
 * beside them: `robots index` of that WARC (MiB/s against the same `gzip -dc`),
 * index + `classify --robots-index` end to end, and --robots-index against
 * --robots-dir on the corpus probes (goal: at least as fast). Issue 44's:
 * `robots index` of a WARC of 70 MiB or more (the corpus ×16) against `gzip -dc`
 * of it, in turn (goal: 1.6× its rate).
 */
export const classifyWarc = {
  ...common,
  id: 'classify-warc',
  title: 'robots classify, robots.txt from a WARC',
  describe: (ctx) => `\`robots classify --robots-warc\` (the corpus files as a WARC of captures) and \`--robots-index\` (the same WARC through \`robots index --shards ${INDEX_SHARDS}\`) against \`--robots-dir\` on the same corpus probe URLs; \`--crawlers ${CRAWLERS.join(',')}\` against one crawler; a WARC of the corpus ${ctx.quick ? 3 : 10} times over (hosts renamed) with \`--cache-mb 16\`, classified from it and indexed then classified; \`gzip -dc\` of it; \`robots index\` of the corpus ${ctx.quick ? 3 : 16} times over against \`gzip -dc\` of it. ${repetitions(ctx.quick)} run(s) each, alternating`,
  async run(ctx) {
    const urls = urlListFile('probes', ctx.corpus().flatMap((h) => h.urls));
    const warc = await corpusWarc(1);
    const copies = ctx.quick ? 3 : 10;
    const big = await corpusWarc(copies);
    const bigUrls = urlListFile(`probes-x${copies}`, Array.from({ length: copies }, (_, k) => ctx.corpus().flatMap((h) => h.urls.map((u) => (k === 0 ? u : u.replace('https://', `https://${k}.`))))).flat());
    const common = ['--profile', 'google', '--max-bytes', 'Infinity'];
    // The corpus's index, made once (its classification is what is timed); the same bodies as the WARC's, uncut.
    const index = indexDir('corpus-x1');
    runIndex(warc, INDEX_SHARDS, index, ['--max-octets', 'Infinity']);
    const bigIndex = indexDir(`corpus-x${copies}`);
    /** @type {Record<'warc1' | 'dir1' | 'index1' | 'warc2' | 'dir2' | 'index2' | 'five' | 'one' | 'big' | 'bigIndexed', ClassifyRun[]>} */
    const runs = { warc1: [], dir1: [], index1: [], warc2: [], dir2: [], index2: [], five: [], one: [], big: [], bigIndexed: [] };
    /** @type {ReturnType<typeof runIndex>[]} `robots index` of the big WARC */
    const indexing = [];
    /** gzip -dc on the big WARC, beside each of its runs (the machine's noise on both alike). */
    const gunzip = [];
    // Issue 44's mark, robots index at 1.6x gzip -dc on a WARC of 70 MiB or more: the corpus x16 (73.7 MiB), indexed
    // (default threads, --max-octets Infinity) and gunzipped in turn, each index into a fresh --out.
    const wideCopies = ctx.quick ? copies : 16;
    const wide = wideCopies === copies ? big : await corpusWarc(wideCopies);
    const wideIndex = indexDir(`corpus-x${wideCopies}-wide`);
    /** @type {ReturnType<typeof runIndex>[]} */
    const wideIndexing = wide === big ? indexing : [];
    const wideGunzip = wide === big ? gunzip : [];
    for (let i = 0; i < repetitions(ctx.quick); i++) {
      for (const t of [1, 2]) {
        runs[`warc${t}`].push(runClassify(['--robots-warc', warc, '--agent', ctx.agent, ...common, urls], t));
        runs[`dir${t}`].push(runClassify(['--robots-dir', ROBOTS_DIR, '--agent', ctx.agent, ...common, urls], t));
        runs[`index${t}`].push(runClassify(['--robots-index', index, '--agent', ctx.agent, ...common, urls], t));
      }
      runs.one.push(runClassify(['--robots-warc', warc, '--crawlers', ctx.agent, ...common, '--format', 'jsonl', urls], 1));
      runs.five.push(runClassify(['--robots-warc', warc, '--crawlers', CRAWLERS.join(','), ...common, '--format', 'jsonl', urls], 1));
      runs.big.push(runClassify(['--robots-warc', big, '--agent', ctx.agent, ...common, '--cache-mb', '16', bigUrls], 1));
      indexAndGunzip(i % 2 === 0, big, bigIndex, indexing, gunzip);
      runs.bigIndexed.push(runClassify(['--robots-index', bigIndex, '--agent', ctx.agent, ...common, '--cache-mb', '16', bigUrls], 1));
      if (wide !== big) indexAndGunzip(i % 2 !== 0, wide, wideIndex, wideIndexing, wideGunzip);
    }
    rmSync(wideIndex, { recursive: true, force: true });
    const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const row = (label, list, note) => ({ label, ...summarise(list), note });
    const peak = (list) => `${mid(list.map((r) => r.peakMiB ?? NaN)).toFixed(0)} MiB peak resident memory (/usr/bin/time)`;
    const against = (a, b) => (mid(a.map((r) => r.own)) / mid(b.map((r) => r.own))).toFixed(2);
    const gz = mid(gunzip);
    // Index then classify, one after the other as a crawl's map and reduce steps run: the wall clock of
    // both commands (process starts included), the peak of the two.
    const endToEnd = runs.bigIndexed.map((c, i) => {
      const rate = c.urls / (indexing[i].seconds + c.seconds);
      return { ...c, own: rate, wall: rate, seconds: indexing[i].seconds + c.seconds, peakMiB: Math.max(indexing[i].peakMiB ?? NaN, c.peakMiB ?? NaN) };
    });
    const own = wideIndexing.map((r) => r.ownMiBs).sort((a, b) => a - b);
    const wideGz = mid(wideGunzip);
    const variants = [
      row('--robots-warc, 1 thread', runs.warc1, `${against(runs.warc1, runs.dir1)}× --robots-dir; indexing ${mid(runs.warc1.map((r) => r.indexMiBs)).toFixed(1)} MiB/s of WARC`),
      row('--robots-dir, 1 thread', runs.dir1, ''),
      row('--robots-warc, 2 threads', runs.warc2, `${against(runs.warc2, runs.dir2)}× --robots-dir`),
      row('--robots-dir, 2 threads', runs.dir2, ''),
      row(`--robots-index (${INDEX_SHARDS} shards, read whole), 1 thread`, runs.index1, `${against(runs.index1, runs.dir1)}× --robots-dir (goal ≥ 1×); ${peak(runs.index1)}`),
      row(`--robots-index (${INDEX_SHARDS} shards, read whole), 2 threads`, runs.index2, `${against(runs.index2, runs.dir2)}× --robots-dir (goal ≥ 1×)`),
      row('--crawlers (1), JSON lines, 1 thread', runs.one, ''),
      row(`--crawlers (5), JSON lines, 1 thread`, runs.five, `time ${(mid(runs.one.map((r) => r.own)) / mid(runs.five.map((r) => r.own))).toFixed(2)}× one crawler's`),
      row(`WARC of the corpus ×${copies}, --cache-mb 16, 1 thread`, runs.big, `${peak(runs.big)}; indexing ${mid(runs.big.map((r) => r.indexMiBs)).toFixed(1)} MiB/s of WARC, ${(mid(runs.big.map((r) => r.indexMiBs)) / gz).toFixed(2)}× \`gzip -dc\` on the same file (${gz.toFixed(1)} MiB/s, same run; goal ≥ 1×)`),
      // No URLs here: the figure is in the note (MiB/s of the WARC as it is on disk, as gzip -dc's).
      {
        label: `robots index --shards ${INDEX_SHARDS} of the WARC ×${wideCopies} (${(statSync(wide).size / 2 ** 20).toFixed(1)} MiB), --threads by default (${os.availableParallelism()} cores) (MiB/s in the note)`,
        median: undefined,
        samples: wideIndexing.length,
        note: `whole command (process start, writing ${mid(wideIndexing.map((r) => r.outMiB)).toFixed(0)} MiB of shards into a fresh --out) ${mid(wideIndexing.map((r) => r.wallMiBs)).toFixed(1)} MiB/s of WARC, ${(mid(wideIndexing.map((r) => r.wallMiBs)) / wideGz).toFixed(2)}× \`gzip -dc\` (${wideGz.toFixed(1)} MiB/s, same run, alternating; goal ≥ 1.6×); reading pass ${mid(own).toFixed(1)} MiB/s (${own[0].toFixed(1)}–${own[own.length - 1].toFixed(1)}; its summary's clock), ${(mid(own) / wideGz).toFixed(2)}×; ${peak(wideIndexing)}`,
      },
      row(`--robots-index of that index, --cache-mb 16, 1 thread`, runs.bigIndexed, `${against(runs.bigIndexed, runs.big)}× --robots-warc of the WARC; ${peak(runs.bigIndexed)}`),
      row(`index + classify of the corpus ×${copies} end to end, 1 thread (wall clock)`, endToEnd, `${mid(endToEnd.map((r) => r.seconds)).toFixed(2)} s wall for ${endToEnd[0].urls.toLocaleString('en')} URLs (robots index, then classify --robots-index; process starts included), ${(mid(endToEnd.map((r) => r.own)) / mid(runs.big.map((r) => r.wall))).toFixed(2)}× --robots-warc's wall-clock rate; ${peak(endToEnd)}`),
    ];
    return { ...variants[0], variants };
  },
};

/** Cloudflare's managed robots.txt block, which it puts before a site's own (Content Signals Policy). */
const CLOUDFLARE_BLOCK = 'User-Agent: *\nContent-Signal: search=yes,ai-train=no\nAllow: /\n\n';

/**
 * Issue 30's figure: `--crawlers @ai --usage` (the 163 AI crawlers, a verdict and
 * three purposes each) against one crawler without purposes, on the corpus probes
 * from the corpus WARC, 1 thread, TSV to /dev/null; also @ai without --usage, @ai
 * as JSON lines (purposes always), and @ai --usage on the corpus with Cloudflare's
 * managed block before every file (every crawler's purposes known: one code per
 * crawler and host). The goal: @ai --usage within 2x one crawler's time.
 */
export const classifyUsage = {
  ...common,
  id: 'classify-usage',
  title: 'robots classify, 163 AI crawlers with their use purposes',
  describe: (ctx) => `\`robots classify --robots-warc corpus.warc.gz --crawlers @ai --usage --profile google\` on the corpus probe URLs against \`--agent ${ctx.agent}\` (one crawler, no purposes); @ai without --usage; @ai as JSON lines; @ai --usage with Cloudflare's managed block before every file. Output to /dev/null, 1 thread, ${repetitions(ctx.quick)} run(s) each, alternating`,
  async run(ctx) {
    const urls = urlListFile('probes', ctx.corpus().flatMap((h) => h.urls));
    const warc = await corpusWarc(1);
    const signalled = await corpusWarc(1, CLOUDFLARE_BLOCK, 'corpus-cloudflare');
    const common = ['--profile', 'google', '--max-octets', 'Infinity'];
    /** @type {Record<'one' | 'ai' | 'usage' | 'json' | 'cf', ClassifyRun[]>} */
    const runs = { one: [], ai: [], usage: [], json: [], cf: [] };
    for (let i = 0; i < repetitions(ctx.quick); i++) {
      runs.one.push(runClassify(['--robots-warc', warc, '--agent', ctx.agent, ...common, urls], 1));
      runs.usage.push(runClassify(['--robots-warc', warc, '--crawlers', '@ai', '--usage', ...common, urls], 1));
      runs.ai.push(runClassify(['--robots-warc', warc, '--crawlers', '@ai', ...common, urls], 1));
      runs.json.push(runClassify(['--robots-warc', warc, '--crawlers', '@ai', '--format', 'jsonl', ...common, urls], 1));
      runs.cf.push(runClassify(['--robots-warc', signalled, '--crawlers', '@ai', '--usage', ...common, urls], 1));
    }
    const mid = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const one = mid(runs.one.map((r) => r.own));
    const times = (list) => `time ${(one / mid(list.map((r) => r.own))).toFixed(2)}× one crawler's`;
    const row = (label, list, note) => ({ label, ...summarise(list), note });
    const variants = [
      row(`--crawlers @ai --usage (163 crawlers, 3 purposes each), TSV`, runs.usage, `${times(runs.usage)} (goal ≤ 2×)`),
      row(`--agent ${ctx.agent} (one crawler, no purposes), TSV`, runs.one, ''),
      row('--crawlers @ai, TSV', runs.ai, times(runs.ai)),
      row('--crawlers @ai, JSON lines (purposes always)', runs.json, times(runs.json)),
      row('--crawlers @ai --usage, Cloudflare\'s block before every file, TSV', runs.cf, times(runs.cf)),
    ];
    return { ...variants[0], variants };
  },
};
