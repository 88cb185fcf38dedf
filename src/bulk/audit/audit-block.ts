// A block of sites audited in a row (by the main thread, or by a worker thread:
// threads/audit-worker.ts): each site's robots.txt read, its record, and its
// output line; the records go back for the summary, which the main thread adds
// up in site order, as the lines are written.
import type { HostRobots } from '../sources/warc/warc-robots.js';
import type { SiteName } from './audit-sites.js';
import { auditLine, type AuditFormat, type CategoryLabels } from './audit-output.js';
import type { SiteAuditor, SiteRecord } from './site-audit.js';

export interface AuditedBlock {
  /** The block's output lines, in site order. */
  text: string;
  records: SiteRecord[];
  /** Why each robots.txt that could not be read was not (taken as unreachable). */
  unreadable: string[];
}

/** format null: no lines (the caller writes them, adding what only it knows: a crawl, a rank). */
export function auditBlock<S extends SiteName>(auditor: SiteAuditor, sites: readonly S[], robotsOf: (site: S) => HostRobots, format: AuditFormat | null, labels: CategoryLabels): AuditedBlock {
  let text = '';
  const records: SiteRecord[] = [];
  const unreadable: string[] = [];
  for (const s of sites) {
    const found = robotsOf(s);
    if (found.kind === 'unreachable' && found.http === undefined) unreadable.push(found.why);
    const record = auditor.audit(s.site, s.url, found);
    records.push(record);
    if (format !== null) text += auditLine(record, format, labels);
  }
  return { text, records, unreadable };
}
