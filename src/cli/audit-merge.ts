// `robots audit merge SUMMARY...`: the summaries that `robots audit --summary`
// wrote on several machines (shards of one audit, strata and crawls included)
// added into the summary of the whole: every value is a count.
import { readFileSync } from 'node:fs';
import { CliError, reason } from './errors.js';
import { summaryText, writeSummary } from './audit.js';
import { mergeSummaries, type AuditSummary } from '../bulk/audit/audit-summary.js';

export interface AuditMergeOptions {
  out?: string;
  quiet?: boolean;
}

export function auditMergeCommand(files: string[], o: AuditMergeOptions): number {
  if (files.length === 0) throw new CliError('robots audit merge: give the summaries to add up (files that robots audit --summary wrote)');
  const merged = mergeSummaries(files.map(readSummary));
  if (o.out === undefined) process.stdout.write(JSON.stringify(merged, null, 1) + '\n');
  else writeSummary(o.out, merged);
  if (o.quiet !== true) {
    process.stderr.write(`robots audit merge: ${files.length} summar${files.length === 1 ? 'y' : 'ies'} added up\n` + summaryText(merged, Object.keys(merged.crawlers), 'robots audit merge: '));
  }
  return 0;
}

function readSummary(file: string): AuditSummary {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read the summary ${file}: ${reason(e)}`);
  }
  let s: unknown;
  try {
    s = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file} is not JSON (${reason(e)}): give summaries that robots audit --summary wrote`);
  }
  const v = s as Partial<AuditSummary> | null;
  if (v === null || typeof v !== 'object' || v.version !== 1 || typeof v.sites !== 'number' || typeof v.crawlers !== 'object') {
    throw new CliError(`${file} is not a summary of robots audit (--summary FILE writes one, version 1)`);
  }
  return v as AuditSummary;
}
