// `robots classify`: one verdict line per input URL, in input order, over all cores.
// The flags made into a config, the classification run by bulk's front door
// (src/bulk/classify.ts), its summary printed.
import { statSync } from 'node:fs';
import { fetchRobots, operatorById, PURPOSES, robotsUrl, type Profile } from '../index.js';
import {
  indexWarcs, MAX_COUNTED_HOSTS, MAX_CRAWLERS, MAX_THREADS, readRobotsIndexes, runClassification,
  type ClassificationDone, type ClassificationTotals, type ClassifyConfig, type OutputFormat, type WarcIndex,
} from '../bulk/classify.js';
import { readRobotsFile } from './robots-file.js';
import { CliError, reason } from './errors.js';
import { Progress } from './progress.js';
import { thousands } from './numbers.js';
import { parseAsOf } from './as-of.js';
import { EXIT_SKIPPED, warcRunOf } from './warc-inputs.js';
import { named } from './warc-file-names.js';
import { checkAgentNames, noteAgents, parseAgents, parseFormat, parseMaxOctets, parseProfile, parseShard } from './options.js';
import { expandCrawlers } from './crawler-sets.js';
import { parseOperators } from './operator-option.js';
import { checkPassNames, classifyTables, tableRun } from './classify-tables.js';

declare const VERSION: string; // set by the build (package.json)

export interface ClassifyOptions {
  robots?: string;
  robotsDir?: string;
  robotsWarc?: string[];
  /** --robots-warc-list and its settings (warc-inputs.ts). */
  robotsWarcList?: string[];
  warcBase?: string;
  warcRetries?: string;
  warcTimeoutMs?: string;
  warcMaxMb?: string;
  /** --robots-index DIR (repeatable): indexes `robots index` wrote. */
  robotsIndex?: string[];
  /** --as-of DATE: the captures at or before it, under the cache's policy (--robots-warc, --robots-warc-list, --robots-index). */
  asOf?: string;
  missing: string;
  agent: string[];
  /** --agent was given (not the default). */
  agentGiven?: boolean;
  crawlers?: string[];
  /** --operators: each operator's answer per purpose (ids of the data, @ai for all). */
  operators?: string[];
  /** TSV with --crawlers: each crawler's use purposes as columns (JSON lines carry them always). */
  usage?: boolean;
  shard?: string;
  profile: string;
  format: string;
  threads?: string;
  out?: string;
  cacheMb: string;
  maxOctets?: string;
  /** The deprecated name of --max-octets. */
  maxBytes?: string;
  quiet?: boolean;
  strictRobotsDir?: boolean;
  userAgent?: string;
  /** --urls-parquet FILE, --pass-columns, --row-group: classify-tables.ts. */
  urlsParquet?: string;
  passColumns?: string[];
  rowGroup?: string;
}

export async function classifyCommand(inputPath: string | undefined, given: ClassifyOptions): Promise<number> {
  // (A Parquet output or URL list: classify-tables.ts; it runs classify on lines, as JSON lines for Parquet.)
  const tables = await tableRun(inputPath, given);
  const options = tables?.options ?? given;
  const urlsFromStdin = (inputPath === undefined || inputPath === '-') && options.urlsParquet === undefined;
  if (options.robots === '-' && urlsFromStdin) {
    throw new CliError('--robots - reads the robots.txt from stdin, so the URLs cannot come from there too: give them as a file (robots classify --robots - urls.txt)');
  }
  if (options.robotsWarcList?.includes('-') && urlsFromStdin) {
    throw new CliError('--robots-warc-list - reads the list from stdin, so the URLs cannot come from there too: give them as a file');
  }
  const { config, threads } = readOptions(options, await robotsOf(options));
  const perHost = config.robotsDir !== undefined || options.robotsWarc !== undefined || options.robotsWarcList !== undefined || options.robotsIndex !== undefined;
  const shape = { crawlers: config.crawlers, operators: config.operators, perHost };
  if (tables !== null) checkPassNames(tables.pass, shape); // before the WARCs are read
  const asOf = options.asOf === undefined ? undefined : parseAsOf(options.asOf);
  const warc = options.robotsWarc !== undefined || options.robotsWarcList !== undefined
    ? await indexOf(options, config, asOf)
    : options.robotsIndex !== undefined ? { index: capturesOf(options.robotsIndex, config, options.quiet === true, asOf), skipped: 0 } : undefined;
  if (warc !== undefined) config.warc = warc.index.data;
  let code: number;
  try {
    code = tables === null
      ? await classifyWith(inputPath, options, config, threads)
      : await classifyTables(tables, inputPath, shape, (input, out) => classifyWith(input, { ...options, out }, config, threads));
  } finally {
    warc?.index.dispose();
  }
  // Every verdict written, but some WARCs of a list could not be had (each said on stderr, and in the summary).
  return code === 0 && warc !== undefined && warc.skipped > 0 ? EXIT_SKIPPED : code;
}

