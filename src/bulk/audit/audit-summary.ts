// The summary of an audit as plain counts, so that shards' summaries add up
// (mergeSummaries): sites by robots.txt status; per crawler, sites by category
// and by how the crawler is reached, and per purpose at `/`; per operator and
// purpose, sites by the category of its crawler; sites with each kind of line;
// with ranks, per stratum; across crawls, each crawl's own summary and what
// moved between consecutive crawls.
import { PURPOSES, type Purpose } from '../../index.js';
import type { SiteRecord } from './site-audit.js';
import type { Category } from './rule-category.js';
import { STRATA, stratumOf, type Stratum } from './site-ranks.js';

/** A category count; `unknown`: no robots.txt known (missing). */
export interface CategoryCounts {
  all: number;
  none: number;
  part: number;
  unknown: number;
}

export interface CrawlerCounts extends CategoryCounts {
  /** How the crawler was reached, on sites whose rules were read. */
  own: number;
  star: number;
  noGroup: number;
  /** Categories left inexact by the bound on the walk (hostile files). */
  inexact: number;
  /** Per purpose at `/`: sites where it is allowed, disallowed, unknown. */
  purposes: Record<Purpose, { allowed: number; disallowed: number; unknown: number }>;
  /** Sites where a Content-Usage path rule may change the purposes below `/`. */
  purposesVary: number;
}

export interface AuditSummary {
  /** The format of this object, for merging summaries of one version. */
  version: 1;
  sites: number;
  status: { ok: number; unavailable: number; unreachable: number; missing: number };
  crawlers: Record<string, CrawlerCounts>;
  /** operator id → purpose → category of its crawler for it (unknown: none known or it lists none) and answers at `/`. */
  operators: Record<string, Record<Purpose, CategoryCounts & { yes: number; no: number; answerUnknown: number }>>;
  withContentSignal: number;
  withLicense: number;
  withLlmPolicy: number;
  /** With --ranks: per stratum (disjoint: site-ranks.ts), sites and per crawler its categories. */
  strata?: Record<Stratum, StratumCounts>;
  /** Across crawls: each crawl's own summary, by label, in the order given (the counts above are their sum). */
  crawls?: Record<string, AuditSummary>;
  /** Across crawls: per pair of consecutive crawls (`A>B`), what moved. */
  changes?: Record<string, ChangeCounts>;
}

export interface StratumCounts {
  sites: number;
  crawlers: Record<string, CategoryCounts>;
  withContentSignal: number;
}

/** Sites in both crawls of a pair (with a known category), and their changes. */
export interface ChangeCounts {
  sites: number;
  /** Sites with any change below. */
  moved: number;
  /** Per crawler: became `all` (from part or none), left `all`, and each move as `before>after` (all six, in MOVES' order). */
  crawlers: Record<string, { startedBlocking: number; stoppedBlocking: number; moves: Record<string, number> }>;
  contentSignalAdded: number;
  contentSignalRemoved: number;
}

/** The shape of a summary: strata with ranks; crawls and the pairs between them with labels. */
export interface SummaryShape {
  strata?: boolean;
  crawls?: readonly string[];
}

export function emptySummary(shape: SummaryShape = {}): AuditSummary {
  const s: AuditSummary = { version: 1, sites: 0, status: { ok: 0, unavailable: 0, unreachable: 0, missing: 0 }, crawlers: {}, operators: {}, withContentSignal: 0, withLicense: 0, withLlmPolicy: 0 };
  if (shape.strata === true) s.strata = Object.fromEntries(STRATA.map((k) => [k, { sites: 0, crawlers: {}, withContentSignal: 0 }])) as Record<Stratum, StratumCounts>;
  if (shape.crawls !== undefined) {
    s.crawls = {};
    for (const label of shape.crawls) s.crawls[label] = emptySummary({ strata: shape.strata });
    s.changes = {};
    for (let i = 1; i < shape.crawls.length; i++) s.changes[pairKey(shape.crawls[i - 1], shape.crawls[i])] = { sites: 0, moved: 0, crawlers: {}, contentSignalAdded: 0, contentSignalRemoved: 0 };
  }
  return s;
}

/** A crawler's moves between two crawls, in a fixed order (so that a summary's text is the same however its sites were counted). */
export const MOVES = ['none>part', 'none>all', 'part>none', 'part>all', 'all>none', 'all>part'] as const;

/** The key of a pair of consecutive crawls in `changes`. */
export function pairKey(from: string, to: string): string {
  return `${from}>${to}`;
}

function emptyCrawler(): CrawlerCounts {
  const purposes = {} as CrawlerCounts['purposes'];
  for (const p of PURPOSES) purposes[p] = { allowed: 0, disallowed: 0, unknown: 0 };
  return { all: 0, none: 0, part: 0, unknown: 0, own: 0, star: 0, noGroup: 0, inexact: 0, purposes, purposesVary: 0 };
}

