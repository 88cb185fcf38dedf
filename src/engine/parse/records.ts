// The records of a robots.txt: groups with their rules, sitemaps, crawl-delays,
// use preferences (Content-Usage, Content-Signal), License and LLM-Policy
// lines, and per-line diagnostics. Built by a LineHandler fed by the lexer;
// knows nothing of matching.
import {
  lex, LineHandler, KeyKind, KEY_ALLOW, KEY_CONTENT_SIGNAL, KEY_CONTENT_USAGE, KEY_CRAWL_DELAY, KEY_DISALLOW, KEY_LICENSE,
  KEY_LLM_POLICY, KEY_SITEMAP, KEY_UNKNOWN, KEY_USER_AGENT, LINE_INVALID_UTF8, LINE_MISSING_COLON, LINE_TYPO, MAX_LINE_OCTETS, isSpace,
} from './lexer.js';
import { traitsOf, type Profile } from './profile.js';

export type RuleKind = 'allow' | 'disallow';

/** The two ways of saying a use preference: AIPREF's Content-Usage, Cloudflare's Content-Signal. */
export type UsageField = 'content-usage' | 'content-signal';

export interface AgentLine {
  line: number;
  /** `*`, or `*` followed by whitespace and anything: the global group. */
  global: boolean;
  /** The value starts with `*` (looser than `global`; used for crawl-delay, an extension,
   * where "User-agent: *<BR>" in HTML served as text still means everyone). */
  wildcard: boolean;
  /** The product token (the leading run of [A-Za-z_-] of the value, may be empty),
   * in ASCII lower case for comparisons. */
  lower: string;
  /** The value goes on past its product token ("Googlebot/2.1"): that part is not matched. */
  trailing: boolean;
  /** With `trailing`: the product token as written ("Googlebot" of "Googlebot/2.1"), for lint's hint. */
  written?: string;
  /** The value's octets that decide which groups apply, values.octets[valueStart, valueEnd):
   * what the core reads (agents.ts groupsThatApply asks it). */
  values: AgentValues;
  valueStart: number;
  valueEnd: number;
}

/** The user-agent values of one records, one after the other: each line's
 * octets up to its product token's end and one more, and at least two (all
 * that the core's reading of a line looks at: `*` and the octet after it, or
 * the token and where it ends), so that a long value is not held twice. */
export class AgentValues {
  octets = new Uint8Array(64);
  length = 0;

  /** Appends b[start, end); returns where it starts. */
  add(b: Uint8Array, start: number, end: number): number {
    const at = this.length;
    const need = at + end - start;
    if (need > this.octets.length) {
      const grown = new Uint8Array(Math.max(need, 2 * this.octets.length));
      grown.set(this.octets.subarray(0, at));
      this.octets = grown;
    }
    for (let i = start; i < end; i++) this.octets[this.length++] = b[i];
    return at;
  }
}

export interface RuleLine {
  kind: RuleKind;
  line: number;
  /** The value's raw octets (comment and surrounding whitespace removed): body[start, end). */
  start: number;
  end: number;
}

/** A Content-Usage or Content-Signal line: a use preference (read by usage/vocabulary.ts when asked). */
export interface UsageLine {
  field: UsageField;
  line: number;
  /** Content-Usage: the path pattern that selects the rule (longest match), as written; '' when none (every path). */
  path: string;
  /** The path pattern's octets (a copy: the body may be compacted), matched as an Allow/Disallow pattern is. */
  pathOctets: Uint8Array;
  /** The preference (Content-Usage, after the path) or the signals (Content-Signal), as written. */
  value: string;
}

/** A License or LLM-Policy line: file-wide. */
export interface FileLine {
  line: number;
  value: string;
}

/** A group: consecutive user-agent lines and the lines up to the next user-agent line after a rule
 * (Allow, Disallow, and under `rfc` Content-Usage: the profile's contentUsageIsRule). */
export interface Group {
  agents: AgentLine[];
  rules: RuleLine[];
  /** Its Content-Usage and Content-Signal lines, in file order (most groups have none: a shared empty array). */
  usage: UsageLine[];
}

/** A run of user-agent lines and the crawl-delay that follows it (see crawlDelayRuns). */
export interface DelayRun {
  agents: AgentLine[];
  delay: number | undefined;
  closed: boolean;
}

