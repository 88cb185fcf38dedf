// What a webmaster should fix in a robots.txt: the parser's diagnostics (lines
// ignored or bent), and the mistakes that parse fine but do not do what was
// meant (use preferences: lint-usage.ts). Used by `robots lint` and anything
// that shows a file to a person.
import { isProductToken } from './parse/agents.js';
import { KEY_USER_AGENT, lex, type KeyKind, type LineHandler } from './parse/lexer.js';
import { DEFAULT_PROFILE, isProfile, type Profile } from './parse/profile.js';
import { readRecords, diagnosticsOf, sizeLimitDiagnostic, type DiagnosticCode, type Records } from './parse/records.js';
import { USAGE_ERRORS, usageFindings, type UsageLintCode } from './usage/lint-usage.js';
import { controlTokenFindings, type ControlTokenLintCode } from './usage/lint-control-tokens.js';
import { DEFAULT_MAX_OCTETS } from './robots-txt.js';
import { renamedOption } from './renamed-option.js';
import { urlOrigin } from './robots-url.js';

export type LintCode =
  | DiagnosticCode
  | 'html'
  | 'binary'
  | 'path-without-slash'
  | 'allowed-and-disallowed'
  | 'relative-sitemap'
  | 'crawl-delay-ignored-by-google'
  | 'agent-with-version'
  | 'agent-not-product-token'
  | 'merged-global-groups'
  | UsageLintCode
  | ControlTokenLintCode;

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
  'html', 'binary', 'path-without-slash', ...USAGE_ERRORS,
]);

export interface LintOptions {
  profile?: Profile;
  /** Octets of the body read, as parse() takes it (default 512,000). */
  maxOctets?: number;
  /** @deprecated Use maxOctets (octets of the body, not memory). Kept until 0.2; given both, they must agree. */
  maxBytes?: number;
  /** The site whose robots.txt this is (a host, or host:port), when known: a rule
   * written as a URL of another host is told apart from one of this site's. */
  host?: string;
}

/** The body as a person would read it; `maxOctets` as parse() takes it. */
export function lint(body: string | Uint8Array, options: LintOptions = {}): LintReport {
  let bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const maxOctets = renamedOption<number>(options, 'maxOctets', 'maxBytes').value ?? DEFAULT_MAX_OCTETS;
  const cut = bytes.length > maxOctets;
  if (cut) bytes = bytes.subarray(0, maxOctets);
  const profile = options.profile ?? DEFAULT_PROFILE;
  if (!isProfile(profile)) throw new TypeError(`profile must be 'rfc' or 'google', got ${JSON.stringify(profile)}`);
  const records = readRecords(bytes, profile); // (its groups as the profile reads them)
  const found: Omit<Finding, 'severity'>[] = [];
  const kind = notRobotsTxt(bytes, records);
  if (kind === 'binary') {
    // Random, compressed or UTF-16 octets: one finding, not one per "line" of them.
    found.push({ line: 1, code: 'binary', message: NOT_ROBOTS_TXT.binary });
  } else {
    for (const d of diagnosticsOf(records)) {
      // An HTML page is one finding, not one per tag.
      if (!(kind === 'html' && (d.code === 'invalid-line' || d.code === 'unknown-key' || d.code === 'missing-colon'))) found.push(d);
    }
    if (kind === 'html') found.push({ line: 1, code: 'html', message: NOT_ROBOTS_TXT.html });
    const values = agentValues(records.body);
    agentMistakes(records, values, found);
    mistakes(records, found, options.host === undefined ? undefined : hostOf(options.host));
    found.push(...usageFindings(records));
    found.push(...controlTokenFindings(records, values));
  }
  if (cut) found.push(sizeLimitDiagnostic(records, maxOctets));
  const findings = found
    .map((f) => ({ ...f, severity: ERRORS.has(f.code) ? ('error' as const) : ('warning' as const) }))
    .sort((a, b) => a.line - b.line);
  const errors = findings.filter((f) => f.severity === 'error').length;
  return { findings, errors, warnings: findings.length - errors, sitemaps: records.sitemaps, crawlDelays: crawlDelays(records) };
}

/** What a body that is not a robots.txt is, in words (lint's finding, and the CLI's warnings). */
export const NOT_ROBOTS_TXT = {
  html: 'this is an HTML page, not a robots.txt (a server that answers /robots.txt with a page?): crawlers find no rules in it',
  binary: 'this is binary data, not a robots.txt (compressed, an image, UTF-16, or another file?): crawlers find no rules in it',
} as const;

/** Octets looked at to tell binary data from text. */
const BINARY_SAMPLE = 8192;

/**
 * 'binary' when more than 1 in 32 of the first 8 KiB are NUL or other C0
 * control octets than tab, LF, VT, FF and CR, a run of one such octet counted
 * once: text in UTF-8 or any 8-bit encoding has next to none (its invalid
 * UTF-8 is not counted: a Latin-1 or cp1251 robots.txt is text; nor is a
 * robots.txt with a hole of NULs in it, as one of the corpus has), random or
 * compressed octets and images have 1 in 9, UTF-16 text 1 in 2; 'html' for a
 * page of markup; else undefined.
 */
export function notRobotsTxt(bytes: Uint8Array, records?: Records): 'binary' | 'html' | undefined {
  const n = Math.min(bytes.length, BINARY_SAMPLE);
  let controls = 0;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c < 0x20 && (c < 0x09 || c > 0x0d) && (i === 0 || bytes[i - 1] !== c)) controls++;
  }
  if (controls * 32 > n) return 'binary';
  return looksLikeHtml(bytes, records) ? 'html' : undefined;
}