/** --robots-warc, --robots-warc-list: the captures indexed before any URL is read (progress and a summary line on stderr). */
async function indexOf(options: ClassifyOptions, config: ClassifyConfig, asOf: number | undefined): Promise<{ index: WarcIndex; skipped: number }> {
  const quiet = options.quiet === true;
  const run = await warcRunOf('classify', options);
  let index: WarcIndex;
  try {
    index = await indexWarcs(run.files, { maxOctets: config.maxOctets, asOf, warn: run.warn, progress: run.progress, name: named(run.files) });
  } finally {
    run.stop();
  }
  const s = index.stats;
  if (!quiet) {
    process.stderr.write(`robots classify: indexed ${thousands(s.responses)} responses (${thousands(index.data.captures.size)} URLs) of ${thousands(s.records)} records in ${thousands(s.files)} WARC file${s.files === 1 ? '' : 's'}, ` +
      `${(s.octets / 2 ** 20).toFixed(1)} MiB in ${(s.ms / 1000).toFixed(2)} s (${(s.octets / 2 ** 20 / Math.max(s.ms / 1000, 1e-3)).toFixed(1)} MiB/s)` +
      `${s.damaged > 0 ? `; ${thousands(s.damaged)} damaged part${s.damaged === 1 ? '' : 's'} skipped (said above)` : ''}` +
      `${s.truncated > 0 ? `; ${thousands(s.truncated)} capture${s.truncated === 1 ? '' : 's'} cut to --max-octets (said above)` : ''}${run.note()}\n`);
  } else if (run.skipped() > 0) {
    process.stderr.write(`robots classify: ${thousands(run.skipped())} WARC file${run.skipped() === 1 ? '' : 's'} of the list skipped (said above): their captures are missing\n`);
  }
  return { index, skipped: run.skipped() };
}

/** --robots-index: shard i of each index (every shard without --shard), each URL's capture chosen (a summary line on stderr). */
function capturesOf(dirs: string[], config: ClassifyConfig, quiet: boolean, asOf: number | undefined): WarcIndex {
  const index = readRobotsIndexes(dirs, { shard: config.shard, asOf, maxOctets: config.maxOctets });
  const s = index.stats;
  if (!quiet) {
    const which = config.shard === undefined ? 'every shard' : `shard ${config.shard.index}/${config.shard.count}`;
    process.stderr.write(`robots classify: read ${thousands(s.records)} captures (${thousands(index.data.captures.size)} URLs chosen${asOf === undefined ? '' : ` as of ${new Date(asOf).toISOString()}`}) from ${which} of ${thousands(dirs.length)} index${dirs.length === 1 ? '' : 'es'}, ` +
      `${(s.octets / 2 ** 20).toFixed(1)} MiB in ${(s.ms / 1000).toFixed(2)} s\n`);
  }
  return index;
}

