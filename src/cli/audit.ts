// `robots audit`: one line per site (TSV or JSON lines), per crawler its
// category from the rules (all / none / part: exact, bulk/audit/rule-category.ts),
// how it is reached, its purposes at `/`; per operator and purpose, the category of
// its crawler; and a summary of plain counts that adds up across shards.
// The sites come from classify's sources (no URL list).
import { writeFileSync, renameSync } from 'node:fs';
import { thousands } from './numbers.js';
import { CliError, reason, userExitCode } from './errors.js';
import { parseAgents, parseMaxOctets, parseProfile, parseShard } from './options.js';
import { expandCrawlers } from './crawler-sets.js';
import { EXIT_SKIPPED, warcRunOf, type WarcInputOptions } from './warc-inputs.js';
import { named } from './warc-file-names.js';
import { Progress } from './progress.js';
import { indexWarcs, type WarcIndex } from '../bulk/sources/warc/warc-index.js';
import { readRobotsIndexes } from '../bulk/index/robots-index-reader.js';
import { OutputSink } from '../bulk/base/output-sink.js';
import { TsvParquetSink } from '../bulk/formats/tsv-parquet-sink.js';
import { auditColumnType } from '../bulk/audit/audit-parquet.js';
import { parseRowGroup } from './row-group.js';
import { captureSites, dirSites, type AuditSite } from '../bulk/audit/audit-sites.js';
import { auditBlock, type AuditedBlock } from '../bulk/audit/audit-block.js';
import { AuditPool, type AuditWorkerData } from '../bulk/threads/audit-pool.js';
import { shareCaptures } from '../bulk/threads/shared-captures.js';
import { SiteAuditor, STATUS_CONVENTIONS, type StatusConvention } from '../bulk/audit/site-audit.js';
import { addSite, emptySummary, type AuditSummary, type CategoryCounts } from '../bulk/audit/audit-summary.js';
import { auditHeader, auditLine, CATEGORY_LABELS, type AuditFormat, type CategoryLabels } from '../bulk/audit/audit-output.js';
import { CHANGES_HEADER, changesFormatOf, CrawlChanges } from '../bulk/audit/crawl-changes.js';
import { readRanks, STRATA, type RankList } from '../bulk/audit/site-ranks.js';
import { crawlsOf, type Crawl } from './audit-crawls.js';
import type { Operator } from '../data/operators.js';
import { parseOperators } from './operator-option.js';
import type { Profile } from '../index.js';
import { agentTokens } from '../engine/parse/agents.js';
import type { Shard } from '../bulk/hosts/shard.js';

/** The WARC sources' options are classify's (warc-inputs.ts). */
export interface AuditOptions extends WarcInputOptions {
  robotsDir?: string;
  robotsIndex?: string[];
  /** Several: a crawl per date. */
  asOf?: string | string[];
  /** LABEL=SOURCE, a crawl each. */
  crawl?: string[];
  ranks?: string;
  changes?: string;
  shard?: string;
  threads?: string;
  crawlers?: string[];
  operators?: string[];
  profile: string;
  format: string;
  out?: string;
  summary?: string;
  statusConvention: string;
  labels: string;
  /** --format parquet: rows per row group. */
  rowGroup?: string;
  maxOctets?: string;
  maxBytes?: string;
}

/** --crawlers when not given: the four crawlers of Common Crawl's published table, and the two largest search crawlers. */
export const DEFAULT_CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot'];
/** Sites between two writes of the output (one write per site cost more than the site). */
const BATCH_SITES = 256;

export async function auditCommand(options: AuditOptions): Promise<number> {
  const settings = readOptions(options);
  const quiet = options.quiet === true;
  const labels = settings.crawls.flatMap((c) => (c.label === undefined ? [] : [c.label]));
  const summary = emptySummary({ strata: settings.ranks !== undefined, crawls: labels.length > 0 ? labels : undefined });
  const out = new Output(options.out, settings, labels.length > 0, summary);
  let skipped = 0;
  try {
    for (const crawl of settings.crawls) {
      const opened = await sitesOf(crawl, options, settings);
      try {
        await auditCrawl(opened.sites, opened.source, crawl.label, settings, out, summary, quiet);
      } finally {
        opened.index?.dispose();
      }
      skipped += opened.skipped;
      if (out.closedByReader) break;
    }
    await out.finish();
  } catch (e) {
    const what = out.abandon();
    const code = userExitCode(e);
    if (code !== undefined) throw new CliError(`${(e as Error).message}; ${what}`, code);
    throw e;
  }
  if (options.summary !== undefined) writeSummary(options.summary, summary);
  if (!quiet) process.stderr.write(summaryText(summary, settings.crawlers));
  return skipped > 0 ? EXIT_SKIPPED : 0;
}

