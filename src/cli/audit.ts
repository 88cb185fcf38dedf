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
import { captureSites, dirSites, type AuditSite } from '../bulk/audit/audit-sites.js';
import { auditBlock, type AuditedBlock } from '../bulk/audit/audit-block.js';
import { AuditPool, type AuditWorkerData } from '../bulk/threads/audit-pool.js';
import { shareCaptures } from '../bulk/threads/shared-captures.js';
import { SiteAuditor, STATUS_CONVENTIONS, type StatusConvention } from '../bulk/audit/site-audit.js';
import { addSite, emptySummary, type AuditSummary } from '../bulk/audit/audit-summary.js';
import { auditHeader, CATEGORY_LABELS, type AuditFormat, type CategoryLabels } from '../bulk/audit/audit-output.js';
import type { Operator } from '../data/operators.js';
import { parseOperators } from './operator-option.js';
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
    summary = await auditSites(sites, settings, options, quiet, index === undefined ? { dir: options.robotsDir! } : { captures: index.index.data });
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
  format: AuditFormat;
  convention: StatusConvention;
  labels: CategoryLabels;
  maxOctets: number;
  shard: Shard | undefined;
  asOf: number | undefined;
  threads: number;
}

/** Largest --threads accepted (as classify's). */
const MAX_THREADS = 256;

function readOptions(o: AuditOptions): Settings {
  const sources = [o.robotsDir, o.robotsWarc ?? o.robotsWarcList, o.robotsIndex].filter((x) => x !== undefined).length;
  if (sources !== 1) {
    throw new CliError('give one of --robots-dir DIR (a robots.txt per site: DIR/<host>), --robots-warc FILE / --robots-warc-list LIST (robots.txt captures) or --robots-index DIR (an index of them)');
  }
  if (o.asOf !== undefined && o.robotsDir !== undefined) throw new CliError('--as-of picks among captures: give it with --robots-warc, --robots-warc-list or --robots-index');
  const listOnly = ([['--warc-base', o.warcBase], ['--warc-retries', o.warcRetries], ['--warc-timeout-ms', o.warcTimeoutMs], ['--warc-max-mb', o.warcMaxMb]] as const).find(([, v]) => v !== undefined);
  if (listOnly !== undefined && o.robotsWarcList === undefined) throw new CliError(`${listOnly[0]} is for the entries of --robots-warc-list, which is not given`);
  const threads = o.threads === undefined ? 1 : Number(o.threads);
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) throw new CliError(`--threads must be a whole number from 1 to ${MAX_THREADS}, got "${o.threads}"`);
  if (o.format !== 'tsv' && o.format !== 'jsonl') throw new CliError(`--format must be tsv or jsonl, got "${o.format}"`);
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
    format: o.format,
    convention: o.statusConvention as StatusConvention,
    labels: o.labels as CategoryLabels,
    maxOctets: parseMaxOctets(o),
    shard: o.shard === undefined ? undefined : parseShard(o.shard),
    asOf: o.asOf === undefined ? undefined : parseAsOf(o.asOf),
    threads,
  };
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

/** Blocks of sites in flight per thread (a thread finds its next block waiting). */
const IN_FLIGHT_PER_THREAD = 2;

async function auditSites(sites: AuditSite[], settings: Settings, o: AuditOptions, quiet: boolean, source: { dir: string } | { captures: WarcIndex['data'] }): Promise<AuditSummary> {
  const auditor = new SiteAuditor({ crawlers: settings.crawlers, profile: settings.profile, maxOctets: settings.maxOctets, operators: settings.operators, convention: settings.convention });
  const summary = emptySummary();
  const sink = new OutputSink(o.out);
  const progress = new Progress(process.stderr.isTTY === true && !quiet, sites.length, { label: 'audit', unit: 'sites' });
  const unreadable: string[] = [];
  // --threads N: blocks of sites audited by N threads, their replies taken in order (the output and summary are one thread's).
  const pool = settings.threads > 1 && sites.length > BATCH_SITES ? new AuditPool(settings.threads, workerData(settings, 'dir' in source ? source : { captures: shareCaptures(source.captures) })) : null;
  const blocks: Promise<AuditedBlock>[] = [];
  let done = 0;
  const take = async (block: AuditedBlock) => {
    for (const record of block.records) addSite(summary, record);
    unreadable.push(...block.unreadable.slice(0, 5 - Math.min(unreadable.length, 5)));
    await sink.write(Buffer.from(block.text));
    done += block.records.length;
    progress.update(done, done);
  };
  try {
    if (settings.format === 'tsv') await sink.write(Buffer.from(auditHeader(settings.crawlers, settings.operators)));
    for (let i = 0; i < sites.length && !sink.closedByReader; i += BATCH_SITES) {
      const block = sites.slice(i, i + BATCH_SITES);
      if (pool === null) {
        await take(auditBlock(auditor, block, (s) => s.robots(), settings.format, settings.labels));
        continue;
      }
      const audited = pool.audit(block.map((s) => ({ site: s.site, url: s.url, origin: s.origin })));
      audited.catch(() => {}); // (awaited in turn: a failure is thrown there, not left unhandled before)
      blocks.push(audited);
      if (blocks.length >= settings.threads * IN_FLIGHT_PER_THREAD) await take(await blocks.shift()!);
    }
    while (blocks.length > 0 && !sink.closedByReader) await take(await blocks.shift()!);
    await sink.finish();
  } catch (e) {
    progress.stop();
    await pool?.close();
    const what = sink.abandon();
    const code = userExitCode(e);
    if (code !== undefined) throw new CliError(`${(e as Error).message}; ${what}`, code);
    throw e;
  }
  await pool?.close();
  progress.stop();
  if (!quiet) for (const why of unreadable.slice(0, 5)) process.stderr.write(`robots audit: warning: ${why}: taken as unreachable (all disallowed)\n`);
  return summary;
}

/** What each thread starts with: the settings, and where the robots.txt files are read. */
function workerData(s: Settings, source: AuditWorkerData['source']): AuditWorkerData {
  const settings = { crawlers: s.crawlers, profile: s.profile, maxOctets: s.maxOctets, convention: s.convention, operators: s.operators?.map((op) => op.id) };
  return { settings, format: s.format, labels: s.labels, source };
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