export type DiagnosticCode =
  | 'unknown-key'
  | 'typo'
  | 'missing-colon'
  | 'invalid-line'
  | 'rule-outside-group'
  | 'line-too-long'
  | 'invalid-utf8'
  | 'invalid-crawl-delay'
  | 'size-limit';

export interface Diagnostic {
  line: number;
  code: DiagnosticCode;
  message: string;
}

/** A diagnostic before its message is written: where it is and what the message needs. */
interface PendingDiagnostic {
  line: number;
  code: DiagnosticCode;
  /** The key (typo, missing colon, unknown key), the value (crawl-delay) or the line (invalid line), as body offsets. */
  start: number;
  end: number;
  detail?: string;
}

export interface Records {
  /** The octets parsed, or only those the rules and diagnostics point into (see compact). */
  body: Uint8Array;
  groups: Group[];
  /** Sitemap values in file order, as written (duplicates kept), and their lines. */
  sitemaps: string[];
  sitemapLines: number[];
  /** For crawl-delay: user-agent runs, each ended by a rule or a valid crawl-delay. */
  delayRuns: DelayRun[];
  /** A crawl-delay before any user-agent line: the file's default. */
  defaultDelay: number | undefined;
  /** Content-Usage and Content-Signal lines before any user-agent line: they count for nothing (lint says so). */
  outsideUsage: UsageLine[];
  /** License (RSL) and LLM-Policy lines, file-wide, in file order. */
  licenses: FileLine[];
  llmPolicies: FileLine[];
  /** Diagnostics, kept raw while parsing: messages are written by diagnosticsOf(). */
  pending: PendingDiagnostic[];
  lines: number;
}

const utf8 = new TextDecoder('utf-8');

/** [A-Za-z_-] */
export function isTokenChar(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || c === 0x2d || c === 0x5f;
}

/** An octet in ASCII lower case (A-Z only change). */
export function asciiLower(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}

/** The product token a user-agent value b[start, end) starts with (its leading
 * [A-Za-z_-], as a group's name is read), in ASCII lower case, and where it ends. */
export function leadingToken(b: Uint8Array, start: number, end: number): { lower: string; end: number } {
  let lower = '';
  let i = start;
  for (; i < end && isTokenChar(b[i]); i++) lower += String.fromCharCode(asciiLower(b[i]));
  return { lower, end: i };
}

/** Is the user-agent value b[start, end) the global group's: `*` alone, or followed by whitespace? */
export function isGlobalAgent(b: Uint8Array, start: number, end: number): boolean {
  return end > start && b[start] === 0x2a && (end - start === 1 || isSpace(b[start + 1]));
}

/** A user-agent line read: its `*`, its product token, and the octets the core's choice of groups reads (kept in values). */
export function agentLine(line: number, b: Uint8Array, start: number, end: number, values: AgentValues): AgentLine {
  if (isGlobalAgent(b, start, end)) {
    const kept = Math.min(end, start + 2);
    const at = values.add(b, start, kept);
    return { line, global: true, wildcard: true, lower: '*', trailing: false, values, valueStart: at, valueEnd: at + kept - start };
  }
  const { lower, end: i } = leadingToken(b, start, end);
  const trailing = i < end;
  const kept = Math.min(end, Math.max(i + 1, start + 2)); // ("*bot" keeps its "b": it is not the `*` line)
  const at = values.add(b, start, kept);
  const agent: AgentLine = { line, global: false, wildcard: end > start && b[start] === 0x2a, lower, trailing, values, valueStart: at, valueEnd: at + kept - start };
  if (trailing && i > start) {
    let written = '';
    for (let k = start; k < i; k++) written += String.fromCharCode(b[k]);
    agent.written = written;
  }
  return agent;
}

// A leading decimal number; what follows it ("10<BR>" in HTML served as text) is ignored.
const DELAY = /^(?:\d+\.?\d*|\.\d+)/;

/** A crawl-delay value in seconds, or undefined when it is not a non-negative decimal. */
export function parseDelay(value: string): number | undefined {
  const m = DELAY.exec(value);
  if (m === null) return undefined;
  const n = Number(m[0]);
  return Number.isFinite(n) ? n : Number.MAX_VALUE;
}

