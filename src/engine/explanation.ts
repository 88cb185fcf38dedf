// Why a URL gets its verdict, in words a webmaster understands: which groups
// applied, every rule that matched with its length, which one decided and why,
// and what the crawler may do with the content (usage(): per purpose, with the
// Content-Usage and Content-Signal lines behind each).
// Shared by `robots explain` and the tester page (portable: no Node module).
// The verdict is the engine's; the list of matching rules comes from the plain
// reference matcher (rule by rule), which the tests hold equal to the engine.
import { applicableGroups, agentTokens } from './parse/agents.js';
import type { Verdict } from './match/matcher.js';
import { traitsOf, type Profile } from './parse/profile.js';
import { readRecords, type Group, type Records } from './parse/records.js';
import { comparedPath, referenceVerdictOf, type ReferenceMatch } from './reference.js';
import type { ControlStatement } from './usage/control-tokens.js';
import { crawlerUsage, usageOf, type Preference, type Purpose, type Purposes, type Usage, type UsageOptions, type UsageSignal } from './usage/usage.js';

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
  /** What the crawler may do with the content, per purpose: usage()'s (nothing from robots.txt for a URL it may not fetch). */
  purposes: Purposes;
  /** usage()'s signals: every key of a use preference that counted, with its line. */
  signals: UsageSignal[];
}

/** The explanation of `verdict` (the engine's, for `url` and `agents`) on the octets `body` as parsed (already cut at maxOctets). */
export function explainVerdict(body: Uint8Array, verdict: Verdict, url: string, agents: string[], profile: Profile, options?: UsageOptions): Explanation {
  return explainRecords(readRecords(body, profile), verdict, url, agents, profile, options);
}

/** explainVerdict on the records of the file (RobotsTxt.explainAll). */
export function explainRecords(records: Records, verdict: Verdict, url: string, agents: string[], profile: Profile, options?: UsageOptions, control?: readonly ControlStatement[]): Explanation {
  const groups = applicableGroups(records.groups, agentTokens(agents, profile));
  const lines = crawlerUsage(groups, profile);
  let usage: Usage;
  try {
    usage = usageOf(lines, verdict, url, options, control);
  } finally {
    lines.paths?.dispose(); // (read for this URL alone: its path patterns' matcher is not kept in the pool)
  }
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
    purposes: usage.purposes,
    signals: usage.signals,
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
  return new TextDecoder().decode(comparedPath(url, profile));
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

/** The purposes in a phrase: "search allowed, train-ai disallowed, ai-use unknown". */
export function purposesText(purposes: Record<Purpose, Preference>): string {
  return (Object.keys(purposes) as Purpose[]).map((p) => `${p} ${purposes[p]}`).join(', ');
}

/** A signal as its line reads, its key alone: `Content-Signal: ai-train=no`, `Content-Usage: /blog/ train-ai=y`;
 * a response header's says so (`Content-Usage header: train-ai=n`). */
export function signalLabel(s: UsageSignal): string {
  // (A control token's verdict: the group that decides it is the token's, else `*`'s.)
  if (s.field === 'control-token') return `control token ${s.value}: ${s.preference === 'allowed' ? 'allowed' : 'disallowed'}`;
  const field = s.field === 'content-usage' ? 'Content-Usage' : 'Content-Signal';
  return `${field}${s.header ? ' header' : ''}: ${s.path === undefined ? '' : `${s.path} `}${s.value}`;
}

/** What a signal says, in words: the purpose it sets, or why it sets none. */
export function signalNote(s: UsageSignal): string {
  if (s.purpose !== undefined) return `${s.purpose} ${s.preference}`;
  if (s.invalid) return 'not a structured-field Dictionary (RFC 9651): the line says nothing';
  if (s.legacy) return 'a label of an earlier AIPREF draft: ignored';
  return 'speaks to no purpose: ignored';
}

/** Why the purposes are what they are, in a sentence. */
export function usageWhy(e: Pick<Explanation, 'allowed' | 'signals'>): string {
  const headers = e.signals.some((s) => s.header);
  if (!e.allowed) {
    return `robots.txt implies no use preference for a URL the crawler may not fetch (AIPREF attach)${headers ? "; the page's headers still count" : ''}.`;
  }
  const parts: string[] = [];
  if (e.signals.some((s) => s.field === 'content-usage' && !s.header)) parts.push('the Content-Usage rule of the longest pattern that matches the path decides (rules of that pattern combine)');
  if (e.signals.some((s) => s.field === 'content-signal' && !s.header)) parts.push("every Content-Signal line of the crawler's groups counts");
  if (e.signals.some((s) => s.field === 'control-token')) parts.push("a control token's verdict states the purposes it governs for its operator's crawler (its own group's verdict; without one, only a `*` disallow)");
  if (parts.length === 0) parts.push("no Content-Usage or Content-Signal line of the crawler's groups speaks to this path");
  if (headers) parts.push("so do the page's headers");
  if (e.signals.filter((s) => s.purpose !== undefined).length > 1) parts.push('per purpose, any disallowed wins, then allowed');
  const sentence = parts.join('; ');
  return `${sentence[0].toUpperCase()}${sentence.slice(1)}.`;
}
