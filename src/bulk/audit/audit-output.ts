// A site's record as one output line: TSV (a header, then a row per site:
// per crawler its category, how it is reached and its purposes at `/`; per
// operator and purpose the category of its crawler; the site's lines) or a
// JSON object per line (the record as it is).
import { PURPOSES } from '../../index.js';
import type { Operator } from '../../data/operators.js';
import type { SiteRecord } from './site-audit.js';
import type { Category } from './rule-category.js';

export type AuditFormat = 'tsv' | 'jsonl';

/** The words categories are written with: ours, or Common Crawl's (robotstxt-experiments: disallow-all, allow-part, allow-all). */
export type CategoryLabels = 'audit' | 'commoncrawl';
export const CATEGORY_LABELS: readonly CategoryLabels[] = ['audit', 'commoncrawl'];
const COMMONCRAWL: Record<Category, string> = { all: 'disallow-all', part: 'allow-part', none: 'allow-all' };

/** A category as the labels write it. */
export function labelOf(category: Category, labels: CategoryLabels): string {
  return labels === 'commoncrawl' ? COMMONCRAWL[category] : category;
}

/** What a line says beside the record: its crawl's label (--crawl, several --as-of) and its rank (--ranks: null, not listed); undefined: no such column. */
export interface SiteContext {
  crawl?: string;
  rank?: number | null;
}

/** The TSV header line (a `crawl` column first, a `rank` column after `site`, when the lines have them). */
export function auditHeader(crawlers: readonly string[], operators: readonly Operator[] | undefined, columnsOf: { crawl?: boolean; rank?: boolean } = {}): string {
  const columns = ['site', 'status', 'http'];
  if (columnsOf.rank === true) columns.splice(1, 0, 'rank');
  if (columnsOf.crawl === true) columns.unshift('crawl');
  for (const c of crawlers) columns.push(c, `${c}:named`, ...PURPOSES.map((p) => `${c}:${p}`), `${c}:purposes-vary`);
  for (const o of operators ?? []) for (const p of PURPOSES) columns.push(`${o.id}:${p}`);
  columns.push('content-signal', 'license', 'llm-policy');
  return columns.join('\t') + '\n';
}

/** A value in a TSV cell: tabs and line ends would break the row. */
function cell(s: string): string {
  return s.replace(/[\t\r\n]/g, ' ');
}

export function auditLine(r: SiteRecord, format: AuditFormat, labels: CategoryLabels = 'audit', context: SiteContext = {}): string {
  const label = (c: Category | null) => (c === null ? null : labelOf(c, labels));
  if (format === 'jsonl') {
    const crawlers = labels === 'audit' ? r.crawlers : r.crawlers.map((c) => ({ ...c, category: label(c.category) }));
    if (context.crawl === undefined && context.rank === undefined) return JSON.stringify(labels === 'audit' ? r : { ...r, crawlers }) + '\n';
    const site = { ...(context.crawl === undefined ? {} : { crawl: context.crawl }), site: r.site, ...(context.rank === undefined ? {} : { rank: context.rank }) };
    return JSON.stringify({ ...site, ...r, crawlers }) + '\n';
  }
  const cells = [cell(r.site), r.status, r.http === undefined ? '' : String(r.http)];
  if (context.rank !== undefined) cells.splice(1, 0, context.rank === null ? '' : String(context.rank));
  if (context.crawl !== undefined) cells.unshift(cell(context.crawl));
  for (const c of r.crawlers) {
    const written = label(c.category) ?? '';
    cells.push(c.exact ? written : `${written}?`, c.named ?? '', ...PURPOSES.map((p) => c.purposes[p]), c.purposesVary ? 'yes' : 'no');
  }
  for (const o of r.operators ?? []) for (const p of PURPOSES) cells.push(label(o.purposes[p].category) ?? '');
  cells.push(cell(r.contentSignals.join(' | ')), cell(r.licenses.join(' | ')), cell(r.llmPolicies.join(' | ')));
  return cells.join('\t') + '\n';
}
