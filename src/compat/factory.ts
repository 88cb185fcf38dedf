// robots-parser's API (the npm package `robots-parser`) on this engine, so that
// a crawler switches with one import (the entries: robots-parser.ts, rfc.ts, google.ts): robotsParser(url, contents) and its
// methods, with robots-parser's argument and return conventions (a URL of
// another origin is `undefined`, no match is line -1, a User-Agent string's
// version is ignored) and its reading of names: a user-agent line names the
// crawler when both, lower-cased, cut at the first '/' and trimmed, are equal
// (so "MJ12bot/1.4" meets "User-agent: MJ12bot", and "Bot1" never meets
// "User-agent: Bot2"). What robots-parser decides by its own rules (what a group
// is, crawl-delays, escapes in rules, ...) is decided here by the chosen
// profile's: Google's by default. The differences are listed in the README.
import { fromPath } from '../engine/from-path.js';
import { KEY_USER_AGENT, lex, type KeyKind } from '../engine/parse/lexer.js';
import { isProfile, type Profile } from '../engine/parse/profile.js';
import { DEFAULT_MAX_OCTETS, parse, robotsInternals, RobotsTxt } from '../engine/robots-txt.js';

export interface CompatOptions {
  /** 'google': Googlebot's reading, bit for bit (robots-wasm/compat's default); 'rfc': RFC 9309 with RFC 3986 normalisation (robots-wasm/compat/rfc's). */
  profile?: Profile;
}

/** What robots-parser's factory returns. */
export interface Robot {
  /** true or false; undefined when the URL is not of the robots.txt's origin (protocol, host and port), or is invalid. */
  isAllowed(url: string, ua?: string): boolean | undefined;
  /** !isAllowed (so true for a URL of another origin, as robots-parser does). */
  isDisallowed(url: string, ua?: string): boolean;
  /** The 1-based line of the deciding rule; -1 when none decides or the URL is of another origin. */
  getMatchingLineNumber(url: string, ua?: string): number;
  /** Seconds; undefined when none applies. */
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
  /** The last Host: directive's value, lower-cased; null when none. */
  getPreferredHost(): string | null;
}

/** robots-parser's base for relative URLs: a host that never is a robots.txt's. */
const RELATIVE_BASE = 'http://robots-relative.samclarke.com/';

/** robots-parser's parseUrl: relative URLs resolved on its base, the default port filled in; null if invalid. */
function parseUrl(url: unknown): URL | null {
  try {
    const parsed = new URL(url as string, RELATIVE_BASE);
    if (!parsed.port) parsed.port = parsed.protocol === 'https:' ? '443' : '80';
    return parsed;
  } catch {
    return null;
  }
}

class CompatRobot implements Robot {
  private readonly origin: URL | null;
  private readonly robots: RobotsTxt;
  private readonly host: string | null;
  /** The file's text, until its user-agent lines are read (namedBy). */
  private text: string;
  /** Names (robots-parser's reading of each user-agent line) and the lines of each, read on first use. */
  private lines: Map<string, number[]> | undefined;

  constructor(url: string, contents: string | null | undefined, profile: Profile) {
    this.origin = parseUrl(url);
    // robots-parser reads null and undefined as an empty file; anything else as its string.
    const text = contents === null || contents === undefined ? '' : String(contents);
    this.robots = parse(text, { profile });
    this.host = preferredHost(text);
    this.text = text;
  }

  isAllowed(url: string, ua?: string): boolean | undefined {
    const path = this.pathOf(url);
    return path === undefined ? undefined : robotsInternals(this.robots).matcherNamedBy(this.namedBy(ua)).isAllowed(path);
  }

  isDisallowed(url: string, ua?: string): boolean {
    return !this.isAllowed(url, ua);
  }

  getMatchingLineNumber(url: string, ua?: string): number {
    const path = this.pathOf(url);
    if (path === undefined) return -1;
    const { line } = robotsInternals(this.robots).matcherNamedBy(this.namedBy(ua)).explain(path);
    return line === 0 ? -1 : line;
  }

