// `robots explain FILE AGENT URL`: which group applied, every rule that matched
// with its length, which one decided and why, in words a webmaster understands.
// The verdict is the engine's; the list of matching rules comes from the plain
// reference matcher (rule by rule), which the tests hold equal to the engine.
import { applicableGroups, crawlerNames } from '../../engine/agents.js';
import type { Profile } from '../../engine/pattern.js';
import { readRecords, type Group } from '../../engine/records.js';
import { normalizePath, pathParamsQuery, referenceVerdict, type ReferenceMatch } from '../../engine/reference.js';
import { compileAgents } from './classify-config.js';
import { ruleText } from './check.js';
import { parseAgents, parseFormat, parseMaxBytes, parseProfile } from './options.js';
import { readRobotsFile } from './robots-file.js';

export interface ExplainOptions {
  profile: string;
  maxBytes: string;
  format?: string;
}

export function explainCommand(file: string, agent: string, url: string, options: ExplainOptions): number {
  const profile = parseProfile(options.profile);
  const maxBytes = parseMaxBytes(options.maxBytes);
  const agents = parseAgents([agent]);
  const whole = readRobotsFile(file);
  const verdict = compileAgents(whole, { agents, profile, maxBytes }).explain(url);
  const body = whole.subarray(0, Math.min(whole.length, maxBytes));
  const records = readRecords(body);
  const groups = applicableGroups(records.groups, crawlerNames(agents, profile));
  const reference = referenceVerdict(body, url, agents, profile);
  const path = matchedPath(url, profile);
  const because = why(verdict.allowed, verdict.rule === undefined ? undefined : ruleText(verdict), verdict.line, reference.matched, path);

  if (parseFormat(options.format)) {
    process.stdout.write(JSON.stringify({
      url,
      path,
      crawler: agents,
      profile,
      groups: groups.map((g) => ({ line: g.agents[0].line, global: g.agents.some((a) => a.global) })),
      matches: reference.matched.map((m) => ({ line: m.line, kind: m.kind, pattern: m.pattern, length: m.priority, viaIndexHtm: m.viaIndexHtm })),
      allowed: verdict.allowed,
      line: verdict.line,
      rule: verdict.rule ?? null,
      why: because,
    }) + '\n');
    return verdict.allowed ? 0 : 1;
  }
  const lines: string[] = [];
  lines.push(`URL:      ${url}`);
  lines.push(`Path:     ${path}  (what the rules are compared with: path, parameters and query${profile === 'rfc' ? ', normalised as RFC 3986 says' : ''})`);
  lines.push(`Crawler:  ${agents.join(', ')}  (profile ${profile})`);
  lines.push(`Group:    ${describeGroups(groups, agents)}`);
  if (reference.matched.length === 0) {
    lines.push('Rules:    none of the group\'s rules matches this path.');
  } else {
    lines.push('Rules that match (length = octets of the pattern, counting * and $):');
    for (const m of reference.matched) lines.push(`  line ${m.line}: ${label(m)}  length ${m.priority}${m.viaIndexHtm ? '  (Google: an allow of .../index.html also allows the directory)' : ''}`);
  }
  lines.push(`Verdict:  ${verdict.allowed ? 'ALLOWED' : 'DISALLOWED'}. ${because}`);
  process.stdout.write(lines.join('\n') + '\n');
  return verdict.allowed ? 0 : 1;
}

function label(m: ReferenceMatch): string {
  return `${m.kind === 'allow' ? 'Allow' : 'Disallow'}: ${m.pattern}`;
}

function matchedPath(url: string, profile: Profile): string {
  let path = pathParamsQuery(new TextEncoder().encode(url));
  if (profile === 'rfc') path = normalizePath(path);
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
