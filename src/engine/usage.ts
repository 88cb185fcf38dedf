// What may be done with a URL's content, purpose by purpose (search, train-ai,
// ai-input): the crawler's Content-Usage rules (draft-ietf-aipref-attach-05,
// with draft-ietf-aipref-vocab-07) and Content-Signal lines (Cloudflare's
// Content Signals Policy), from the same groups as its verdicts, and a page's
// own Content-Usage and Content-Signal response headers. The rules as built:
//   - Content-Usage: of the crawler's rules whose path pattern matches the path
//     (matched and normalised as Allow/Disallow under the profile; no pattern is
//     every path, shorter than any), those of the longest pattern decide alone:
//     a purpose they do not name is unknown, not taken from a shorter rule.
//     Several rules of that length (the same pattern) combine.
//   - Content-Signal: every line of the crawler's groups counts.
//   - Per purpose, over everything that counts: any disallowed wins, then any
//     allowed, else unknown (vocab-07 5.1).
//   - A URL the crawler may not fetch has no preference from robots.txt
//     (attach-05: "no preferences are implied for resources that are
//     disallowed"): all unknown but for its headers; `allowed` says why.
import type { Group } from './parse/records.js';
import type { Profile } from './parse/profile.js';
import { combine, readContentSignal, readContentUsage, readUsageValue, type Preference, type Purpose, type UsageEntry, type UsageField } from './parse/usage-vocabulary.js';
import type { Pattern } from './parse/pattern.js';
import { comparedPath, patternMatches, patternOf } from './reference.js';

export type { Purpose, Preference, UsageField };

/** One key of a use preference that counted for the URL, and where it was read. */
export interface UsageSignal {
  field: UsageField;
  /** The key and its value as written (`train-ai=n`, `ai-train=no`, `use=reference`), or a whole
   * Content-Usage value that is not a Dictionary (`invalid`). */
  value: string;
  /** Its robots.txt line; 0 for a response header (`header`). */
  line: number;
  /** The Content-Usage rule's path pattern, as written (none: the rule is for every path). */
  path?: string;
  /** The purpose it speaks to and what it says (absent: it maps to no purpose). */
  purpose?: Purpose;
  preference?: 'allowed' | 'disallowed';
  /** A label of an earlier AIPREF draft (`ai`, `genai`, `tdm`, ...): reported, mapped to nothing. */
  legacy?: true;
  /** A Content-Usage value that is not an RFC 9651 Dictionary (a key with a capital, a trailing comma): it says nothing. */
  invalid?: true;
  /** Read from a response header of the page (UsageOptions.headers). */
  header?: true;
}

/** What the crawler may do with the URL's content. */
export interface Usage {
  /** May it fetch the URL (explain()'s verdict): preferences apply only to what may be fetched. */
  allowed: boolean;
  /** The verdict's deciding line (0: none). */
  line: number;
  /** Per purpose: 'allowed', 'disallowed' or 'unknown'. */
  purposes: Record<Purpose, Preference>;
  /** Every key that counted, in file order, then the headers'. */
  signals: UsageSignal[];
}

/** Response headers of the page: a Fetch `Headers`, or a plain object (Node's `IncomingHttpHeaders`). */
export type UsageHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface UsageOptions {
  /** The page's response headers: its Content-Usage (an RFC 9651 Dictionary) and Content-Signal combine with robots.txt's. */
  headers?: UsageHeaders;
}

/** A Content-Usage rule of the crawler's groups, read. */
interface UsageRule {
  line: number;
  path: string;
  /** null: no path pattern (every path, the shortest). */
  pattern: Pattern | null;
  entries: UsageEntry[];
}

/** The use-preference lines of the groups that apply to a crawler, read once. */
export interface CrawlerUsage {
  readonly profile: Profile;
  readonly rules: readonly UsageRule[];
  readonly signals: readonly { line: number; entries: UsageEntry[] }[];
}