/** The sites of a crawl, and the index holding their captures (disposed after the crawl). */
async function sitesOf(crawl: Crawl, o: AuditOptions, settings: Settings): Promise<{ sites: AuditSite[]; source: SiteSource; index?: WarcIndex; skipped: number }> {
  const source = crawl.source;
  const dir = source.kind === 'dir' ? source.dir : source.kind === 'options' ? o.robotsDir : undefined;
  if (dir !== undefined) return { sites: dirSites(dir, settings.maxOctets, settings.shard), source: { dir }, skipped: 0 };
  const indexDirs = source.kind === 'index' ? source.dirs : source.kind === 'options' ? o.robotsIndex : undefined;
  if (indexDirs !== undefined) {
    const read = readRobotsIndexes(indexDirs, { shard: settings.shard, asOf: crawl.asOf, maxOctets: settings.maxOctets });
    // (Shard i of the index holds shard i's hosts, and the targets of their redirects: those are other shards' sites.)
    return { sites: captureSites(read.data, settings.shard), source: { captures: read.data }, index: read, skipped: 0 };
  }
  const warcs = source.kind === 'warc' ? { ...o, robotsWarc: [source.file], robotsWarcList: undefined } : o;
  const made = await indexOf(warcs, settings.maxOctets, crawl.asOf, crawl.label);
  return { sites: captureSites(made.index.data, settings.shard), source: { captures: made.index.data }, index: made.index, skipped: made.skipped };
}

/** Where the lines go: the per-site output (its header once), and the --changes file. */
class Output {
  private readonly sites: OutputSink | TsvParquetSink;
  private readonly changes: OutputSink | undefined;
  private siteText: string;
  private changeText: string;
  readonly tracker: CrawlChanges | undefined;

  constructor(path: string | undefined, settings: Settings, labelled: boolean, summary: AuditSummary) {
    // (--format parquet: the TSV lines made into Parquet rows, a row group at a time.)
    this.sites = settings.parquet ? new TsvParquetSink(path!, auditColumnType, settings.rowGroup) : new OutputSink(path);
    this.siteText = settings.format === 'tsv' ? auditHeader(settings.crawlers, settings.operators, { crawl: labelled, rank: settings.ranks !== undefined }) : '';
    if (settings.changes !== undefined) {
      try {
        this.changes = new OutputSink(settings.changes);
      } catch (e) {
        this.sites.abandon();
        throw e;
      }
    }
    const format = settings.changes === undefined ? 'tsv' : changesFormatOf(settings.changes);
    this.changeText = this.changes !== undefined && format === 'tsv' ? CHANGES_HEADER : '';
    this.tracker = labelled ? new CrawlChanges(settings.crawlers, summary, format, settings.labels) : undefined;
  }

  get closedByReader(): boolean {
    return this.sites.closedByReader;
  }

  add(line: string, changes: string): void {
    this.siteText += line;
    if (this.changes !== undefined) this.changeText += changes;
  }

  async flush(): Promise<void> {
    await this.sites.write(Buffer.from(this.siteText));
    this.siteText = '';
    if (this.changes !== undefined && this.changeText !== '') {
      await this.changes.write(Buffer.from(this.changeText));
      this.changeText = '';
    }
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.sites.finish();
    await this.changes?.finish();
  }

  abandon(): string {
    this.changes?.abandon();
    return this.sites.abandon();
  }
}

interface Settings {
  crawlers: string[];
  operators: Operator[] | undefined;
  profile: Profile;
  /** Parquet: the TSV lines, written as a Parquet file. */
  format: AuditFormat;
  parquet: boolean;
  rowGroup: number | undefined;
  convention: StatusConvention;
  labels: CategoryLabels;
  maxOctets: number;
  shard: Shard | undefined;
  crawls: Crawl[];
  ranks: RankList | undefined;
  /** --changes FILE. */
  changes: string | undefined;
  threads: number;
}

/** Largest --threads accepted (as classify's). */
const MAX_THREADS = 256;

