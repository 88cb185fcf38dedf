// Why a URL gets its verdict, in words a webmaster understands: which groups
// applied, every rule that matched with its length, which one decided and why.
// Shared by `robots explain` and the tester page (portable: no Node module).
// The verdict is the engine's; the list of matching rules comes from the plain
// reference matcher (rule by rule), which the tests hold equal to the engine.
import { applicableGroups, agentTokens } from './parse/agents.js';
import type { Verdict } from './match/matcher.js';
import { traitsOf, type Profile } from './parse/profile.js';
import { readRecords, type Group, type Records } from './parse/records.js';
import { normalizePath, pathParamsQuery, referenceVerdictOf, type ReferenceMatch } from './reference.js';

/** Why a URL gets its verdict (RobotsTxt.explainAll; `robots explain`; the tester page). */
export interface Explanation {
  url: string;
  /** What the rules are compared with: path, parameters and query (normalised under rfc). */
  path: string;
  /** The agent, as given: the crawler's product token(s) (the field's name is kept: `robots explain --format json` writes it). */
  crawler: string[];
  profile: Profile;
  /** The groups that applied: their first user-agent line, and whether it is `*` (none: no group, all allowed). */
  groups: { line: number; global: boolean }[];
  /** The groups in a sentence. */
  group: string;
  /** Every rule of those groups that matches the path, in file order; `length` is what the longest-match rule compares
   * (octets of the pattern, `*` and `$` counted); `viaIndexHtm`: matched by Google's index.html rule. */
  matches: { line: number; kind: 'allow' | 'disallow'; pattern: string; length: number; viaIndexHtm: boolean }[];
  /** The verdict, its line and rule: explain()'s. */
  allowed: boolean;
  line: number;
  rule: Verdict['rule'] | null;
  /** Why the deciding rule decides, in a sentence. */
  why: string;
}

/** The explanation of `verdict` (the engine's, for `url` and `agents`) on the octets `body` as parsed (already cut at maxOctets). */
export function explainVerdict(body: Uint8Array, verdict: Verdict, url: string, agents: string[], profile: Profile): Explanation {
  return explainRecords(readRecords(body), verdict, url, agents, profile);
}

/** explainVerdict on the records of the file (RobotsTxt.explainAll). */
export function explainRecords(records: Records, verdict: Verdict, url: string, agents: string[], profile: Profile): Explanation {
  const groups = applicableGroups(records.groups, agentTokens(agents, profile));
  const reference = referenceVerdictOf(records, url, agents, profile);
  const path = matchedPath(url, profile);
  return {
    url,
    path,
    crawler: agents,
    profile,
    groups: groups.map((g) => ({ line: g.agents[0].line, global: g.agents.some((a) => a.global) })),
    group: describeGroups(groups, agents),
    matches: reference.matched.map((m) => ({ line: m.line, kind: m.kind, pattern: m.pattern, length: m.priority, viaIndexHtm: m.viaIndexHtm })),
    allowed: verdict.allowed,
    line: verdict.line,
    rule: verdict.rule ?? null,
    why: why(verdict.allowed, verdict.rule === undefined ? undefined : ruleText(verdict), verdict.line, reference.matched, path),
  };
}

/** `Allow: /x`, or a note when no rule matched. */
export function ruleText(v: Verdict): string {
  return v.rule === undefined ? '(no rule matched)' : matchLabel(v.rule);
}

/** A matching rule as its line reads. */
export function matchLabel(m: { kind: 'allow' | 'disallow'; pattern: string }): string {
  return `${m.kind === 'allow' ? 'Allow' : 'Disallow'}: ${m.pattern}`;
}

/** What the explanation's path is, in words (for the line that shows it). */
export function pathNote(profile: Profile): string {
  return `what the rules are compared with: path, parameters and query${traitsOf(profile).normalises ? ', normalised as RFC 3986 says' : ''}`;
}

/** Said of a match that comes from Google's index.htm rule. */
export const INDEX_HTM_NOTE = 'Google: an allow of .../index.html also allows the directory';

function matchedPath(url: string, profile: Profile): string {
  let path = pathParamsQuery(new TextEncoder().encode(url));
  if (traitsOf(profile).normalises) path = normalizePath(path);
  return new TextDecoder().decode(path);
}

function describeGroups(groups: Group[], agents: string[]): string {
  if (groups.length === 0) return `no group names ${agents.join(' or ')} and there is no "User-agent: *" group, so nothing is disallowed.`;
  const where = groups.map((g) => `line ${g.agents[0].line}`).join(', ');
  const global = groups.every((g) => g.agents.some((a) => a.global));
  const merged = groups.length > 1 ? ` (${groups.length} groups, merged)` : '';
  if (global) return `no group names ${agents.join(' or ')}; the "User-agent: *" group at ${where} applies${merged}.`;
  return `the group for ${agents.join(' or ')} at ${where} applies${merged}; "User-agent: *" groups are then ignored.`;
}

function why(allowed: boolean, rule: string | undefined, line: number, matched: ReferenceMatch[], path: string): string {
  if (path === '/robots.txt' && matched.length === 0 && allowed) return '/robots.txt itself is always allowed.';
  if (rule === undefined) return 'No rule matches, and what is not disallowed is allowed.';
  if (allowed && rule.startsWith('Disallow')) return `Only an empty "Disallow:" (line ${line}) matches, and it disallows nothing.`;
  const longest = Math.max(...matched.map((m) => m.priority));
  const top = matched.filter((m) => m.priority === longest);
  const tie = top.some((m) => m.kind === 'allow') && top.some((m) => m.kind === 'disallow');
  if (tie) return `Line ${line} (${rule}) decides: an allow and a disallow match with the same length (${longest}), and on a tie the allow wins.`;
  if (matched.length === 1) return `Line ${line} (${rule}) is the only rule that matches.`;
  if (!allowed || matched.some((m) => m.kind !== top[0].kind)) return `Line ${line} (${rule}) decides: the longest matching rule wins (length ${longest}).`;
  return `Line ${line} (${rule}) is the longest matching rule (length ${longest}).`;
}