/** The crawler's usage lines (of `groups`, applicableGroups'), read for usageOf(). */
export function crawlerUsage(groups: readonly Group[], profile: Profile): CrawlerUsage {
  const rules: UsageRule[] = [];
  const signals: { line: number; entries: UsageEntry[] }[] = [];
  // (Groups in file order: so are their lines.)
  for (const g of groups) {
    for (const u of g.usage) {
      const entries = readUsageValue(u.field, u.value);
      if (u.field === 'content-signal') signals.push({ line: u.line, entries });
      else rules.push({ line: u.line, path: u.path, pattern: u.path === '' ? null : patternOf(u.pathOctets, profile), entries });
    }
  }
  return { profile, rules, signals };
}

/** What the crawler may do with url's content, given its verdict (explain()'s) and its usage lines. */
export function usageOf(usage: CrawlerUsage, verdict: { allowed: boolean; line: number }, url: string, options?: UsageOptions): Usage {
  const purposes: Record<Purpose, Preference> = { search: 'unknown', 'train-ai': 'unknown', 'ai-input': 'unknown' };
  const signals: UsageSignal[] = [];
  const count = (field: UsageField, line: number, entries: readonly UsageEntry[], path?: string, header?: true) => {
    for (const e of entries) {
      const signal: UsageSignal = { field, value: e.value, line };
      if (path !== undefined && path !== '') signal.path = path;
      if (e.purpose !== undefined) {
        signal.purpose = e.purpose;
        signal.preference = e.preference;
        purposes[e.purpose] = combine(purposes[e.purpose], e.preference!);
      }
      if (e.legacy) signal.legacy = true;
      if (e.invalid) signal.invalid = true;
      if (header) signal.header = true;
      signals.push(signal);
    }
  };
  if (verdict.allowed && (usage.rules.length > 0 || usage.signals.length > 0)) {
    const deciding = decidingRules(usage, url);
    for (const r of deciding) count('content-usage', r.line, r.entries, r.path);
    for (const s of usage.signals) count('content-signal', s.line, s.entries);
    // In file order, as Usage.signals says: each list is, but the rules' keys were counted before the signals'.
    if (deciding.length > 0 && usage.signals.length > 0) signals.sort((a, b) => a.line - b.line);
  }
  const headers = options?.headers;
  if (headers !== undefined && headers !== null) {
    const contentUsage = headerValue(headers, 'content-usage');
    if (contentUsage !== undefined) count('content-usage', 0, readContentUsage(contentUsage), undefined, true);
    const contentSignal = headerValue(headers, 'content-signal');
    if (contentSignal !== undefined) count('content-signal', 0, readContentSignal(contentSignal), undefined, true);
  }
  return { allowed: verdict.allowed, line: verdict.line, purposes, signals };
}

/** The Content-Usage rules that decide for url: those of the longest matching pattern. */
function decidingRules(usage: CrawlerUsage, url: string): UsageRule[] {
  if (usage.rules.length === 0) return [];
  const path = comparedPath(url, usage.profile);
  let best = -1;
  let deciding: UsageRule[] = [];
  for (const r of usage.rules) {
    // No pattern: every path, as the shortest (a pattern starts with '/': 1 octet at least).
    const length = r.pattern === null ? 0 : patternMatches(r.pattern, path) ? r.pattern.priority : -1;
    if (length < 0 || length < best) continue;
    if (length > best) {
      best = length;
      deciding = [];
    }
    deciding.push(r);
  }
  return deciding;
}

/** A header's value: its field lines joined with ", " (RFC 9110 5.3), or undefined when absent. */
function headerValue(headers: UsageHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const v = (headers as { get(name: string): string | null }).get(name);
    return v === null ? undefined : v;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const values: string[] = [];
  for (const key of Object.keys(record)) {
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const v = record[key];
    if (typeof v === 'string') values.push(v);
    else if (Array.isArray(v)) values.push(...(v as readonly string[]));
  }
  return values.length === 0 ? undefined : values.join(', ');
}
