// `robots explain FILE AGENT URL`: which group applied, every rule that matched
// with its length, which one decided and why, and the purposes (search,
// train-ai, ai-use) with the lines behind them (engine/explanation.ts, which
// the tester page shows too), as text or JSON; with --operator, each operator's
// answer per purpose (operator-option.ts).
import { parse } from '../index.js';
import { INDEX_HTM_NOTE, matchLabel, pathNote, purposesText, signalLabel, signalNote, usageWhy } from '../engine/explanation.js';
import { noteAgents, parseAgents, parseFormat, parseMaxOctets, parseProfile } from './options.js';
import { readRobotsFile, warnIfNotRobotsTxt } from './robots-file.js';
import { usageErrors } from './errors.js';
import { echoUrl } from './url-echo.js';
import { operatorAnswers, operatorsText, parseOperators } from './operator-option.js';

export interface ExplainOptions {
  profile: string;
  maxOctets?: string;
  /** The deprecated name of --max-octets. */
  maxBytes?: string;
  format?: string;
  /** Operator ids (comma-separated, repeatable; `@ai`: all). */
  operator?: string[];
}

export function explainCommand(file: string, agent: string, url: string, options: ExplainOptions): number {
  const profile = parseProfile(options.profile);
  const maxOctets = parseMaxOctets(options);
  const agents = parseAgents([agent]);
  const operators = parseOperators(options.operator);
  const json = parseFormat(options.format, 'explain');
  const body = readRobotsFile(file);
  warnIfNotRobotsTxt(file, body);
  const robots = usageErrors(() => parse(body, { profile, maxOctets }));
  const e = usageErrors(() => robots.explainAll(url, agents));
  const answers = operators.length === 0 ? undefined : usageErrors(() => operatorAnswers(robots, url, operators));
  noteAgents('explain', agents, profile);

  if (json) {
    const { group: _, ...fields } = e;
    process.stdout.write(JSON.stringify({ ...fields, url: echoUrl(url), ...(answers === undefined ? {} : { operators: answers }) }) + '\n');
    return e.allowed ? 0 : 1;
  }
  const lines: string[] = [];
  lines.push(`URL:      ${echoUrl(url)}`);
  lines.push(`Path:     ${echoUrl(e.path)}  (${pathNote(profile)})`);
  lines.push(`Crawler:  ${agents.join(', ')}  (profile ${profile})`);
  lines.push(`Group:    ${e.group}`);
  if (e.matches.length === 0) {
    lines.push('Rules:    none of the group\'s rules matches this path.');
  } else {
    lines.push('Rules that match (length = octets of the pattern, counting * and $):');
    for (const m of e.matches) lines.push(`  line ${m.line}: ${matchLabel(m)}  length ${m.length}${m.viaIndexHtm ? `  (${INDEX_HTM_NOTE})` : ''}`);
  }
  lines.push(`Verdict:  ${e.allowed ? 'ALLOWED' : 'DISALLOWED'}. ${e.why}`);
  lines.push(`Purposes: ${purposesText(e.purposes)}. ${usageWhy(e)}`);
  for (const s of e.signals) lines.push(`  line ${s.line}: ${echoUrl(signalLabel(s))}  (${signalNote(s)})`);
  if (answers !== undefined) lines.push(...operatorsText(robots, url, answers));
  process.stdout.write(lines.join('\n') + '\n');
  return e.allowed ? 0 : 1;
}
