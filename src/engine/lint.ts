// What a webmaster should fix in a robots.txt: the parser's diagnostics (lines
// ignored or bent), and the mistakes that parse fine but do not do what was
// meant. Used by `robots lint` and anything that shows a file to a person.
import type { Profile } from './pattern.js';
import { readRecords, diagnosticsOf, sizeLimitDiagnostic, type DiagnosticCode, type Records } from './records.js';
import { DEFAULT_MAX_BYTES } from './robots-txt.js';

export type LintCode =
  | DiagnosticCode
  | 'html'
  | 'path-without-slash'
  | 'allowed-and-disallowed'
  | 'relative-sitemap'
  | 'crawl-delay-ignored-by-google'
  | 'agent-with-version';

export interface Finding {
  line: number;
  severity: 'error' | 'warning';
  code: LintCode;
  message: string;
}

export interface LintReport {
  /** In line order. */
  findings: Finding[];
  errors: number;
  warnings: number;
  sitemaps: string[];
  /** Each valid crawl-delay, with the user-agent lines it belongs to (agents '' for the file's default). */
  crawlDelays: { line: number; agents: string; delay: number }[];
}

/** Codes of lines a crawler ignores that were probably meant to count: errors. The rest are warnings. */
const ERRORS: ReadonlySet<LintCode> = new Set<LintCode>([
  'invalid-line', 'rule-outside-group', 'line-too-long', 'invalid-utf8', 'invalid-crawl-delay', 'size-limit',
  'html', 'path-without-slash',
]);

/** The body as a person would read it; `maxBytes` as parse() takes it. */
export function lint(body: string | Uint8Array, options: { profile?: Profile; maxBytes?: number } = {}): LintReport {
  let bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const cut = bytes.length > maxBytes;
  if (cut) bytes = bytes.subarray(0, maxBytes);
  const records = readRecords(bytes);
  const found: Omit<Finding, 'severity'>[] = [];
  const html = looksLikeHtml(bytes, records);
  for (const d of diagnosticsOf(records)) {
    // An HTML page is one finding, not one per tag.
    if (!(html && (d.code === 'invalid-line' || d.code === 'unknown-key' || d.code === 'missing-colon'))) found.push(d);
  }
  if (html) {
    found.push({ line: 1, code: 'html', message: 'this is an HTML page, not a robots.txt (a server that answers /robots.txt with a page?): crawlers find no rules in it' });
  }
  if (cut) found.push(sizeLimitDiagnostic(records, maxBytes));
  mistakes(records, found);
  const findings = found
    .map((f) => ({ ...f, severity: ERRORS.has(f.code) ? ('error' as const) : ('warning' as const) }))
    .sort((a, b) => a.line - b.line);
  const errors = findings.filter((f) => f.severity === 'error').length;
  return { findings, errors, warnings: findings.length - errors, sitemaps: records.sitemaps, crawlDelays: crawlDelays(records) };
}

/** A page of markup: it opens with a tag, and most of its lines were not records. */
function looksLikeHtml(bytes: Uint8Array, records: Records): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 1024)).trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return true;
  if (!head.startsWith('<')) return false;
  const invalid = records.pending.filter((d) => d.code === 'invalid-line').length;
  return invalid * 2 > records.lines;
}

const text = (records: Records, start: number, end: number) => new TextDecoder().decode(records.body.subarray(start, end));

function mistakes(records: Records, found: Omit<Finding, 'severity'>[]): void {
  for (const g of records.groups) {
    for (const a of g.agents) {
      if (a.trailing && !a.global && a.lower !== '') {
        found.push({ line: a.line, code: 'agent-with-version', message: `only the product token "${a.lower}" of this user-agent is matched: write "User-agent: ${a.lower}"` });
      }
    }
    const seen = new Map<string, { kind: string; line: number }>();
    for (const r of g.rules) {
      const value = text(records, r.start, r.end);
      if (value !== '' && value[0] !== '/' && value[0] !== '*') {
        found.push({ line: r.line, code: 'path-without-slash', message: `"${value.slice(0, 60)}" never matches: a path starts with "/" (write "/${value.slice(0, 60)}")` });
      }
      const twin = seen.get(value);
      if (twin !== undefined && twin.kind !== r.kind) {
        found.push({ line: r.line, code: 'allowed-and-disallowed', message: `"${value.slice(0, 60)}" is both allowed and disallowed (line ${twin.line}) in this group: the allow wins` });
      }
      if (twin === undefined) seen.set(value, { kind: r.kind, line: r.line });
    }
  }
  records.sitemaps.forEach((s, i) => {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
      found.push({ line: records.sitemapLines[i], code: 'relative-sitemap', message: `sitemap "${s.slice(0, 80)}" is not an absolute URL: crawlers ignore it` });
    }
  });
  for (const run of records.delayRuns) {
    const google = run.agents.find((a) => a.lower === 'googlebot' || a.lower.startsWith('googlebot-'));
    if (run.delay !== undefined && google !== undefined) {
      found.push({ line: google.line, code: 'crawl-delay-ignored-by-google', message: `Googlebot ignores crawl-delay (${run.delay} s here); other crawlers of this group may follow it` });
    }
  }
}

function crawlDelays(records: Records): LintReport['crawlDelays'] {
  const out: LintReport['crawlDelays'] = [];
  if (records.defaultDelay !== undefined) out.push({ line: 0, agents: '', delay: records.defaultDelay });
  for (const run of records.delayRuns) {
    if (run.delay === undefined) continue;
    const names = run.agents.map((a) => (a.wildcard ? '*' : a.lower || '(no product token)'));
    out.push({ line: run.agents[0].line, agents: names.join(', '), delay: run.delay });
  }
  return out;
}
