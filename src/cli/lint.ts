// `robots lint FILE`: the diagnostics, one per line with its line number, then
// the sitemaps and crawl-delays found. Exit 1 when there are errors.
import { parse, type DiagnosticCode } from '../index.js';
import { parseMaxBytes, parseProfile } from './options.js';
import { readRobotsFile } from './robots-file.js';
import { readRecords } from '../records.js';

/** Lines a crawler ignores that were probably meant to count; the rest are bent but understood. */
const ERRORS: ReadonlySet<DiagnosticCode> = new Set<DiagnosticCode>([
  'invalid-line', 'rule-outside-group', 'line-too-long', 'invalid-utf8', 'invalid-crawl-delay', 'size-limit',
]);

export interface LintOptions {
  profile: string;
  maxBytes: string;
}

export function lintCommand(file: string, options: LintOptions): number {
  const body = readRobotsFile(file);
  const profile = parseProfile(options.profile);
  const maxBytes = parseMaxBytes(options.maxBytes);
  const robots = parse(body, { profile, maxBytes });
  const out: string[] = [];
  let errors = 0;
  for (const d of robots.diagnostics) {
    const severity = ERRORS.has(d.code) ? 'error' : 'warning';
    if (severity === 'error') errors++;
    out.push(`${file}:${d.line}: ${severity}: ${d.message} [${d.code}]`);
  }
  const warnings = robots.diagnostics.length - errors;
  for (const s of robots.sitemaps) out.push(`sitemap: ${s}`);
  for (const { agents, delay } of crawlDelays(body.subarray(0, Math.min(body.length, maxBytes)))) out.push(`crawl-delay: ${delay} s for ${agents}`);
  out.push(`${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`);
  process.stdout.write(out.join('\n') + '\n');
  return errors > 0 ? 1 : 0;
}

/** Each crawl-delay that applies to someone, with the user-agent lines it belongs to. */
function crawlDelays(body: Uint8Array): { agents: string; delay: number }[] {
  const records = readRecords(body);
  const found: { agents: string; delay: number }[] = [];
  if (records.defaultDelay !== undefined) found.push({ agents: 'every crawler without one of its own (before any user-agent line)', delay: records.defaultDelay });
  for (const run of records.delayRuns) {
    if (run.delay === undefined) continue;
    const names = run.agents.map((a) => (a.wildcard ? '*' : a.lower || '(no product token)'));
    found.push({ agents: `user-agent ${names.join(', ')} (line ${run.agents.map((a) => a.line).join(', ')})`, delay: run.delay });
  }
  return found;
}