/** Counts the site in (and in its stratum, when the summary has strata: rank null for a site not listed). */
export function addSite(summary: AuditSummary, site: SiteRecord, rank: number | null = null): void {
  if (summary.strata !== undefined) addToStratum(summary.strata[stratumOf(rank)], site);
  summary.sites++;
  summary.status[site.status]++;
  for (const c of site.crawlers) {
    const n = (summary.crawlers[c.crawler] ??= emptyCrawler());
    n[c.category ?? 'unknown']++;
    if (c.named === 'own') n.own++;
    else if (c.named === 'star') n.star++;
    else if (c.named === 'none') n.noGroup++;
    if (!c.exact) n.inexact++;
    for (const p of PURPOSES) n.purposes[p][c.purposes[p]]++;
    if (c.purposesVary) n.purposesVary++;
  }
  for (const o of site.operators ?? []) {
    const byPurpose = (summary.operators[o.operator] ??= Object.fromEntries(PURPOSES.map((p) => [p, { all: 0, none: 0, part: 0, unknown: 0, yes: 0, no: 0, answerUnknown: 0 }])) as AuditSummary['operators'][string]);
    for (const p of PURPOSES) {
      const r = o.purposes[p];
      const n = byPurpose[p];
      n[r.category ?? 'unknown']++;
      if (r.answer === 'yes') n.yes++;
      else if (r.answer === 'no') n.no++;
      else n.answerUnknown++;
    }
  }
  if (site.contentSignals.length > 0) summary.withContentSignal++;
  if (site.licenses.length > 0) summary.withLicense++;
  if (site.llmPolicies.length > 0) summary.withLlmPolicy++;
}

function addToStratum(stratum: StratumCounts, site: SiteRecord): void {
  stratum.sites++;
  for (const c of site.crawlers) (stratum.crawlers[c.crawler] ??= { all: 0, none: 0, part: 0, unknown: 0 })[c.category ?? 'unknown']++;
  if (site.contentSignals.length > 0) stratum.withContentSignal++;
}

/** What a site was in a crawl, for the comparison with the next: per crawler its category, and its Content-Signal lines. */
export interface SiteState {
  categories: (Category | null)[];
  contentSignal: string;
}

export function stateOf(site: SiteRecord): SiteState {
  return { categories: site.crawlers.map((c) => c.category), contentSignal: site.contentSignals.join(' | ') };
}

/** One change of a site between two crawls, as the --changes file writes it. */
export interface SiteChange {
  change: 'category' | 'content-signal';
  /** The crawler (category), or '' (content-signal). */
  subject: string;
  before: string;
  after: string;
}

/**
 * Counts a site seen in two consecutive crawls into the pair's counts, and
 * returns its changes: per crawler a category that changed (both known), and a
 * Content-Signal added or removed.
 */
export function addChanges(counts: ChangeCounts, crawlers: readonly string[], before: SiteState, after: SiteState): SiteChange[] {
  const changes: SiteChange[] = [];
  let known = false;
  crawlers.forEach((crawler, i) => {
    const a = before.categories[i];
    const b = after.categories[i];
    if (a === null || a === undefined || b === null || b === undefined) return;
    known = true;
    const n = (counts.crawlers[crawler] ??= { startedBlocking: 0, stoppedBlocking: 0, moves: Object.fromEntries(MOVES.map((m) => [m, 0])) });
    if (a === b) return;
    n.moves[`${a}>${b}`]++;
    if (b === 'all') n.startedBlocking++;
    if (a === 'all') n.stoppedBlocking++;
    changes.push({ change: 'category', subject: crawler, before: a, after: b });
  });
  if (!known) return changes;
  counts.sites++;
  if (before.contentSignal === '' && after.contentSignal !== '') {
    counts.contentSignalAdded++;
    changes.push({ change: 'content-signal', subject: '', before: '', after: after.contentSignal });
  } else if (before.contentSignal !== '' && after.contentSignal === '') {
    counts.contentSignalRemoved++;
    changes.push({ change: 'content-signal', subject: '', before: before.contentSignal, after: '' });
  }
  if (changes.length > 0) counts.moved++;
  return changes;
}

/** The sum of summaries (of shards of one audit, or of any audits): every count added, key by key. */
export function mergeSummaries(summaries: readonly AuditSummary[]): AuditSummary {
  const out = emptySummary() as unknown as Record<string, unknown>;
  for (const s of summaries) addCounts(out, s as unknown as Record<string, unknown>);
  (out as unknown as AuditSummary).version = 1;
  return out as unknown as AuditSummary;
}

function addCounts(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) {
    if (k === 'version') {
      into[k] = v;
      continue;
    }
    if (typeof v === 'number') into[k] = ((into[k] as number | undefined) ?? 0) + v;
    else if (v !== null && typeof v === 'object') addCounts((into[k] ??= {}) as Record<string, unknown>, v as Record<string, unknown>);
  }
}
