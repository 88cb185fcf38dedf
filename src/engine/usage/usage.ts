// What may be done with a URL's content, purpose by purpose (search, train-ai,
// ai-use): the crawler's Content-Usage rules (draft-ietf-aipref-attach-05,
// with draft-ietf-aipref-vocab-08) and Content-Signal lines (Cloudflare's
// Content Signals Policy), from the same groups as its verdicts, and a page's
// own Content-Usage and Content-Signal response headers. The rules as built:
//   - Content-Usage: of the crawler's rules whose path pattern matches the path
//     (matched and normalised as Allow/Disallow under the profile, by the
//     engine's compiled matcher: usage-paths.ts; no pattern is every path,
//     shorter than any), those of the longest pattern decide alone: a purpose
//     they do not name is unknown, not taken from a shorter rule. Rules of the
//     same pattern (as the profile normalises it: under rfc `/%7Ea` is `/~a`)
//     combine; of different patterns of that length (`/a*` and `/*b`, both 3),
//     the first in file order decides (attach-05 says nothing of them; a matcher
//     reports one best rule, as for Allow/Disallow).
//   - Content-Signal: every line of the crawler's groups counts.
//   - Per purpose, over everything that counts: any disallowed wins, then any
//     allowed, else unknown (vocab-08 5.1).
//   - A URL the crawler may not fetch has no preference from robots.txt
//     (attach-05: "no preferences are implied for resources that are
//     disallowed"): all unknown but for its headers; `allowed` says why.
//   - Control tokens (control-tokens.ts): for a crawler an operator lists,
//     the verdicts of the operator's control tokens state the purposes they
//     govern that it fetches for; they count as any other statement, and, as
//     robots.txt's other lines, only for a URL the crawler may fetch.
//   - Headers: a Fetch `Headers` or a record of values; a value that is not a
//     string (or, in an array, a member that is not) is ignored, and `headers`
//     that is no object is a TypeError. A field's value (its lines joined) over
//     MAX_HEADER_LENGTH characters is refused: it says nothing (one invalid
//     signal, its value cut), and is not parsed.
import type { Group } from '../parse/records.js';
import type { Profile } from '../parse/profile.js';
import { combine, purposesOf, readContentSignal, readContentUsage, readUsageValue, type Preference, type Purpose, type Purposes, type UsageEntry, type UsageField } from './vocabulary.js';
import { patternOf, type Pattern } from '../parse/pattern.js';
import { shownText } from '../../text/shown-text.js';
import { UsagePaths } from './usage-paths.js';
import type { ControlStatement } from './control-tokens.js';
import type { Operator } from '../../data/operators.js';

export type { Purpose, Purposes, Preference, UsageField };

/** One key of a use preference that counted for the URL, and where it was read. */
export interface UsageSignal {
  /** The line's field, or `control-token`: a control token's verdict (`token`) states the purpose. */
  field: UsageField | 'control-token';
  /** The key and its value as written (`train-ai=n`, `ai-train=no`, `use=reference`), or a whole
   * Content-Usage value that is not a Dictionary (`invalid`); a control token's: its token. */
  value: string;
  /** A control token's signal: the token whose verdict for the URL states the purpose (`Google-Extended`). */
  token?: string;
  /** Its robots.txt line (a control token's: its verdict's deciding line, 0 when none); 0 for a response header (`header`). */
  line: number;
  /** The Content-Usage rule's path pattern, as written (none: the rule is for every path). */
  path?: string;
  /** The purpose it speaks to and what it says (absent: it maps to no purpose). */
  purpose?: Purpose;
  preference?: 'allowed' | 'disallowed';
  /** A label of an earlier AIPREF draft (`ai`, `genai`, `tdm`, ...): reported, mapped to nothing. */
  legacy?: true;
  /** A Content-Usage value that is not an RFC 9651 Dictionary (a key with a capital, a trailing comma), or a
   * header's value over MAX_HEADER_LENGTH (its value cut): it says nothing. */
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
  /** Per purpose: 'allowed', 'disallowed' or 'unknown' (and `ai-input`, ai-use's deprecated name, not enumerable). */
  purposes: Purposes;
  /** Every key that counted, in file order, then the headers'. */
  signals: UsageSignal[];
}

/** Response headers of the page: a Fetch `Headers`, or a plain object (Node's `IncomingHttpHeaders`). */
export type UsageHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

