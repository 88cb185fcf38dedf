// Across crawls: each site's state in the crawl before, and its changes in the
// next one (a crawler's category, a Content-Signal added or removed), counted
// into the summary's pair and written as rows of the --changes file (TSV with a
// header, or JSON lines). Sites are matched by name: a site seen in one crawl
// only, or whose categories are unknown in either (missing), has no changes.
import { addChanges, pairKey, stateOf, type AuditSummary, type SiteState } from './audit-summary.js';
import { labelOf, type CategoryLabels } from './audit-output.js';
import type { Category } from './rule-category.js';
import type { SiteRecord } from './site-audit.js';

export type ChangesFormat = 'tsv' | 'jsonl';

/** The --changes file's format, from its name: .jsonl or .ndjson JSON lines, else TSV. */
export function changesFormatOf(path: string): ChangesFormat {
  return /\.(jsonl|ndjson)$/i.test(path) ? 'jsonl' : 'tsv';
}

export const CHANGES_HEADER = 'from\tto\tsite\tchange\tcrawler\tbefore\tafter\n';

export class CrawlChanges {
  private before = new Map<string, SiteState>();
  private now = new Map<string, SiteState>();
  private from: string | undefined;
  private to: string | undefined;

  constructor(
    private readonly crawlers: readonly string[],
    private readonly summary: AuditSummary,
    private readonly format: ChangesFormat,
    private readonly labels: CategoryLabels,
  ) {}

  /** A new crawl begins: the one that ended becomes the crawl before. */
  startCrawl(label: string): void {
    if (this.to !== undefined) {
      this.before = this.now;
      this.now = new Map();
    }
    this.from = this.to;
    this.to = label;
  }

  /** Counts the site's changes since the crawl before; returns its rows ('' when none). */
  add(site: SiteRecord, keep: boolean): string {
    const state = stateOf(site);
    if (keep) this.now.set(site.site, state);
    const from = this.from;
    const to = this.to!;
    if (from === undefined) return '';
    const was = this.before.get(site.site);
    if (was === undefined) return '';
    const counts = this.summary.changes![pairKey(from, to)];
    let rows = '';
    for (const c of addChanges(counts, this.crawlers, was, state)) {
      const word = (v: string) => (c.change === 'category' && v !== '' ? labelOf(v as Category, this.labels) : v);
      if (this.format === 'jsonl') {
        rows += JSON.stringify({ from, to, site: site.site, change: c.change, crawler: c.subject === '' ? null : c.subject, before: word(c.before), after: word(c.after) }) + '\n';
      } else {
        rows += [from, to, site.site, c.change, c.subject, word(c.before), word(c.after)].map((v) => v.replace(/[\t\r\n]/g, ' ')).join('\t') + '\n';
      }
    }
    return rows;
  }
}