class RecordsBuilder implements LineHandler {
  readonly groups: Group[] = [];
  readonly sitemaps: string[] = [];
  readonly sitemapLines: number[] = [];
  readonly delayRuns: DelayRun[] = [];
  defaultDelay: number | undefined = undefined;
  // (Most files have none of these: shared empty lists until one is found.)
  outsideUsage: UsageLine[] = NO_USAGE;
  licenses: FileLine[] = NO_FILE_LINES;
  llmPolicies: FileLine[] = NO_FILE_LINES;
  readonly pending: PendingDiagnostic[] = [];
  private group: Group | null = null;
  /** The current group has had a rule: a user-agent line starts a new one. */
  private groupHasRule = false;
  private run: DelayRun | null = null;
  private readonly agentValues = new AgentValues();

  constructor(private readonly body: Uint8Array, private readonly usageIsRule: boolean) {}

  private text(start: number, end: number): string {
    return utf8.decode(this.body.subarray(start, end));
  }

  private diag(line: number, code: DiagnosticCode, start = 0, end = 0, detail?: string) {
    this.pending.push({ line, code, start, end, detail });
  }

  truncated(line: number) {
    this.diag(line, 'line-too-long');
  }

  invalid(line: number, start: number, end: number, facts: number) {
    if (facts & LINE_INVALID_UTF8) this.diag(line, 'invalid-utf8');
    this.diag(line, 'invalid-line', start, end);
  }

  record(line: number, kind: KeyKind, keyStart: number, keyEnd: number, start: number, end: number, facts: number) {
    if (facts !== 0) {
      if (facts & LINE_INVALID_UTF8) this.diag(line, 'invalid-utf8');
      if (facts & LINE_MISSING_COLON) this.diag(line, 'missing-colon', keyStart, keyEnd);
      if (facts & LINE_TYPO) this.diag(line, 'typo', keyStart, keyEnd, KEY_NAMES[kind]);
    }
    switch (kind) {
      case KEY_USER_AGENT:
        return this.userAgent(line, start, end);
      case KEY_ALLOW:
      case KEY_DISALLOW:
        return this.rule(line, kind === KEY_ALLOW ? 'allow' : 'disallow', start, end);
      case KEY_SITEMAP:
        this.sitemaps.push(this.text(start, end));
        this.sitemapLines.push(line);
        return;
      case KEY_CRAWL_DELAY:
        return this.crawlDelay(line, start, end);
      case KEY_CONTENT_USAGE:
        return this.usage('content-usage', line, start, end);
      case KEY_CONTENT_SIGNAL:
        return this.usage('content-signal', line, start, end);
      case KEY_LICENSE:
        if (this.licenses === NO_FILE_LINES) this.licenses = [];
        this.licenses.push({ line, value: this.text(start, end) });
        return;
      case KEY_LLM_POLICY:
        if (this.llmPolicies === NO_FILE_LINES) this.llmPolicies = [];
        this.llmPolicies.push({ line, value: this.text(start, end) });
        return;
      case KEY_UNKNOWN:
        this.diag(line, 'unknown-key', keyStart, keyEnd);
        return;
    }
  }

  private userAgent(line: number, start: number, end: number) {
    const agent = agentLine(line, this.body, start, end, this.agentValues);
    // A user-agent line after a rule starts a new group.
    if (this.group === null || this.groupHasRule) {
      this.group = { agents: [], rules: [], usage: NO_USAGE };
      this.groups.push(this.group);
      this.groupHasRule = false;
    }
    this.group.agents.push(agent);
    if (this.run === null || this.run.closed) {
      this.run = { agents: [], delay: undefined, closed: false };
      this.delayRuns.push(this.run);
    }
    this.run.agents.push(agent);
  }

  private rule(line: number, kind: RuleKind, start: number, end: number) {
    if (this.group === null) {
      this.diag(line, 'rule-outside-group', 0, 0, kind);
      return;
    }
    this.group.rules.push({ kind, line, start, end });
    this.endAgents();
  }

  /** A rule ends the group's user-agent lines, and the crawl-delay run's. */
  private endAgents() {
    this.groupHasRule = true;
    if (this.run) this.run.closed = true;
  }