/** A page of markup: it opens with a tag, and most of its lines were not records (read when needed). */
function looksLikeHtml(bytes: Uint8Array, records: Records | undefined): boolean {
  const head = new TextDecoder().decode(bytes.subarray(0, 1024)).trimStart().toLowerCase();
  if (head.startsWith('<!doctype html') || head.startsWith('<html')) return true;
  if (!head.startsWith('<')) return false;
  const r = records ?? readRecords(bytes, DEFAULT_PROFILE); // (its lines count here, not its groups)
  const invalid = r.pending.filter((d) => d.code === 'invalid-line').length;
  return invalid * 2 > r.lines;
}

/** A host as compared: as urlOrigin() names it (the package's one reading of a host), else lower
 * case without a port or a trailing dot. */
function hostOf(authority: string): string {
  const origin = urlOrigin(`http://${authority}/`);
  return typeof origin === 'string' ? authority.toLowerCase().replace(/:\d*$/, '').replace(/\.$/, '') : origin.host;
}

/** A value written as a URL ("https://example.com/a/*"): its host and its path as written ("/a/*"). */
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)(.*)$/is;

function pathWithoutSlash(value: string, siteHost: string | undefined): string {
  const shown = value.slice(0, 60);
  const url = ABSOLUTE.exec(value);
  if (url === null) return `"${shown}" never matches: a path starts with "/" (write "/${shown}")`;
  const rest = url[2];
  const path = (rest.startsWith('/') ? rest : `/${rest}`).slice(0, 60);
  const host = hostOf(url[1].replace(/^.*@/, ''));
  if (siteHost !== undefined && host !== siteHost) {
    return `"${shown}" never matches: a rule is a path of this site, and ${host} is another (for a path of this site, write "${path}")`;
  }
  return `"${shown}" never matches: a rule is a path, not a URL (write "${path}")`;
}

const text = (records: Records, start: number, end: number) => new TextDecoder().decode(records.body.subarray(start, end));

function mistakes(records: Records, found: Omit<Finding, 'severity'>[], siteHost: string | undefined): void {
  for (const g of records.groups) {
    const seen = new Map<string, { kind: string; line: number }>();
    for (const r of g.rules) {
      const value = text(records, r.start, r.end);
      if (value !== '' && value[0] !== '/' && value[0] !== '*') {
        found.push({ line: r.line, code: 'path-without-slash', message: pathWithoutSlash(value, siteHost) });
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

/** What goes on with the word a product token was cut from: a digit ("AI2Bot"), a
 * non-ASCII letter, or a dot and more ("bigsur.ai"). Anything else ("/2.1", " 1.0",
 * " (+http://...)", "*", "!") follows a whole word: a version, a comment, more words. */
const INSIDE_A_WORD = /^(?:[0-9]|[^\x00-\x7f]|\.[A-Za-z0-9])/;

/**
 * User-agent lines that do not name the crawler they seem to: a name that is
 * not a product token ([A-Za-z_-]+, RFC 9309 2.2.1) is read as its leading
 * token, by this parser in both profiles as by Google's. After a version or a
 * comment that is the crawler's own token (agent-with-version); cut inside a
 * word ("AI2Bot" is "AI") it names another crawler, and with no token at all
 * ("360Spider", "*bot") none (agent-not-product-token). And a second `*` group,
 * which merges with the first (merged-global-groups).
 */
function agentMistakes(records: Records, values: ReadonlyMap<number, string>, found: Omit<Finding, 'severity'>[]): void {
  for (const g of records.groups) {
    for (const a of g.agents) {
      if (a.global) continue;
      const value = values.get(a.line) ?? '';
      if (value === '' || isProductToken(value as unknown)) continue;
      const read = a.written ?? ''; // (the product token read, as written)
      if (read !== '' && !INSIDE_A_WORD.test(value.slice(read.length))) {
        found.push({ line: a.line, code: 'agent-with-version', message: `only the product token "${read}" of this user-agent is matched: write "User-agent: ${read}"` });
      } else if (value.startsWith('*')) {
        found.push({ line: a.line, code: 'agent-not-product-token', message: `"${value.slice(0, 60)}" names no crawler: a user-agent line has no wildcards ("*" alone is every crawler no group names)` });
      } else if (read === '') {
        found.push({ line: a.line, code: 'agent-not-product-token', message: `"${value.slice(0, 60)}" is not a product token (letters, '-' and '_' only) and starts with none: crawlers find no name in this line, so the group applies to none of them` });
      } else {
        found.push({
          line: a.line,
          code: 'agent-not-product-token',
          message: `"${value.slice(0, 60)}" is not a product token (letters, '-' and '_' only): Google's parser (and this one) read the line as "User-agent: ${read}", which names a crawler called ${read}, not ${value.slice(0, 60)}; only a crawler that compares its whole name finds itself here`,
        });
      }
    }
  }
  let first = 0;
  for (const g of records.groups) {
    const star = g.agents.find((a) => a.global);
    if (star === undefined) continue;
    if (first === 0) first = star.line;
    else found.push({ line: star.line, code: 'merged-global-groups', message: `a second "User-agent: *" group (the first is at line ${first}): crawlers merge them, so the rules and use preferences of both apply together to every crawler no group names` });
  }
}

/** Each user-agent line's value as written, by line number (records keep only its product token). */
function agentValues(body: Uint8Array): Map<number, string> {
  const values = new Map<number, string>();
  const decoder = new TextDecoder();
  const handler: LineHandler = {
    record(line: number, kind: KeyKind, _ks: number, _ke: number, start: number, end: number) {
      if (kind === KEY_USER_AGENT) values.set(line, decoder.decode(body.subarray(start, end)));
    },
    invalid() {},
    truncated() {},
  };
  lex(body, handler);
  return values;
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
