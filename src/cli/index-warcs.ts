// `robots index`: WARC files' robots.txt captures written into N host shards
// (src/bulk/index/robots-index-writer.ts), for `classify --robots-index`.
import { writeRobotsIndex, MAX_SHARDS } from '../bulk/index/robots-index-writer.js';
import { named } from './warc-file-names.js';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { CliError, reason } from './errors.js';
import { thousands } from './numbers.js';
import { parseMaxOctets } from './options.js';
import { IndexProgress } from './progress.js';
import { EXIT_SKIPPED, warcRunOf, type WarcInputOptions } from './warc-inputs.js';

export interface IndexOptions extends WarcInputOptions {
  robotsWarc?: string[];
  shards: string;
  out?: string;
  maxOctets?: string;
  maxBytes?: string;
  threads?: string;
  quiet?: boolean;
}

/** Largest --threads accepted (as classify's). */
const MAX_THREADS = 256;
/** WARC octets per worker thread when --threads is not given. A worker costs CPU to start and warm up its JIT, and
 * reads a MiB for a little less than the main thread's one stream, so a small input does not pay a thread back: under
 * 16 MiB in all, the main thread reads alone, in one stream (the corpus ×3 took less CPU so than with 2 threads). */
const OCTETS_PER_THREAD = 16 << 20;

/** Reading threads (the main thread one of them): a core each but one, the core left to inflate the main thread's
 * stretches on libuv's threadpool (../bulk/sources/warc/pool-inflate.ts), or fewer for files too short to share, none
 * (one stream) for the shortest (a list's files are not known yet: all but one core). On 2 cores the main thread alone
 * with its inflates on the pool made 1.45x gzip -dc's rate, the main thread and a worker 1.23x (docs/benchmarks.md). */
function threadsFor(files: readonly string[], list: boolean): number {
  const cores = Math.max(1, Math.min(availableParallelism() - 1, MAX_THREADS));
  if (list) return cores;
  const workers = Math.floor(files.reduce((a, f) => a + statSync(f).size, 0) / OCTETS_PER_THREAD);
  return workers === 0 ? 0 : Math.min(cores, 1 + workers);
}

/** Without a terminal (a batch job's log), a progress line this often. */
const LOG_EVERY_MS = 30_000;

export async function indexCommand(warcs: string[], o: IndexOptions): Promise<number> {
  const files = [...(o.robotsWarc ?? []), ...warcs];
  if (files.length === 0 && o.robotsWarcList === undefined) throw new CliError('no WARC files: give them as arguments, with --robots-warc FILE or --robots-warc-list LIST (robots index --help)');
  const listOnly = ([['--warc-base', o.warcBase], ['--warc-retries', o.warcRetries], ['--warc-timeout-ms', o.warcTimeoutMs], ['--warc-max-mb', o.warcMaxMb], ['--user-agent', o.userAgent]] as const).find(([, v]) => v !== undefined);
  if (listOnly !== undefined && o.robotsWarcList === undefined) throw new CliError(`${listOnly[0]} is for the entries of --robots-warc-list, which is not given`);
  if (o.out === undefined) throw new CliError('--out DIR is required: the directory the index is written to');
  const shards = Number(o.shards);
  if (!Number.isInteger(shards) || shards < 1 || shards > MAX_SHARDS) throw new CliError(`--shards must be a whole number from 1 to ${MAX_SHARDS}, got "${o.shards}"`);
  const maxOctets = parseMaxOctets(o);
  const given = o.threads === undefined ? undefined : Number(o.threads);
  if (given !== undefined && (!Number.isInteger(given) || given < 1 || given > MAX_THREADS)) throw new CliError(`--threads must be a whole number from 1 to ${MAX_THREADS}, got "${o.threads}"`);
  for (const f of files) {
    // (Before the directory is made: a mistyped name leaves nothing behind.)
    let st;
    try {
      st = statSync(f);
    } catch (e) {
      throw new CliError(`cannot read WARC file ${f}: ${reason(e)}`);
    }
    if (!st.isFile()) throw new CliError(`cannot read WARC file ${f}: ${st.isDirectory() ? 'is a directory' : 'not a regular file'}`);
  }
  const threads = given ?? threadsFor(files, o.robotsWarcList !== undefined);
  const quiet = o.quiet === true;
  const tty = process.stderr.isTTY === true && !quiet;
  // A list's files, downloaded as they come (warc-inputs.ts), with their own bar; else the files as given.
  const run = o.robotsWarcList === undefined ? undefined : await warcRunOf('index', { ...o, robotsWarc: files });
  const bar = run === undefined ? new IndexProgress(tty) : { update: (octets: number, total: number) => run.progress?.(octets, total), interrupt: run.warn, stop: run.stop };
  let logged = performance.now();
  const began = logged;
  const written = await writeRobotsIndex(run?.files ?? files, o.out, {
    shards,
    maxOctets,
    threads,
    warn: run?.warn ?? ((line) => bar.interrupt(`robots index: warning: ${line}`)),
    name: named(run?.files),
    progress: (octets, total) => {
      bar.update(octets, total);
      if (!tty && !quiet && performance.now() - logged >= LOG_EVERY_MS) {
        logged = performance.now();
        process.stderr.write(`robots index: ${(octets / 2 ** 20).toFixed(1)} of ${(total / 2 ** 20).toFixed(1)} MiB read (${((100 * octets) / Math.max(total, 1)).toFixed(1)}%)\n`);
      }
    },
  }).finally(() => bar.stop());
  if (!quiet) {
    const s = written.stats;
    process.stderr.write(`robots index: ${thousands(written.manifest.captures)} captures of ${thousands(s.records)} records in ${thousands(s.files)} WARC file${s.files === 1 ? '' : 's'} ` +
      `(${(s.octets / 2 ** 20).toFixed(1)} MiB in ${(s.ms / 1000).toFixed(2)} s, ${(s.octets / 2 ** 20 / Math.max(s.ms / 1000, 1e-3)).toFixed(1)} MiB/s read; ` +
      `${((performance.now() - began) / 1000).toFixed(2)} s with the shards' writing) ` +
      `written to ${o.out} in ${thousands(shards)} shard${shards === 1 ? '' : 's'} (${(written.octets / 2 ** 20).toFixed(1)} MiB)` +
      `${s.damaged > 0 ? `; ${thousands(s.damaged)} damaged part${s.damaged === 1 ? '' : 's'} skipped (said above)` : ''}` +
      `${s.truncated > 0 ? `; ${thousands(s.truncated)} capture${s.truncated === 1 ? '' : 's'} cut to --max-octets (said above)` : ''}${run?.note() ?? ''}\n`);
  } else if (run !== undefined && run.skipped() > 0) {
    process.stderr.write(`robots index: ${thousands(run.skipped())} WARC file${run.skipped() === 1 ? '' : 's'} of the list skipped (said above): their captures are missing\n`);
  }
  // The index is written, but without the captures of the files skipped (each said): a batch engine sees it.
  return run !== undefined && run.skipped() > 0 ? EXIT_SKIPPED : 0;
}