  private crawlDelay(line: number, start: number, end: number) {
    const delay = parseDelay(this.text(start, end));
    if (delay === undefined) {
      this.diag(line, 'invalid-crawl-delay', start, end);
      return;
    }
    // A crawl-delay belongs to the user-agent lines above it, not to those that follow.
    if (this.run === null) {
      this.defaultDelay ??= delay;
      return;
    }
    this.run.delay ??= delay;
    this.run.closed = true;
  }

  /** A use preference: the group's, or outside any group. Content-Usage (AIPREF attach, "Processing
   * Content-Usage Rules"): a value starting with '/' starts with a path pattern, which ends at the first
   * space or tab. (The lexer ended the value at '#' and trimmed it.) */
  private usage(field: UsageField, line: number, start: number, end: number) {
    const b = this.body;
    let split = start;
    if (field === 'content-usage' && b[start] === 0x2f) while (split < end && b[split] !== 0x20 && b[split] !== 0x09) split++;
    let from = split;
    while (from < end && (b[from] === 0x20 || b[from] === 0x09)) from++;
    const record: UsageLine = { field, line, path: this.text(start, split), pathOctets: b.slice(start, split), value: this.text(from, end) };
    if (this.group === null) {
      if (this.outsideUsage === NO_USAGE) this.outsideUsage = [];
      this.outsideUsage.push(record);
      return;
    }
    if (this.group.usage === NO_USAGE) this.group.usage = [];
    this.group.usage.push(record);
    if (field === 'content-usage' && this.usageIsRule) this.endAgents();
  }
}

/** The usage lines of a group that has none, and the License/LLM-Policy lines of a file that has none (never pushed to). */
const NO_USAGE: UsageLine[] = Object.freeze([]) as unknown as UsageLine[];
const NO_FILE_LINES: FileLine[] = Object.freeze([]) as unknown as FileLine[];

const KEY_NAMES: Record<KeyKind, string> = {
  [KEY_USER_AGENT]: 'user-agent',
  [KEY_ALLOW]: 'allow',
  [KEY_DISALLOW]: 'disallow',
  [KEY_SITEMAP]: 'sitemap',
  [KEY_CRAWL_DELAY]: 'crawl-delay',
  [KEY_CONTENT_USAGE]: 'content-usage',
  [KEY_UNKNOWN]: 'unknown',
  [KEY_CONTENT_SIGNAL]: 'content-signal',
  [KEY_LICENSE]: 'license',
  [KEY_LLM_POLICY]: 'llm-policy',
};

/** Parses robots.txt octets into records (which keep body: the caller's to keep as it is), grouped as the profile reads groups. */
export function readRecords(body: Uint8Array, profile: Profile): Records {
  const builder = new RecordsBuilder(body, traitsOf(profile).contentUsageIsRule);
  const lines = lex(body, builder);
  return {
    body,
    groups: builder.groups,
    sitemaps: builder.sitemaps,
    sitemapLines: builder.sitemapLines,
    delayRuns: builder.delayRuns,
    defaultDelay: builder.defaultDelay,
    outsideUsage: builder.outsideUsage,
    licenses: builder.licenses,
    llmPolicies: builder.llmPolicies,
    pending: builder.pending,
    lines,
  };
}

/** Octets of a diagnostic's range that its message quotes. */
const QUOTED = 60;
/** Bodies shorter than this are kept whole (a copy would cost more than it saves). */
const COMPACT_FROM = 2048;

/**
 * Keeps of the body only the octets the records point into (rule values and
 * the quotes of diagnostics), when that is at most a quarter of it: a file
 * padded with comments, or an HTML page, is then held at the size of its rules.
 * For what keeps records long (a crawler's cache holds thousands of files for
 * a day): it costs a share of a parse, which a parse for one look need not pay.
 * Returns whether it did.
 */
