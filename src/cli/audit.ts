// `robots audit`: one line per site (TSV or JSON lines), per crawler its
// category from the rules (all / none / part: exact, bulk/audit/rule-category.ts),
// how it is reached, its purposes at `/`; per operator and purpose, the category of
// its crawler; and a summary of plain counts that adds up across shards.
// The sites come from classify's sources (no URL list).
import { writeFileSync, renameSync } from 'node:fs';
import { thousands } from './numbers.js';
import { CliError, reason, userExitCode } from './errors.js';
import { parseAsOf } from './as-of.js';
import { parseAgents, parseMaxOctets, parseProfile, parseShard } from './options.js';
import { expandCrawlers } from './crawler-sets.js';
import { EXIT_SKIPPED, warcRunOf, type WarcInputOptions } from './warc-inputs.js';
import { named } from './warc-file-names.js';
import { Progress } from './progress.js';
import { indexWarcs, type WarcIndex } from '../bulk/sources/warc/warc-index.js';
import { readRobotsIndexes } from '../bulk/sources/index/robots-index-reader.js';
import { OutputSink } from '../bulk/output-sink.js';
import { TsvParquetSink } from '../bulk/formats/tsv-parquet-sink.js';
import { auditColumnType } from '../bulk/audit/audit-parquet.js';
import { parseRowGroup } from './row-group.js';
import { captureSites, dirSites, type AuditSite } from '../bulk/audit/audit-sites.js';
import { SiteAuditor, STATUS_CONVENTIONS, type StatusConvention } from '../bulk/audit/site-audit.js';
import { addSite, emptySummary, type AuditSummary } from '../bulk/audit/audit-summary.js';
import { auditHeader, auditLine, CATEGORY_LABELS, type AuditFormat, type CategoryLabels } from '../bulk/audit/audit-output.js';
import { OPERATORS, operatorById, type Operator } from '../data/operators.js';
import { agentTokens } from '../engine/parse/agents.js';
import type { Profile } from '../engine/parse/profile.js';
import type { Shard } from '../bulk/classify/classification.js';

/** The WARC sources' options are classify's (warc-inputs.ts). */
export interface AuditOptions extends WarcInputOptions {
  robotsDir?: string;
  robotsIndex?: string[];
  asOf?: string;
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
  let index: { index: WarcIndex; skipped: number } | undefined;
  let sites: AuditSite[];
  if (options.robotsDir !== undefined) {
    sites = dirSites(options.robotsDir, settings.maxOctets, settings.shard);
  } else if (options.robotsIndex !== undefined) {
    const read = readRobotsIndexes(options.robotsIndex, { shard: settings.shard, asOf: settings.asOf, maxOctets: settings.maxOctets });
    index = { index: read, skipped: 0 };
    // (Shard i of the index holds shard i's hosts, and the targets of their redirects: those are other shards' sites.)
    sites = captureSites(read.data, settings.shard);
  } else {
    index = await indexOf(options, settings.maxOctets, settings.asOf);
    sites = captureSites(index.index.data, settings.shard);
  }
  let summary: AuditSummary;
  try {
    summary = await auditSites(sites, settings, options, quiet);
  } finally {
    index?.index.dispose();
  }
  if (options.summary !== undefined) writeSummary(options.summary, summary);
  if (!quiet) process.stderr.write(summaryText(summary, settings.crawlers));
  return index !== undefined && index.skipped > 0 ? EXIT_SKIPPED : 0;
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
  asOf: number | undefined;
}

function readOptions(o: AuditOptions): Settings {
  const sources = [o.robotsDir, o.robotsWarc ?? o.robotsWarcList, o.robotsIndex].filter((x) => x !== undefined).length;
  if (sources !== 1) {
    throw new CliError('give one of --robots-dir DIR (a robots.txt per site: DIR/<host>), --robots-warc FILE / --robots-warc-list LIST (robots.txt captures) or --robots-index DIR (an index of them)');
  }
  if (o.asOf !== undefined && o.robotsDir !== undefined) throw new CliError('--as-of picks among captures: give it with --robots-warc, --robots-warc-list or --robots-index');
  const listOnly = ([['--warc-base', o.warcBase], ['--warc-retries', o.warcRetries], ['--warc-timeout-ms', o.warcTimeoutMs], ['--warc-max-mb', o.warcMaxMb]] as const).find(([, v]) => v !== undefined);
  if (listOnly !== undefined && o.robotsWarcList === undefined) throw new CliError(`${listOnly[0]} is for the entries of --robots-warc-list, which is not given`);
  if (o.threads !== undefined && o.threads !== '1') {
    throw new CliError(`--threads: audit runs on one thread for now (got "${o.threads}"): run shards side by side (--shard i/N) to use more cores`);
  }
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
    operators: o.operators === undefined ? undefined : operatorsOf(o.operators),
    profile,
    format: o.format === 'parquet' ? 'tsv' : o.format,
    parquet: o.format === 'parquet',
    rowGroup: parseRowGroup(o.rowGroup),
    convention: o.statusConvention as StatusConvention,
    labels: o.labels as CategoryLabels,
    maxOctets: parseMaxOctets(o),
    shard: o.shard === undefined ? undefined : parseShard(o.shard),
    asOf: o.asOf === undefined ? undefined : parseAsOf(o.asOf),
  };
}

