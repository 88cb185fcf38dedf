// The records of a robots.txt: groups with their rules, sitemaps, crawl-delays,
// Content-Usage preferences and per-line diagnostics. Built by a LineHandler fed
// by the lexer; knows nothing of matching.
import {
  lex, LineFacts, LineHandler, KeyKind, KEY_ALLOW, KEY_CONTENT_USAGE, KEY_CRAWL_DELAY, KEY_DISALLOW,
  KEY_SITEMAP, KEY_UNKNOWN, KEY_USER_AGENT, MAX_LINE_OCTETS, isSpace,
} from './lexer.js';

export type RuleKind = 'allow' | 'disallow';

export interface AgentLine {
  line: number;
  /** `*`, or `*` followed by whitespace and anything: the global group. */
  global: boolean;
  /** The value starts with `*` (looser than `global`; used for crawl-delay, an extension,
   * where "User-agent: *<BR>" in HTML served as text still means everyone). */
  wildcard: boolean;
  /** The product token: the leading run of [A-Za-z_-] of the value (may be empty). */
  token: string;
}

export interface RuleLine {
  kind: RuleKind;
  line: number;
  /** The value's raw octets (comment and surrounding whitespace removed). */
  value: Uint8Array;
}

export interface ContentUsageLine {
  line: number;
  /** The path that selects this preference (longest match), or '' for the whole site. */
  path: string;
  preference: string;
}

/** A group: consecutive user-agent lines and the lines up to the next user-agent line after a rule. */
export interface Group {
  agents: AgentLine[];
  rules: RuleLine[];
  contentUsage: ContentUsageLine[];
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

export interface Records {
  groups: Group[];
  /** Sitemap values in file order, as written (duplicates kept). */
  sitemaps: string[];
  /** For crawl-delay: user-agent runs, each ended by a rule or a valid crawl-delay. */
  delayRuns: DelayRun[];
  /** A crawl-delay before any user-agent line: the file's default. */
  defaultDelay: number | undefined;
  diagnostics: Diagnostic[];
  lines: number;
}

const utf8 = new TextDecoder('utf-8');
const decode = (b: Uint8Array) => utf8.decode(b);

/** [A-Za-z_-] */
export function isTokenChar(c: number): boolean {
  const l = c | 0x20;
  return (l >= 0x61 && l <= 0x7a) || c === 0x2d || c === 0x5f;
}

function agentLine(line: number, v: Uint8Array): AgentLine {
  if (v.length >= 1 && v[0] === 0x2a && (v.length === 1 || isSpace(v[1]))) {
    return { line, global: true, wildcard: true, token: '*' };
  }
  let n = 0;
  while (n < v.length && isTokenChar(v[n])) n++;
  return { line, global: false, wildcard: v[0] === 0x2a, token: String.fromCharCode(...v.subarray(0, n)) };
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
  readonly delayRuns: DelayRun[] = [];
  defaultDelay: number | undefined = undefined;
  readonly diagnostics: Diagnostic[] = [];
  private group: Group | null = null;
  private run: DelayRun | null = null;

  private diag(line: number, code: DiagnosticCode, message: string) {
    this.diagnostics.push({ line, code, message });
  }

  truncated(line: number) {
    this.diag(line, 'line-too-long', `line longer than ${MAX_LINE_OCTETS} octets; the rest of it is ignored`);
  }

  invalid(line: number, content: Uint8Array, facts: LineFacts) {
    if (facts.invalidUtf8) this.diag(line, 'invalid-utf8', 'line is not valid UTF-8');
    const words = decode(content).slice(0, 40);
    this.diag(line, 'invalid-line', `not a "key: value" line, ignored: ${JSON.stringify(words)}`);
  }

  record(line: number, kind: KeyKind, key: Uint8Array, value: Uint8Array, facts: LineFacts) {
    if (facts.invalidUtf8) this.diag(line, 'invalid-utf8', 'line is not valid UTF-8');
    if (facts.missingColon) this.diag(line, 'missing-colon', `no ':' after "${decode(key)}"; read as key and value`);
    if (facts.typo) this.diag(line, 'typo', `"${decode(key)}" accepted as ${KEY_NAMES[kind]}`);
    switch (kind) {
      case KEY_USER_AGENT:
        return this.userAgent(line, value);
      case KEY_ALLOW:
      case KEY_DISALLOW:
        return this.rule(line, kind === KEY_ALLOW ? 'allow' : 'disallow', value);
      case KEY_SITEMAP:
        this.sitemaps.push(decode(value));
        return;
      case KEY_CRAWL_DELAY:
        return this.crawlDelay(line, decode(value));
      case KEY_CONTENT_USAGE:
        return this.contentUsage(line, decode(value));
      case KEY_UNKNOWN:
        this.diag(line, 'unknown-key', `unknown key "${decode(key)}", ignored`);
        return;
    }
  }

  private userAgent(line: number, value: Uint8Array) {
    const agent = agentLine(line, value);
    // A user-agent line after a rule starts a new group.
    if (this.group === null || this.group.rules.length > 0) {
      this.group = { agents: [], rules: [], contentUsage: [] };
      this.groups.push(this.group);
    }
    this.group.agents.push(agent);
    if (this.run === null || this.run.closed) {
      this.run = { agents: [], delay: undefined, closed: false };
      this.delayRuns.push(this.run);
    }
    this.run.agents.push(agent);
  }

  private rule(line: number, kind: RuleKind, value: Uint8Array) {
    if (this.group === null) {
      this.diag(line, 'rule-outside-group', `${kind} before any user-agent line, ignored`);
      return;
    }
    this.group.rules.push({ kind, line, value });
    if (this.run) this.run.closed = true;
  }

  private crawlDelay(line: number, value: string) {
    const delay = parseDelay(value);
    if (delay === undefined) {
      this.diag(line, 'invalid-crawl-delay', `crawl-delay "${value.slice(0, 40)}" is not a number of seconds, ignored`);
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

  private contentUsage(line: number, value: string) {
    if (this.group === null) return;
    const m = /^(\/\S*)\s+(.*)$/.exec(value);
    this.group.contentUsage.push(m ? { line, path: m[1], preference: m[2] } : { line, path: '', preference: value });
  }
}

const KEY_NAMES: Record<KeyKind, string> = {
  [KEY_USER_AGENT]: 'user-agent',
  [KEY_ALLOW]: 'allow',
  [KEY_DISALLOW]: 'disallow',
  [KEY_SITEMAP]: 'sitemap',
  [KEY_CRAWL_DELAY]: 'crawl-delay',
  [KEY_CONTENT_USAGE]: 'content-usage',
  [KEY_UNKNOWN]: 'unknown',
};

/** Parses robots.txt octets into records. */
export function readRecords(body: Uint8Array): Records {
  const builder = new RecordsBuilder();
  const lines = lex(body, builder);
  return {
    groups: builder.groups,
    sitemaps: builder.sitemaps,
    delayRuns: builder.delayRuns,
    defaultDelay: builder.defaultDelay,
    diagnostics: builder.diagnostics,
    lines,
  };
}