/** The longest header value read, in characters (a header's are octets): no server sends one near it. */
export const MAX_HEADER_LENGTH = 65_536;

export interface UsageOptions {
  /** The page's response headers: its Content-Usage (an RFC 9651 Dictionary) and Content-Signal combine with robots.txt's. */
  headers?: UsageHeaders;
  /** The operators whose control tokens speak for the crawlers they list (default: OPERATORS, the shipped data;
   * give your own list, e.g. `[...OPERATORS, mine]`, to add or change them; `[]` for none). */
  operators?: readonly Operator[];
}

/** A Content-Usage rule of the crawler's groups, read. */
export interface UsageRule {
  line: number;
  path: string;
  /** The path pattern's octets, as written (none: empty). */
  pathOctets: Uint8Array;
  /** null: no path pattern (every path, the shortest). */
  pattern: Pattern | null;
  entries: UsageEntry[];
}

/** The use-preference lines of the groups that apply to a crawler, read once. */
export interface CrawlerUsage {
  readonly profile: Profile;
  readonly rules: readonly UsageRule[];
  readonly signals: readonly { line: number; entries: UsageEntry[] }[];
  /** The rules without a path pattern (every path, the shortest), in file order. */
  readonly everyPath: readonly UsageRule[];
  /** @internal The rules with one, compiled on first use (null: none has one). */
  readonly paths: UsagePaths<UsageRule & { pattern: Pattern }> | null;
}

/** The crawler's usage lines (of `groups`, applicableGroups'), read for usageOf(). */
export function crawlerUsage(groups: readonly Group[], profile: Profile): CrawlerUsage {
  const rules: UsageRule[] = [];
  const signals: { line: number; entries: UsageEntry[] }[] = [];
  const everyPath: UsageRule[] = [];
  const withPath: (UsageRule & { pattern: Pattern })[] = [];
  // (Groups in file order: so are their lines.)
  for (const g of groups) {
    for (const u of g.usage) {
      const entries = readUsageValue(u.field, u.value);
      if (u.field === 'content-signal') {
        signals.push({ line: u.line, entries });
      } else if (u.path === '') {
        const rule = { line: u.line, path: u.path, pathOctets: u.pathOctets, pattern: null, entries };
        rules.push(rule);
        everyPath.push(rule);
      } else {
        const rule = { line: u.line, path: u.path, pathOctets: u.pathOctets, pattern: patternOf(u.pathOctets, profile), entries };
        rules.push(rule);
        withPath.push(rule);
      }
    }
  }
  return { profile, rules, signals, everyPath, paths: withPath.length === 0 ? null : new UsagePaths(withPath, profile) };
}

/** What the crawler may do with url's content, given its verdict (explain()'s) and its usage lines
 * (and the Content-Usage rules that decide for url, when found already: decidingRules()). */
export function usageOf(usage: CrawlerUsage, verdict: { allowed: boolean; line: number }, url: string, options?: UsageOptions, control?: readonly ControlStatement[], decided?: readonly UsageRule[]): Usage {
  return usageFrom(verdict, usageSignals(usage, verdict, url, options, control, decided));
}

/** The Usage of a verdict and its signals (usageSignals()'s, the answer's own list). */
export function usageFrom(verdict: { allowed: boolean; line: number }, signals: UsageSignal[]): Usage {
  // Per purpose, over every signal that states one (combine() is the same in any order).
  let search: Preference = 'unknown';
  let trainAi: Preference = 'unknown';
  let aiUse: Preference = 'unknown';
  for (const s of signals) {
    if (s.purpose === 'search') search = combine(search, s.preference!);
    else if (s.purpose === 'train-ai') trainAi = combine(trainAi, s.preference!);
    else if (s.purpose === 'ai-use') aiUse = combine(aiUse, s.preference!);
  }
  return { allowed: verdict.allowed, line: verdict.line, purposes: purposesOf(search, trainAi, aiUse), signals };
}