/** One run through bulk's front door: the progress bar on a terminal, then the summary on stderr. */
async function classifyWith(inputPath: string | undefined, options: ClassifyOptions, config: ClassifyConfig, threads: number | undefined): Promise<number> {
  let progress: Progress | undefined;
  let done: ClassificationDone;
  try {
    done = await runClassification(config, {
      input: inputPath,
      out: options.out,
      threads,
      started: (size) => (progress = new Progress(process.stderr.isTTY === true && !options.quiet, size)),
      progressed: (consumed, urls) => progress!.update(consumed, urls),
      unreadable: (why) => progress!.interrupt(`robots: warning: ${why}; its URLs are disallowed (unreachable, RFC 9309 2.3.1.3)`),
    });
  } finally {
    progress?.stop();
  }
  if (!options.quiet) summarize(done.totals, done.ms, config.robotsDir === undefined && config.warc === undefined ? null : { threads: done.threads, cacheMb: Number(options.cacheMb) }, config.crawlers, config.usage === true, config.operators);
  return 0;
}

/** --robots read once, here (the threads get its octets): a file, stdin ('-'), or
 * an http(s) URL fetched as a crawler does (fetchRobots: RFC 9309 2.3). */
async function robotsOf(o: ClassifyOptions): Promise<Pick<ClassifyConfig, 'robotsBody' | 'robotsUnreachable'>> {
  if (o.robots === undefined) return {};
  if (!/^https?:\/\//i.test(o.robots)) return { robotsBody: readRobotsFile(o.robots) };
  let target: string;
  try {
    target = robotsUrl(o.robots);
  } catch (e) {
    throw new CliError((e as Error).message);
  }
  const got = await fetchRobots(target, { userAgentHeader: o.userAgent ?? `robots-wasm/${VERSION}`, maxOctets: parseMaxOctets(o), timeoutMs: 10_000 });
  if (!o.quiet) process.stderr.write(`robots classify: ${target}: ${got.status} (${got.reason})${got.status === 'ok' ? '' : got.status === 'unavailable' ? ': every URL allowed' : ': every URL disallowed'}\n`);
  if (got.status === 'ok') return { robotsBody: got.body! };
  return got.status === 'unavailable' ? { robotsBody: new Uint8Array(0) } : { robotsUnreachable: true };
}

/** --threads (undefined when not given: see threadsFor). */
function readOptions(o: ClassifyOptions, robots: Pick<ClassifyConfig, 'robotsBody' | 'robotsUnreachable'>): { config: ClassifyConfig; threads: number | undefined } {
  if ([o.robots, o.robotsDir, o.robotsWarc ?? o.robotsWarcList, o.robotsIndex].filter((x) => x !== undefined).length !== 1) {
    throw new CliError('give one of --robots FILE (one robots.txt for all URLs), --robots-dir DIR (DIR/<host> per URL), --robots-warc FILE / --robots-warc-list LIST (robots.txt captures) or --robots-index DIR (an index of them)');
  }
  if (o.asOf !== undefined && o.robotsWarc === undefined && o.robotsWarcList === undefined && o.robotsIndex === undefined) {
    throw new CliError('--as-of picks among captures: give it with --robots-warc, --robots-warc-list or --robots-index');
  }
  const listOnly = ([['--warc-base', o.warcBase], ['--warc-retries', o.warcRetries], ['--warc-timeout-ms', o.warcTimeoutMs], ['--warc-max-mb', o.warcMaxMb]] as const).find(([, v]) => v !== undefined);
  if (listOnly !== undefined && o.robotsWarcList === undefined) throw new CliError(`${listOnly[0]} is for the entries of --robots-warc-list, which is not given`);
  if (o.missing !== 'allow' && o.missing !== 'disallow') throw new CliError(`--missing must be allow or disallow, got "${o.missing}"`);
  if (o.robotsDir !== undefined) {
    let isDir: boolean;
    try {
      isDir = statSync(o.robotsDir).isDirectory();
    } catch (e) {
      throw new CliError(`cannot read robots directory ${o.robotsDir}: ${reason(e)}`);
    }
    if (!isDir) throw new CliError(`--robots-dir ${o.robotsDir} is not a directory (use --robots for one file)`);
  }
  const format: OutputFormat = parseFormat(o.format, 'classify') ? 'jsonl' : 'tsv';
  const threads = o.threads === undefined ? undefined : Number(o.threads);
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS)) {
    throw new CliError(`--threads must be a whole number from 1 to ${MAX_THREADS}, got "${o.threads}"`);
  }
  const cacheMb = Number(o.cacheMb);
  if (!(cacheMb >= 1) || !Number.isFinite(cacheMb)) throw new CliError(`--cache-mb must be a number of MiB, at least 1, got "${o.cacheMb}"`);
  const profile: Profile = parseProfile(o.profile);
  const agents = parseAgents(o.agent);
  let crawlers: string[] | undefined;
  let setNotes: string[] = [];
  let plainNames: string[] = [];
  const operators = o.operators === undefined ? undefined : operatorIds(o.operators);
  let crawlerNames = o.crawlers;
  let agentGiven = o.agentGiven;
  if (operators !== undefined && crawlerNames === undefined && agentGiven) {
    // --agent with --operators: its verdict as a crawler column (the operators' need the table of crawlers).
    if (agents.length !== 1) throw new CliError('--operators with --agent takes one product token (for several crawlers, a column each: --crawlers)');
    crawlerNames = agents;
    agentGiven = false;
  }
  if (crawlerNames !== undefined) {
    if (agentGiven) throw new CliError('give --agent (the names of one crawler) or --crawlers (several crawlers, a verdict each), not both');
    const names = parseAgents(crawlerNames, '--crawlers');
    plainNames = names.filter((n) => !n.startsWith('@'));
    ({ crawlers, notes: setNotes } = expandCrawlers(names, profile));
    if (crawlers.length === 0) throw new CliError(`--crawlers ${crawlerNames.join(',')}: no crawler left (the rfc profile refuses names that are not product tokens)`);
    if (crawlers.length > MAX_CRAWLERS - 3 * (operators?.length ?? 0)) {
      throw new CliError(`--crawlers takes at most ${MAX_CRAWLERS} crawlers${operators === undefined ? '' : `, less 3 per operator of --operators (${operators.length})`}, got ${crawlers.length}`);
    }
  } else if (o.usage && operators === undefined) {
    throw new CliError("--usage adds each crawler's use purposes (search, train-ai, ai-use) as columns: name the crawlers with --crawlers (e.g. --crawlers GPTBot --usage, --crawlers @ai --usage)");
  }
  const config: ClassifyConfig = {
    ...robots,
    robotsDir: o.robotsDir,
    missing: o.missing,
    agents,
    crawlers,
    operators,
    // JSON lines give each crawler its purposes always; TSV when asked.
    usage: crawlers !== undefined && (format === 'jsonl' || o.usage === true),
    shard: o.shard === undefined ? undefined : parseShard(o.shard),
    profile,
    format,
    maxOctets: parseMaxOctets(o),
    strictRobotsDir: o.strictRobotsDir === true,
    // Each thread keeps its own compiled hosts: split between threads, a cache
    // too small for the run's hosts thrashed (a host recompiled for each of its URLs).
    cacheBytes: cacheMb * 2 ** 20,
  };
  // A bad agent is a usage error now, not in the first thread that meets it.
  checkAgentNames(agents, profile, config.maxOctets);
  for (const c of crawlers ?? []) checkAgentNames([c], profile, config.maxOctets);
  noteAgents('classify', crawlers === undefined ? agents : plainNames, profile);
  for (const note of setNotes) process.stderr.write(`robots classify: note: ${note}\n`);
  return { config, threads };
}

