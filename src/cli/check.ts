// `robots check FILE AGENT URL...`: one verdict per URL with the deciding line
// and rule. Exit 0 when all are allowed, 1 when any is disallowed (as Google's tool).
import { ruleText } from '../engine/explanation.js';
import { compileAgents } from '../bulk/classify-config.js';
import { noteAgents, parseAgents, parseFormat, parseMaxOctets, parseProfile } from './options.js';
import { readRobotsFile, warnIfNotRobotsTxt } from './robots-file.js';
import { echoUrl } from './url-echo.js';

export interface CheckOptions {
  profile: string;
  maxOctets?: string;
  /** The deprecated name of --max-octets. */
  maxBytes?: string;
  format?: string;
}

export function checkCommand(file: string, agent: string, urls: string[], options: CheckOptions): number {
  const profile = parseProfile(options.profile);
  const json = parseFormat(options.format, 'check');
  const agents = parseAgents([agent]);
  const bytes = readRobotsFile(file);
  warnIfNotRobotsTxt(file, bytes);
  const matcher = compileAgents(bytes, { agents, profile, maxOctets: parseMaxOctets(options) });
  noteAgents('check', agents, profile);
  const verdicts = urls.map((url) => ({ ...matcher.explain(url), url: echoUrl(url) }));
  if (json) {
    process.stdout.write(JSON.stringify(verdicts.map(({ url, allowed, line, rule }) => ({ url, allowed, line, rule: rule ?? null }))) + '\n');
  } else {
    for (const v of verdicts) process.stdout.write(`${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${v.url}\t${echoUrl(ruleText(v))}\n`);
  }
  return verdicts.every((v) => v.allowed) ? 0 : 1;
}