function readOptions(o: AuditOptions): Settings {
  const sources = [o.robotsDir, o.robotsWarc ?? o.robotsWarcList, o.robotsIndex].filter((x) => x !== undefined).length;
  if (o.crawl !== undefined && sources > 0) throw new CliError('give the sources either as --crawl LABEL=SOURCE (repeatable) or as one of --robots-dir, --robots-warc / --robots-warc-list, --robots-index, not both');
  if (o.crawl === undefined && sources !== 1) {
    throw new CliError('give one of --robots-dir DIR (a robots.txt per site: DIR/<host>), --robots-warc FILE / --robots-warc-list LIST (robots.txt captures) or --robots-index DIR (an index of them), or --crawl LABEL=SOURCE for each of several crawls');
  }
  const asOf = o.asOf === undefined ? [] : Array.isArray(o.asOf) ? o.asOf : [o.asOf];
  if (asOf.length > 0 && o.robotsDir !== undefined) throw new CliError('--as-of picks among captures: give it with --robots-warc, --robots-warc-list or --robots-index');
  const crawls = crawlsOf(o.crawl, asOf, o.robotsDir !== undefined);
  if (o.changes !== undefined && crawls.length < 2) throw new CliError('--changes: the sites that moved between crawls need two crawls or more (--crawl LABEL=SOURCE, or several --as-of)');
  const listOnly = ([['--warc-base', o.warcBase], ['--warc-retries', o.warcRetries], ['--warc-timeout-ms', o.warcTimeoutMs], ['--warc-max-mb', o.warcMaxMb]] as const).find(([, v]) => v !== undefined);
  if (listOnly !== undefined && o.robotsWarcList === undefined) throw new CliError(`${listOnly[0]} is for the entries of --robots-warc-list, which is not given`);
  const threads = o.threads === undefined ? 1 : Number(o.threads);
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) throw new CliError(`--threads must be a whole number from 1 to ${MAX_THREADS}, got "${o.threads}"`);
  if (o.format !== 'tsv' && o.format !== 'jsonl' && o.format !== 'parquet') throw new CliError(`--format must be tsv, jsonl or parquet, got "${o.format}"`);
  if (o.format === 'parquet' && (o.out === undefined || o.out === '-')) throw new CliError('--format parquet writes a file, not lines to stdout: give --out FILE (e.g. --out sites.parquet)');
  if (o.rowGroup !== undefined && o.format !== 'parquet') throw new CliError('--row-group is for --format parquet');
  if (!(STATUS_CONVENTIONS as readonly string[]).includes(o.statusConvention)) {
    throw new CliError(`--status-convention must be rfc (RFC 9309: a 4xx allows all) or commoncrawl (a 403 disallows all, as Common Crawl counts it), got "${o.statusConvention}"`);
  }
  if (!(CATEGORY_LABELS as readonly string[]).includes(o.labels)) {
    throw new CliError(`--labels must be audit (all, part, none) or commoncrawl (disallow-all, allow-part, allow-all), got "${o.labels}"`);
  }
  const profile = parseProfile(o.profile);
  const names = o.crawlers === undefined ? DEFAULT_CRAWLERS : parseAgents(o.crawlers, '--crawlers');
  const { crawlers, notes } = expandCrawlers(names, profile);
  if (crawlers.length === 0) throw new CliError(`--crawlers ${names.join(',')}: no crawler left (the rfc profile refuses names that are not product tokens)`);
  for (const c of crawlers) {
    try {
      agentTokens(c, profile);
    } catch (e) {
      throw new CliError(`--crawlers: ${(e as Error).message}`);
    }
  }
  for (const note of notes) process.stderr.write(`robots audit: note: ${note}\n`);
  return {
    crawlers,
    operators: o.operators === undefined ? undefined : parseOperators(o.operators, '--operators'),
    profile,
    format: o.format === 'parquet' ? 'tsv' : o.format,
    parquet: o.format === 'parquet',
    rowGroup: parseRowGroup(o.rowGroup),
    convention: o.statusConvention as StatusConvention,
    labels: o.labels as CategoryLabels,
    maxOctets: parseMaxOctets(o),
    shard: o.shard === undefined ? undefined : parseShard(o.shard),
    crawls,
    ranks: o.ranks === undefined ? undefined : ranksOf(o.ranks),
    changes: o.changes,
    threads,
  };
}