function summarize(t: ClassificationTotals, ms: number, cache: { threads: number; cacheMb: number } | null, crawlers: string[] | undefined, usage: boolean, operators: string[] | undefined): void {
  const n = thousands;
  const count = (k: number, word: string) => `${n(k)} ${word}${k === 1 ? '' : 's'}`;
  const hosts = t.hosts.size >= MAX_COUNTED_HOSTS ? `more than ${n(MAX_COUNTED_HOSTS)} hosts` : count(t.hosts.size, 'host');
  const rate = t.urls / Math.max(ms / 1000, 1e-6);
  const verdicts = crawlers === undefined
    ? operators !== undefined ? 'answers per operator below' : `${n(t.allowed)} allowed, ${n(t.urls - t.allowed)} disallowed`
    : crawlers.map((c, j) => `${c}: ${n(t.allowedBy![j])} allowed, ${n(t.urls - t.allowedBy![j])} disallowed`).join('; ');
  let line = `robots classify: ${count(t.urls, 'URL')}, ${hosts}, ${verdicts} ` +
    `in ${(ms / 1000).toFixed(2)} s (${n(Math.round(rate))} URLs/s)`;
  if (cache !== null) {
    const perThread = cache.threads > 1 ? ` over ${cache.threads} threads (each loads and keeps its share of the hosts)` : '';
    line += `; host cache: ${count(t.loads, 'load')}, ${count(t.evictions, 'eviction')}${perThread}`;
    if (t.unreadable.size > 0) line += `; ${count(t.unreadable.size, 'host file')} could not be read (their URLs disallowed)`;
    const b = t.byRobots;
    if (b !== undefined) {
      line += `\nrobots classify: URLs by their host's robots.txt: ${n(b.ok)} ok, ${n(b.unavailable)} unavailable (all allowed), ` +
        `${n(b.unreachable)} unreachable (all disallowed), ${n(b.missing)} missing`;
    }
    // Evictions on the order of the loads: hosts were compiled again and again.
    if (t.evictions > 0 && t.evictions * 4 >= t.loads) {
      line += `\nrobots classify: the host cache was too small for this input's hosts (each thread recompiled evicted hosts): ` +
        `raise --cache-mb (now ${n(cache.cacheMb)} MiB per thread), or sort the URLs by host`;
    }
  }
  if (crawlers !== undefined && usage && t.usageBy !== undefined) line += '\n' + purposesSummary(crawlers, t.usageBy);
  if (operators !== undefined) line += '\n' + operatorsSummary(operators, t.allowedBy!.slice(crawlers?.length ?? 0), t.urls);
  process.stderr.write(line + '\n');
}