  getCrawlDelay(ua?: string): number | undefined {
    return robotsInternals(this.robots).crawlDelayNamedBy(this.namedBy(ua));
  }

  getSitemaps(): string[] {
    return [...this.robots.sitemaps];
  }

  getPreferredHost(): string | null {
    return this.host;
  }

  /** The path and query robots-parser checks (escapes upper-cased, as it does); undefined for another origin. */
  private pathOf(url: string): string | undefined {
    const parsed = parseUrl(url);
    const base = this.origin;
    if (parsed === null || base === null || parsed.protocol !== base.protocol || parsed.hostname !== base.hostname || parsed.port !== base.port) {
      return undefined;
    }
    // (A path: "//evil/public" must not be read as the host "evil".)
    return fromPath((parsed.pathname + parsed.search).replace(/%[0-9a-fA-F]{2}/g, (e) => e.toUpperCase()));
  }

  /** The user-agent lines that name the crawler of a User-Agent string, read as robots-parser reads
   * both (see the top); none (no name, `*`, or no line names it): only the `*` groups apply. Each
   * line names one name, so two crawlers of different names never share a group. */
  private namedBy(ua: string | undefined): readonly number[] {
    const name = ua === undefined || ua === null ? '' : robotsParserName(String(ua));
    if (this.lines === undefined) {
      this.lines = agentLines(this.text);
      this.text = '';
    }
    return this.lines.get(name) ?? NO_LINES;
  }
}
// Its name kept in the minified bundles (scripts/build.mjs): util.inspect and console.log show it.
Object.defineProperty(CompatRobot, 'name', { value: 'CompatRobot' });

const NO_LINES: readonly number[] = Object.freeze([]);
const utf8 = new TextDecoder();

/** robots-parser's formatUserAgent: lower-cased, cut at the first '/', trimmed. */
function robotsParserName(value: string): string {
  const lower = value.toLowerCase();
  const slash = lower.indexOf('/');
  return (slash === -1 ? lower : lower.slice(0, slash)).trim();
}

/** Each name (robots-parser's reading) of the file's user-agent lines, as the engine finds those lines, and its lines. */
function agentLines(text: string): Map<string, number[]> {
  let bytes = new TextEncoder().encode(text);
  if (bytes.length > DEFAULT_MAX_OCTETS) bytes = bytes.subarray(0, DEFAULT_MAX_OCTETS); // (parse() reads no more)
  const byName = new Map<string, number[]>();
  lex(bytes, {
    record(line: number, kind: KeyKind, _ks: number, _ke: number, start: number, end: number) {
      if (kind !== KEY_USER_AGENT) return;
      const name = robotsParserName(utf8.decode(bytes.subarray(start, end)));
      // ('' and '*' are robots-parser's "no name": the `*` groups.)
      if (name === '' || name === '*') return;
      const lines = byName.get(name);
      if (lines === undefined) byName.set(name, [line]);
      else lines.push(line);
    },
    invalid() {},
    truncated() {},
  });
  return byName;
}

/** robots-parser's Host: reading: comments cut, split at the first ':', trimmed; the last non-empty one, lower-cased. */
function preferredHost(text: string): string | null {
  let host: string | null = null;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf('#');
    const line = hash === -1 ? raw : raw.slice(0, hash);
    const colon = line.indexOf(':');
    if (colon === -1 || line.slice(0, colon).trim().toLowerCase() !== 'host') continue;
    const value = line.slice(colon + 1).trim();
    if (value !== '') host = value.toLowerCase();
  }
  return host;
}

/** robots-parser's factory with a default profile (the compat entries: Google's, or rfc's for robots-wasm/compat/rfc). */
export function factoryFor(defaultProfile: Profile): (url: string, contents: string | null | undefined, options?: CompatOptions) => Robot {
  return (url, contents, options = {}) => {
    const profile = options?.profile ?? defaultProfile;
    if (!isProfile(profile)) throw new TypeError(`profile must be 'google' or 'rfc', got ${JSON.stringify(profile)}`);
    return new CompatRobot(url, contents, profile);
  };
}