/** --ranks FILE: read once; its lines that are not rank,domain said (not fatal). */
function ranksOf(path: string): RankList {
  let ranks: RankList;
  try {
    ranks = readRanks(path);
  } catch (e) {
    throw new CliError(`--ranks: ${(e as Error).message}`);
  }
  if (ranks.bad > 0) {
    const first = ranks.firstBad.map((b) => `line ${thousands(b.line)}: ${b.why}`).join('; ');
    process.stderr.write(`robots audit: warning: --ranks ${path}: ${thousands(ranks.bad)} line${ranks.bad === 1 ? '' : 's'} not rank,domain, skipped (${first}${ranks.bad > ranks.firstBad.length ? '; ...' : ''})\n`);
  }
  if (ranks.size === 0) process.stderr.write(`robots audit: warning: --ranks ${path}: no rank,domain line: every site is unranked\n`);
  return ranks;
}

/** --robots-warc, --robots-warc-list: the captures indexed first (progress and warnings on stderr). */
async function indexOf(o: AuditOptions, maxOctets: number, asOf: number | undefined, label: string | undefined): Promise<{ index: WarcIndex; skipped: number }> {
  const run = await warcRunOf('audit', o);
  let index: WarcIndex;
  try {
    index = await indexWarcs(run.files, { maxOctets, asOf, warn: run.warn, progress: run.progress, name: named(run.files) });
  } finally {
    run.stop();
  }
  if (o.quiet !== true) {
    const s = index.stats;
    process.stderr.write(`robots audit: ${label === undefined ? '' : `crawl ${label}: `}indexed ${thousands(s.responses)} responses of ${thousands(s.records)} records in ${thousands(s.files)} WARC file${s.files === 1 ? '' : 's'}${run.note()}\n`);
  }
  return { index, skipped: run.skipped() };
}

/** Blocks of sites in flight per thread (a thread finds its next block waiting). */
const IN_FLIGHT_PER_THREAD = 2;

/** Where a crawl's robots.txt files are read: a folder, or an index's captures (threads read them there too). */
type SiteSource = { dir: string } | { captures: WarcIndex['data'] };

/** Audits a crawl's sites into the output and the summary (and its crawl's, its stratum's, its changes'). */
async function auditCrawl(sites: AuditSite[], source: SiteSource, label: string | undefined, settings: Settings, out: Output, summary: AuditSummary, quiet: boolean): Promise<void> {
  const auditor = new SiteAuditor({ crawlers: settings.crawlers, profile: settings.profile, maxOctets: settings.maxOctets, operators: settings.operators, convention: settings.convention });
  const own = label === undefined ? undefined : summary.crawls![label];
  // (The last crawl's states are compared with none: not kept.)
  const keep = label !== undefined && label !== settings.crawls[settings.crawls.length - 1].label;
  out.tracker?.startCrawl(label!);
  // A block's lines as written where they were audited, unless a crawl or a rank is added to each here.
  const plain = label === undefined && settings.ranks === undefined;
  const progress = new Progress(process.stderr.isTTY === true && !quiet, sites.length, { label: 'audit', unit: 'sites' });
  const unreadable: string[] = [];
  // --threads N: blocks of sites audited by N threads, their replies taken in order (the output and summary are one thread's).
  const pool = settings.threads > 1 && sites.length > BATCH_SITES ? new AuditPool(settings.threads, workerData(settings, plain, 'dir' in source ? source : { captures: shareCaptures(source.captures) })) : null;
  const blocks: Promise<AuditedBlock>[] = [];
  let done = 0;
  const take = async (block: AuditedBlock) => {
    for (const record of block.records) {
      const rank = settings.ranks === undefined ? undefined : settings.ranks.rankOf(record.site);
      addSite(summary, record, rank);
      if (own !== undefined) addSite(own, record, rank);
      if (!plain) out.add(auditLine(record, settings.format, settings.labels, { crawl: label, rank }), out.tracker?.add(record, keep) ?? '');
    }
    // (Plain: no crawl label, so no changes tracked either.)
    if (plain) out.add(block.text, '');
    unreadable.push(...block.unreadable.slice(0, 5 - Math.min(unreadable.length, 5)));
    await out.flush();
    done += block.records.length;
    progress.update(done, done);
  };
  try {
    for (let i = 0; i < sites.length && !out.closedByReader; i += BATCH_SITES) {
      const block = sites.slice(i, i + BATCH_SITES);
      if (pool === null) {
        await take(auditBlock(auditor, block, (s) => s.robots(), plain ? settings.format : null, settings.labels));
        continue;
      }
      const audited = pool.audit(block.map((s) => ({ site: s.site, url: s.url, origin: s.origin })));
      audited.catch(() => {}); // (awaited in turn: a failure is thrown there, not left unhandled before)
      blocks.push(audited);
      if (blocks.length >= settings.threads * IN_FLIGHT_PER_THREAD) await take(await blocks.shift()!);
    }
    while (blocks.length > 0 && !out.closedByReader) await take(await blocks.shift()!);
  } finally {
    progress.stop();
    await pool?.close();
  }
  if (!quiet) for (const why of unreadable.slice(0, 5)) process.stderr.write(`robots audit: warning: ${why}: taken as unreachable (all disallowed)\n`);
}

