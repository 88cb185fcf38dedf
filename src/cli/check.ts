// `robots check FILE AGENT URL...`: one verdict per URL with the deciding line
// and rule. Exit 0 when all are allowed, 1 when any is disallowed (as Google's tool).
import type { Verdict } from '../index.js';
import { compileAgents } from './classify-config.js';
import { parseAgents, parseMaxBytes, parseProfile } from './options.js';
import { readRobotsFile } from './robots-file.js';

export interface CheckOptions {
  profile: string;
  maxBytes: string;
}

export function checkCommand(file: string, agent: string, urls: string[], options: CheckOptions): number {
  const profile = parseProfile(options.profile);
  const matcher = compileAgents(readRobotsFile(file), { agents: parseAgents([agent]), profile, maxBytes: parseMaxBytes(options.maxBytes) });
  let anyDisallowed = false;
  for (const url of urls) {
    const v = matcher.explain(url);
    anyDisallowed ||= !v.allowed;
    process.stdout.write(`${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${url}\t${ruleText(v)}\n`);
  }
  return anyDisallowed ? 1 : 0;
}

export function ruleText(v: Verdict): string {
  if (v.rule === undefined) return '(no rule matched)';
  return `${v.rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${v.rule.pattern}`;
}
