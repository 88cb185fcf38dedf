// The summary of an audit as plain counts, so that shards' summaries add up
// (mergeSummaries): sites by robots.txt status; per crawler, sites by category
// and by how the crawler is reached, and per purpose at `/`; per operator and
// purpose, sites by the category of its crawler; sites with each kind of line.
import { PURPOSES, type Purpose } from '../../engine/parse/usage-vocabulary.js';
import type { SiteRecord } from './site-audit.js';

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
}

export function emptySummary(): AuditSummary {
  return { version: 1, sites: 0, status: { ok: 0, unavailable: 0, unreachable: 0, missing: 0 }, crawlers: {}, operators: {}, withContentSignal: 0, withLicense: 0, withLlmPolicy: 0 };
}

function emptyCrawler(): CrawlerCounts {
  const purposes = {} as CrawlerCounts['purposes'];
  for (const p of PURPOSES) purposes[p] = { allowed: 0, disallowed: 0, unknown: 0 };
  return { all: 0, none: 0, part: 0, unknown: 0, own: 0, star: 0, noGroup: 0, inexact: 0, purposes, purposesVary: 0 };
}

/** Counts the site in. */
export function addSite(summary: AuditSummary, site: SiteRecord): void {
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

/** The sum of summaries (of shards of one audit, or of any audits): every count added, key by key. */
export function mergeSummaries(summaries: readonly AuditSummary[]): AuditSummary {
  const out = emptySummary() as unknown as Record<string, unknown>;
  for (const s of summaries) addCounts(out, s as unknown as Record<string, unknown>);
  (out as unknown as AuditSummary).version = 1;
  return out as unknown as AuditSummary;
}

function addCounts(into: Record<string, unknown>, from: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(from)) {
    if (k === 'version') continue;
    if (typeof v === 'number') into[k] = ((into[k] as number | undefined) ?? 0) + v;
    else if (v !== null && typeof v === 'object') addCounts((into[k] ??= {}) as Record<string, unknown>, v as Record<string, unknown>);
  }
}