/** What each thread starts with: the settings, and where the robots.txt files are read. */
function workerData(s: Settings, lines: boolean, source: AuditWorkerData['source']): AuditWorkerData {
  const settings = { crawlers: s.crawlers, profile: s.profile, maxOctets: s.maxOctets, convention: s.convention, operators: s.operators?.map((op) => op.id) };
  return { settings, format: lines ? s.format : null, labels: s.labels, source };
}

/** --summary FILE: the counts as JSON, written whole (a temporary name, then renamed). */
export function writeSummary(path: string, summary: AuditSummary): void {
  const temp = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(temp, JSON.stringify(summary, null, 1) + '\n');
    renameSync(temp, path);
  } catch (e) {
    throw new CliError(`cannot write the summary ${path}: ${reason(e)}`);
  }
}

/** The summary on stderr: sites by status, then per crawler its categories; per crawl, per stratum, the pairs of crawls. */
export function summaryText(s: AuditSummary, crawlers: readonly string[], prefix = 'robots audit: '): string {
  const n = thousands;
  let text = `${prefix}${n(s.sites)} site${s.sites === 1 ? '' : 's'}: ${n(s.status.ok)} ok, ${n(s.status.unavailable)} unavailable (all allowed), ` +
    `${n(s.status.unreachable)} unreachable (all disallowed), ${n(s.status.missing)} missing\n`;
  for (const c of crawlers) {
    const k = s.crawlers[c];
    if (k === undefined) continue;
    text += `${prefix}${c}: ${n(k.all)} all disallowed, ${n(k.part)} part, ${n(k.none)} none disallowed${k.unknown > 0 ? `, ${n(k.unknown)} unknown` : ''}; ` +
      `named by a group of its own on ${n(k.own)}, through * on ${n(k.star)}, no group on ${n(k.noGroup)}${k.inexact > 0 ? `; ${n(k.inexact)} inexact (a hostile file's walk met its bound)` : ''}\n`;
  }
  if (s.strata !== undefined) {
    for (const stratum of STRATA) {
      const t = s.strata[stratum];
      const what = stratum === 'unranked' ? 'unranked' : `ranks to ${stratum}`;
      text += `${prefix}${what}: ${n(t.sites)} site${t.sites === 1 ? '' : 's'}${crawlers.map((c) => categories(c, t.crawlers[c])).join('')}\n`;
    }
  }
  for (const [label, crawl] of Object.entries(s.crawls ?? {})) {
    text += `${prefix}crawl ${label}: ${n(crawl.sites)} site${crawl.sites === 1 ? '' : 's'}${crawlers.map((c) => categories(c, crawl.crawlers[c])).join('')}\n`;
  }
  for (const [pair, m] of Object.entries(s.changes ?? {})) {
    const moves = crawlers.map((c) => m.crawlers[c]).map((k, i) => (k === undefined ? '' : `; ${crawlers[i]}: ${n(k.startedBlocking)} started, ${n(k.stoppedBlocking)} stopped disallowing all`)).join('');
    text += `${prefix}${pair.replace('>', ' to ')}: ${n(m.moved)} of ${n(m.sites)} site${m.sites === 1 ? '' : 's'} in both moved${moves}; Content-Signal ${n(m.contentSignalAdded)} added, ${n(m.contentSignalRemoved)} removed\n`;
  }
  return text;
}

function categories(crawler: string, k: CategoryCounts | undefined): string {
  return k === undefined ? '' : `; ${crawler} ${thousands(k.all)} all, ${thousands(k.part)} part, ${thousands(k.none)} none`;
}