/** usageOf()'s signals, a list made for this call: what an operator's answer reads purpose by purpose. */
export function usageSignals(usage: CrawlerUsage, verdict: { allowed: boolean; line: number }, url: string, options?: UsageOptions, control?: readonly ControlStatement[], decided?: readonly UsageRule[]): UsageSignal[] {
  const lines = verdict.allowed && (usage.rules.length > 0 || usage.signals.length > 0);
  const deciding = lines ? (decided ?? decidingRules(usage, url)) : NONE;
  const statements = verdict.allowed && control !== undefined ? control : NO_STATEMENTS;
  // (A list made to its length: one grown by push() takes room for 17 signals, garbage URL after URL.)
  let n = 0;
  for (const r of deciding) n += r.entries.length;
  if (lines) for (const s of usage.signals) n += s.entries.length;
  for (const c of statements) n += c.purposes.length;
  const signals = new Array<UsageSignal>(n);
  n = 0;
  for (const r of deciding) n = count(signals, n, 'content-usage', r.line, r.entries, r.path);
  if (lines) for (const s of usage.signals) n = count(signals, n, 'content-signal', s.line, s.entries);
  // In file order, as Usage.signals says: each list is, but the rules' keys were counted before the signals'.
  if (deciding.length > 0 && lines && usage.signals.length > 0) signals.sort(byLine);
  if (statements.length > 0) {
    for (const c of statements) {
      for (const purpose of c.purposes) signals[n++] = { field: 'control-token', value: c.token, token: c.token, line: c.line, purpose, preference: c.preference };
    }
    signals.sort(byLine);
  }
  const headers = options?.headers;
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object' && typeof headers !== 'function') {
      throw new TypeError(`headers must be a Headers or an object of header values, got ${typeof headers}`);
    }
    const contentUsage = headerValue(headers, 'content-usage');
    if (contentUsage !== undefined) count(signals, signals.length, 'content-usage', 0, headerEntries(contentUsage, readContentUsage), undefined, true);
    const contentSignal = headerValue(headers, 'content-signal');
    if (contentSignal !== undefined) count(signals, signals.length, 'content-signal', 0, headerEntries(contentSignal, readContentSignal), undefined, true);
  }
  return signals;
}

/** A line's (or a header's) entries, each a signal, from signals[at]; the place after them. (A function,
 * not a closure: usage() is asked URL after URL.) */
function count(signals: UsageSignal[], at: number, field: UsageField, line: number, entries: readonly UsageEntry[], path?: string, header?: true): number {
  for (const e of entries) {
    // (A key of a purpose, of a line, the most common signal: one literal of its properties, made whole. Added
    // one by one, past the literal's, they take a second object, signal after signal.)
    if (e.purpose !== undefined && !e.legacy && !e.invalid && !header) {
      signals[at++] = path !== undefined && path !== '' ? { field, value: e.value, line, path, purpose: e.purpose, preference: e.preference } : { field, value: e.value, line, purpose: e.purpose, preference: e.preference };
      continue;
    }
    const signal: UsageSignal = { field, value: e.value, line };
    if (path !== undefined && path !== '') signal.path = path;
    if (e.purpose !== undefined) {
      signal.purpose = e.purpose;
      signal.preference = e.preference;
    }
    if (e.legacy) signal.legacy = true;
    if (e.invalid) signal.invalid = true;
    if (header) signal.header = true;
    signals[at++] = signal;
  }
  return at;
}

const NONE: readonly UsageRule[] = [];
const NO_STATEMENTS: readonly ControlStatement[] = [];

function byLine(a: UsageSignal, b: UsageSignal): number {
  return a.line - b.line;
}

/** The Content-Usage rules that decide for url: those of the longest matching pattern (see the header). */
function decidingRules(usage: CrawlerUsage, url: string): readonly UsageRule[] {
  return usage.paths?.deciding(url) ?? usage.everyPath;
}

/** A header value's entries: none read from one over MAX_HEADER_LENGTH (one invalid entry, its value cut). */
function headerEntries(value: string, read: (value: string) => UsageEntry[]): UsageEntry[] {
  return value.length > MAX_HEADER_LENGTH ? [{ value: shownText(value), invalid: true }] : read(value);
}

/** A header's value: its field lines joined with ", " (RFC 9110 5.3), or undefined when absent. A value
 * that is not a string, and an array's member that is not, is not a field line: ignored. */
export function headerValue(headers: UsageHeaders, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    const v: unknown = (headers as { get(name: string): unknown }).get(name);
    return typeof v === 'string' ? v : undefined;
  }
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const values: string[] = [];
  for (const key of Object.keys(record)) {
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const v: unknown = record[key];
    if (typeof v === 'string') values.push(v);
    else if (Array.isArray(v)) for (const line of v as readonly unknown[]) if (typeof line === 'string') values.push(line);
  }
  return values.length === 0 ? undefined : values.join(', ');
}
