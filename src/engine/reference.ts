// A plain TypeScript reference matcher: Google's RobotsMatcher algorithm, rule
// by rule, each rule's Matches() answered in steps linear in the rule and the
// path (parse/pattern-match.ts; Google's set of positions per token made a long
// rule against a long URL quadratic, and explain runs this on any file). Slow
// and obvious otherwise, on purpose: the property tests hold the WASM automaton
// to it; its `matched` list (every rule that matched) is what a full
// explanation needs.
import { applicableGroups, agentTokens } from './parse/agents.js';
import { escapePattern, googlePattern, indexHtmDirectory, Pattern, rfcPattern } from './parse/pattern.js';
import { traitsOf, type Profile } from './parse/profile.js';
import { readRecords, type Records, type RuleKind } from './parse/records.js';
import { escapesRaw, HEX_DIGITS, hexValue, isUnreserved } from './parse/octets.js';
import { globMatches } from './parse/pattern-match.js';

// One of each, made once: a coder per call costs more than the rest of a verdict.
const ENCODER = new TextEncoder();
const DECODER = new TextDecoder();
const ROBOTS_TXT = ENCODER.encode('/robots.txt');

/** Whether a compared path is exactly `/robots.txt`. */
function isRobotsTxt(path: Uint8Array): boolean {
  if (path.length !== ROBOTS_TXT.length) return false;
  for (let i = 0; i < path.length; i++) if (path[i] !== ROBOTS_TXT[i]) return false;
  return true;
}

/** Google's GetPathParamsQuery on octets. */
export function pathParamsQuery(url: Uint8Array): Uint8Array {
  const n = url.length;
  const find = (pred: (c: number) => boolean, from: number) => {
    for (let i = from; i < n; i++) if (pred(url[i])) return i;
    return -1;
  };
  const isPathStart = (c: number) => c === 0x2f || c === 0x3f || c === 0x3b;
  const searchStart = n >= 2 && url[0] === 0x2f && url[1] === 0x2f ? 2 : 0;
  const earlyPath = find(isPathStart, searchStart);
  let protocolEnd = -1;
  for (let i = searchStart; i + 2 < n; i++) {
    if (url[i] === 0x3a && url[i + 1] === 0x2f && url[i + 2] === 0x2f) {
      protocolEnd = i;
      break;
    }
  }
  if (earlyPath >= 0 && (protocolEnd < 0 || earlyPath < protocolEnd)) protocolEnd = -1;
  protocolEnd = protocolEnd < 0 ? searchStart : protocolEnd + 3;
  const pathStart = find(isPathStart, protocolEnd);
  if (pathStart < 0) return Uint8Array.of(0x2f);
  const hash = find((c) => c === 0x23, searchStart);
  if (hash >= 0 && hash < pathStart) return Uint8Array.of(0x2f);
  const path = url.subarray(pathStart, hash < 0 ? n : hash);
  if (path[0] === 0x2f) return path;
  const out = new Uint8Array(path.length + 1);
  out[0] = 0x2f;
  out.set(path, 1);
  return out;
}

/** RFC 3986 normalisation of a path: the `rfc` profile's view of the URL (idempotent). */
export function normalizePath(path: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === 0x25 && i + 2 < path.length && hexValue(path[i + 1]) >= 0 && hexValue(path[i + 2]) >= 0) {
      const v = hexValue(path[i + 1]) * 16 + hexValue(path[i + 2]);
      if (isUnreserved(v)) out.push(v);
      else out.push(0x25, HEX_DIGITS[v >> 4], HEX_DIGITS[v & 15]);
      i += 2;
    } else if (escapesRaw(c)) {
      out.push(0x25, HEX_DIGITS[c >> 4], HEX_DIGITS[c & 15]); // (a '%' that starts no escape is %25)
    } else {
      out.push(c);
    }
  }
  return Uint8Array.from(out);
}

/**
 * RFC 3986 5.2.4 remove_dot_segments on the path of a normalised path and query
 * (a '.' there is never escaped): the `rfc` profile's path is the one a fetch
 * requests. The query, from the first '?', is kept as it is. For a path that
 * starts with '/', each turn of the RFC's loop takes one segment: "." goes,
 * ".." takes the segment before it (none above the root), either one last
 * leaves the path ending in '/', and any other is kept. Written on a stack of
 * segments so that it stays linear (usage() runs it on any URL). Patterns are
 * never read so (docs/library.md#profiles).
 */
