// `robots explain FILE AGENT URL`: which group applied, every rule that matched
// with its length, which one decided and why, and the purposes (search,
// train-ai, ai-use) with the lines behind them (engine/explanation.ts, which
// the tester page shows too), as text or JSON.
import { parse } from '../index.js';
import { INDEX_HTM_NOTE, matchLabel, pathNote, purposesText, signalLabel, signalNote, usageWhy } from '../engine/explanation.js';
import { usageErrors } from '../bulk/classify-config.js';
import { noteAgents, parseAgents, parseFormat, parseMaxOctets, parseProfile } from './options.js';
import { readRobotsFile, warnIfNotRobotsTxt } from './robots-file.js';
import { echoUrl } from './url-echo.js';

export interface ExplainOptions {
  profile: string;
  maxOctets?: string;
  /** The deprecated name of --max-octets. */
  maxBytes?: string;
  format?: string;
}

export function explainCommand(file: string, agent: string, url: string, options: ExplainOptions): number {
  const profile = parseProfile(options.profile);
  const maxOctets = parseMaxOctets(options);
  const agents = parseAgents([agent]);
  const body = readRobotsFile(file);
  warnIfNotRobotsTxt(file, body);
  const e = usageErrors(() => parse(body, { profile, maxOctets }).explainAll(url, agents));
  noteAgents('explain', agents, profile);

  if (parseFormat(options.format, 'explain')) {
    const { group: _, ...json } = e;
    process.stdout.write(JSON.stringify({ ...json, url: echoUrl(url) }) + '\n');
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
  process.stdout.write(lines.join('\n') + '\n');
  return e.allowed ? 0 : 1;
}