/**
 * The summary's use purposes: a line per crawler for which robots.txt said
 * anything (per purpose, the URLs it may fetch whose purpose is disallowed and
 * allowed), then how many crawlers had every purpose unknown for every URL.
 */
function purposesSummary(crawlers: string[], usageBy: number[]): string {
  const n = thousands;
  const lines: string[] = [];
  let silent = 0;
  crawlers.forEach((c, j) => {
    const counts = usageBy.slice(6 * j, 6 * j + 6);
    if (counts.every((x) => x === 0)) {
      silent++;
      return;
    }
    const each = PURPOSES.map((p, i) => `${p} ${n(counts[2 * i + 1])} disallowed, ${n(counts[2 * i])} allowed`).join('; ');
    lines.push(`robots classify: ${c}: purposes (URLs): ${each}`);
  });
  if (silent > 0) {
    lines.push(`robots classify: ${silent === crawlers.length ? (silent === 1 ? 'the crawler' : `all ${n(silent)} crawlers`) : `${n(silent)} other crawler${silent === 1 ? '' : 's'}`}: ` +
      'every purpose unknown for every URL (no Content-Usage or Content-Signal line applied where they may fetch)');
  }
  return lines.join('\n');
}

/**
 * The summary's operators: a line each, per purpose the URLs answered yes, no
 * and unknown (an operator slot's count is its yes; unknown is every URL of a
 * purpose it has no crawler for).
 */
function operatorsSummary(ids: string[], yes: number[], urls: number): string {
  const n = thousands;
  return ids.map((id, o) => {
    const operator = operatorById(id)!;
    const each = PURPOSES.map((p, i) => {
      const none = !operator.crawlers.some((c) => c.purposes.includes(p));
      const y = none ? 0 : yes[3 * o + i];
      return `${p} ${n(y)} yes, ${n(none ? 0 : urls - y)} no, ${n(none ? urls : 0)} unknown`;
    }).join('; ');
    return `robots classify: operator ${id}: ${each}`;
  }).join('\n');
}

/** --operators' ids (parseOperators': @ai for all; an unknown id is a usage error naming the known ones). */
function operatorIds(values: string[]): string[] {
  try {
    return parseOperators(values).map((op) => op.id);
  } catch (e) {
    if (e instanceof CliError) throw new CliError(e.message.replace(/^--operator:/, '--operators:'));
    throw e;
  }
}