/** --operators all, or ids (comma-separated or repeated). */
function operatorsOf(values: string[]): Operator[] {
  const ids = values.flatMap((v) => v.split(',')).map((s) => s.trim()).filter((s) => s !== '');
  if (ids.length === 1 && ids[0] === 'all') return [...OPERATORS];
  return ids.map((id) => {
    const op = operatorById(id);
    if (op === undefined) throw new CliError(`--operators: unknown operator "${id}": the operators are all, or ${OPERATORS.map((o) => o.id).join(', ')}`);
    return op;
  });
}

/** --robots-warc, --robots-warc-list: the captures indexed first (progress and warnings on stderr). */
async function indexOf(o: AuditOptions, maxOctets: number, asOf: number | undefined): Promise<{ index: WarcIndex; skipped: number }> {
  const run = await warcRunOf('audit', o);
  let index: WarcIndex;
  try {
    index = await indexWarcs(run.files, { maxOctets, asOf, warn: run.warn, progress: run.progress, name: named(run.files) });
  } finally {
    run.stop();
  }
  if (o.quiet !== true) {
    const s = index.stats;
    process.stderr.write(`robots audit: indexed ${thousands(s.responses)} responses of ${thousands(s.records)} records in ${thousands(s.files)} WARC file${s.files === 1 ? '' : 's'}${run.note()}\n`);
  }
  return { index, skipped: run.skipped() };
}

async function auditSites(sites: AuditSite[], settings: Settings, o: AuditOptions, quiet: boolean): Promise<AuditSummary> {
  const auditor = new SiteAuditor({ crawlers: settings.crawlers, profile: settings.profile, maxOctets: settings.maxOctets, operators: settings.operators, convention: settings.convention });
  const summary = emptySummary();
  const sink = settings.parquet ? new TsvParquetSink(o.out!, auditColumnType, settings.rowGroup) : new OutputSink(o.out);
  const progress = new Progress(process.stderr.isTTY === true && !quiet, sites.length);
  const unreadable: string[] = [];
  try {
    let text = settings.format === 'tsv' ? auditHeader(settings.crawlers, settings.operators) : '';
    for (let i = 0; i < sites.length && !sink.closedByReader; i++) {
      const s = sites[i];
      const found = s.robots();
      if (found.kind === 'unreachable' && found.http === undefined) unreadable.push(found.why);
      const record = auditor.audit(s.site, s.url, found);
      addSite(summary, record);
      text += auditLine(record, settings.format, settings.labels);
      if ((i + 1) % BATCH_SITES === 0) {
        await sink.write(Buffer.from(text));
        text = '';
        progress.update(i + 1, i + 1);
      }
    }
    await sink.write(Buffer.from(text));
    await sink.finish();
  } catch (e) {
    progress.stop();
    const what = sink.abandon();
    const code = userExitCode(e);
    if (code !== undefined) throw new CliError(`${(e as Error).message}; ${what}`, code);
    throw e;
  }
  progress.stop();
  if (!quiet) for (const why of unreadable.slice(0, 5)) process.stderr.write(`robots audit: warning: ${why}: taken as unreachable (all disallowed)\n`);
  return summary;
}

/** --summary FILE: the counts as JSON, written whole (a temporary name, then renamed). */
function writeSummary(path: string, summary: AuditSummary): void {
  const temp = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(temp, JSON.stringify(summary, null, 1) + '\n');
    renameSync(temp, path);
  } catch (e) {
    throw new CliError(`cannot write the summary ${path}: ${reason(e)}`);
  }
}

/** The summary on stderr: sites by status, then per crawler its categories. */
function summaryText(s: AuditSummary, crawlers: readonly string[]): string {
  const n = thousands;
  let text = `robots audit: ${n(s.sites)} site${s.sites === 1 ? '' : 's'}: ${n(s.status.ok)} ok, ${n(s.status.unavailable)} unavailable (all allowed), ` +
    `${n(s.status.unreachable)} unreachable (all disallowed), ${n(s.status.missing)} missing\n`;
  for (const c of crawlers) {
    const k = s.crawlers[c];
    if (k === undefined) continue;
    text += `robots audit: ${c}: ${n(k.all)} all disallowed, ${n(k.part)} part, ${n(k.none)} none disallowed${k.unknown > 0 ? `, ${n(k.unknown)} unknown` : ''}; ` +
      `named by a group of its own on ${n(k.own)}, through * on ${n(k.star)}, no group on ${n(k.noGroup)}${k.inexact > 0 ? `; ${n(k.inexact)} inexact (a hostile file's walk met its bound)` : ''}\n`;
  }
  return text;
}