export function removeDotSegments(pathAndQuery: Uint8Array): Uint8Array {
  const q = pathAndQuery.indexOf(0x3f);
  const path = q < 0 ? pathAndQuery : pathAndQuery.subarray(0, q);
  if (path[0] !== 0x2f) return pathAndQuery;
  let octets = '';
  for (const c of path) octets += String.fromCharCode(c);
  const parts = octets.split('/').slice(1);
  const kept: string[] = [];
  parts.forEach((segment, i) => {
    const last = i === parts.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..') kept.pop();
      if (last) kept.push('');
    } else {
      kept.push(segment);
    }
  });
  const out = '/' + kept.join('/');
  const result = new Uint8Array(out.length + pathAndQuery.length - path.length);
  for (let i = 0; i < out.length; i++) result[i] = out.charCodeAt(i);
  result.set(pathAndQuery.subarray(path.length), out.length);
  return result;
}

/** Google's RobotsMatchStrategy::Matches' answer, over pattern tokens (pattern-match.ts). */
export function patternMatches(p: Pattern, path: Uint8Array): boolean {
  return globMatches(p.tokens, 0, p.tokens.length, p.anchored, path);
}

export interface ReferenceMatch {
  kind: RuleKind;
  line: number;
  /** The rule's value as written. */
  pattern: string;
  /** Its length as compared: octets of the normalised pattern, counting `*` and `$`. */
  priority: number;
  /** Matched through Google's index.htm rule (an allow of `/dir/index.html` allows `/dir/`). */
  viaIndexHtm: boolean;
}

export interface ReferenceVerdict {
  allowed: boolean;
  line: number;
  /** Every rule of the applicable groups that matched, in file order. */
  matched: ReferenceMatch[];
}

/** What a URL's patterns are compared with under the profile: its path, parameters
 * and query (Google's GetPathParamsQuery), cut at a NUL (google), or normalised
 * and its dot segments removed (rfc: the path a fetch requests). */
export function comparedPath(url: string, profile: Profile): Uint8Array {
  let path = pathParamsQuery(ENCODER.encode(url));
  const traits = traitsOf(profile);
  if (traits.pathEndsAtNul) {
    const nul = path.indexOf(0);
    if (nul >= 0) path = path.subarray(0, nul);
  }
  return traits.normalises ? removeDotSegments(normalizePath(path)) : path;
}

/** The verdict for url, computed rule by rule. */
export function referenceVerdict(
  body: Uint8Array,
  url: string,
  agent: string | readonly string[],
  profile: Profile,
): ReferenceVerdict {
  return referenceVerdictOf(readRecords(body, profile), url, agent, profile);
}

/** referenceVerdict on records already read (their body may be compacted). */
export function referenceVerdictOf(records: Records, url: string, agent: string | readonly string[], profile: Profile): ReferenceVerdict {
  return referenceDecider(records, agent, profile)(url);
}

/** One rule of the agent's groups, its patterns built once (the index.htm one: Google's directory rule, or null). */
interface ReferenceRule {
  kind: RuleKind;
  line: number;
  value: Uint8Array;
  pattern: Pattern;
  indexHtm: Pattern | null;
}

/** referenceVerdictOf for one agent and many URLs: the groups chosen and the patterns built once, then rule by rule per URL. */
export function referenceDecider(records: Records, agent: string | readonly string[], profile: Profile): (url: string) => ReferenceVerdict {
  const traits = traitsOf(profile);
  const toPattern = traits.normalises ? rfcPattern : googlePattern;
  const rules: ReferenceRule[] = [];
  for (const g of applicableGroups(records.groups, agentTokens(agent, profile))) {
    for (const r of g.rules) {
      const value = records.body.subarray(r.start, r.end);
      const escaped = escapePattern(value);
      const dir = traits.indexHtmAllowsDirectory && r.kind === 'allow' ? indexHtmDirectory(escaped) : null;
      rules.push({ kind: r.kind, line: r.line, value, pattern: toPattern(escaped), indexHtm: dir ? googlePattern(dir) : null });
    }
  }
  return (url) => {
    const path = comparedPath(url, profile);
    if (traits.allowsRobotsTxt && isRobotsTxt(path)) return { allowed: true, line: 0, matched: [] };
    const best = { allow: { priority: -1, line: 0 }, disallow: { priority: -1, line: 0 } };
    const matched: ReferenceMatch[] = [];
    for (const r of rules) {
      let p = r.pattern;
      let hit = patternMatches(p, path);
      let viaIndexHtm = false;
      if (!hit && r.indexHtm !== null) {
        p = r.indexHtm;
        hit = viaIndexHtm = patternMatches(p, path);
      }
      if (!hit) continue;
      matched.push({ kind: r.kind, line: r.line, pattern: DECODER.decode(r.value), priority: p.priority, viaIndexHtm });
      if (p.priority > best[r.kind].priority) best[r.kind] = { priority: p.priority, line: r.line };
    }
    const a = best.allow;
    const d = best.disallow;
    return {
      allowed: !(d.priority > Math.max(a.priority, 0)),
      line: d.priority > a.priority ? d.line : a.line,
      matched,
    };
  };
}