export function compactRecords(r: Records): boolean {
  const body = r.body;
  if (body.length < COMPACT_FROM) return false;
  let kept = 0;
  for (const g of r.groups) for (const rule of g.rules) kept += rule.end - rule.start;
  for (const d of r.pending) kept += Math.min(d.end - d.start, QUOTED);
  if (4 * kept > body.length) return false;
  const out = new Uint8Array(kept);
  let at = 0;
  // (Plain loops: values are short, a subarray per value costs more than the
  // copy, and a closure over `at` slowed every octet.)
  for (const g of r.groups) {
    for (const rule of g.rules) {
      const from = at;
      if (rule.end - rule.start > 32) {
        out.set(body.subarray(rule.start, rule.end), at);
        at += rule.end - rule.start;
      } else {
        for (let i = rule.start; i < rule.end; i++) out[at++] = body[i];
      }
      rule.start = from;
      rule.end = at;
    }
  }
  for (const d of r.pending) {
    const from = at;
    const end = Math.min(d.end, d.start + QUOTED);
    for (let i = d.start; i < end; i++) out[at++] = body[i];
    d.start = from;
    d.end = at;
  }
  r.body = out;
  return true;
}

// What records hold on the JS heap beyond their body, per item. Measured
// (--expose-gc, files of 500 KiB made of one kind of line each): a rule line
// 65 octets, a user-agent line 101 (with a short name), a group 430 beyond its
// lines, a crawl-delay run 210, a pending diagnostic 74, a sitemap 24 and its text.
const RULE_BYTES = 64;
const AGENT_BYTES = 96;
const GROUP_BYTES = 432;
const DELAY_RUN_BYTES = 208;
const PENDING_BYTES = 76;
const STRING_BYTES = 24;
const RECORDS_BYTES = 512;
/** A usage line's object and its two strings' headers; a License or LLM-Policy line's (as a sitemap's, estimated). */
const USAGE_BYTES = 48 + 2 * STRING_BYTES + 64; // (and the path's octets: a Uint8Array is about 64 bytes beyond them)
const FILE_LINE_BYTES = 32 + STRING_BYTES;

/** Octets the records hold: the body, and their objects as measured above. */
export function recordsBytes(r: Records): number {
  let n = RECORDS_BYTES + r.body.byteLength + r.delayRuns.length * DELAY_RUN_BYTES + r.pending.length * PENDING_BYTES;
  for (const g of r.groups) {
    n += GROUP_BYTES + g.rules.length * RULE_BYTES;
    for (const a of g.agents) n += AGENT_BYTES + a.lower.length;
    for (const u of g.usage) n += USAGE_BYTES + 3 * u.path.length + 2 * u.value.length;
  }
  for (const u of r.outsideUsage) n += USAGE_BYTES + 3 * u.path.length + 2 * u.value.length;
  for (const f of [...r.licenses, ...r.llmPolicies]) n += FILE_LINE_BYTES + 2 * f.value.length;
  for (const s of r.sitemaps) n += STRING_BYTES + 8 + s.length; // (and its line)
  return n;
}

/** The diagnostic of a body cut at maxOctets (parse()'s size limit), on the last line read. */
export function sizeLimitDiagnostic(records: Records, maxOctets: number): Diagnostic {
  return { line: records.lines, code: 'size-limit', message: `content past ${maxOctets} octets is ignored` };
}

/** The diagnostics of parsed records, with their messages. */
export function diagnosticsOf(records: Records): Diagnostic[] {
  const quote = (start: number, end: number) => JSON.stringify(utf8.decode(records.body.subarray(start, Math.min(end, start + QUOTED))));
  return records.pending.map(({ line, code, start, end, detail }) => {
    let message: string;
    switch (code) {
      case 'line-too-long':
        message = `line longer than ${MAX_LINE_OCTETS} octets; the rest of it is ignored`;
        break;
      case 'invalid-utf8':
        message = 'line is not valid UTF-8';
        break;
      case 'invalid-line':
        message = `not a "key: value" line, ignored: ${quote(start, end)}`;
        break;
      case 'missing-colon':
        message = `no ':' after ${quote(start, end)}; read as key and value`;
        break;
      case 'typo':
        message = `${quote(start, end)} accepted as ${detail}`;
        break;
      case 'unknown-key':
        message = `unknown key ${quote(start, end)}, ignored`;
        break;
      case 'rule-outside-group':
        message = `${detail} before any user-agent line, ignored`;
        break;
      case 'invalid-crawl-delay':
        message = `crawl-delay ${quote(start, end)} is not a number of seconds, ignored`;
        break;
      default:
        message = detail ?? code;
    }
    return { line, code, message };
  });
}
