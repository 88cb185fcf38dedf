// `robots check FILE AGENT URL...`: one verdict per URL with the deciding line
// and rule, and what the crawler may do with the content (search, train-ai,
// ai-use: usage()'s purposes, with the lines behind them). Exit 0 when all
// are allowed, 1 when any is disallowed (as Google's tool). With --operator,
// each operator's answer per purpose (operator-option.ts), a column each.
import { parse, PURPOSES } from '../index.js';
import { compileOctets, robotsInternals } from '../engine/robots-txt.js';
import { ruleText } from '../engine/explanation.js';
import { usageOf } from '../engine/usage/usage.js';
import { controlStatementsOf } from '../engine/usage/control-tokens.js';
import { noteAgents, parseAgents, parseFormat, parseMaxOctets, parseProfile } from './options.js';
import { readRobotsFile, warnIfNotRobotsTxt } from './robots-file.js';
import { usageErrors } from './errors.js';
import { echoUrl } from './url-echo.js';
import { operatorAnswers, operatorColumn, parseOperators } from './operator-option.js';

export interface CheckOptions {
  profile: string;
  maxOctets?: string;
  /** The deprecated name of --max-octets. */
  maxBytes?: string;
  format?: string;
  /** Text: the purposes and the lines behind them as four more columns (JSON always has them). */
  usage?: boolean;
  /** Operator ids (comma-separated, repeatable; `@ai`: all). */
  operator?: string[];
}

export function checkCommand(file: string, agent: string, urls: string[], options: CheckOptions): number {
  const profile = parseProfile(options.profile);
  const json = parseFormat(options.format, 'check');
  const agents = parseAgents([agent]);
  const operators = parseOperators(options.operator);
  const maxOctets = parseMaxOctets(options);
  const bytes = readRobotsFile(file);
  warnIfNotRobotsTxt(file, bytes);
  const matcher = usageErrors(() => compileOctets(bytes, { profile, maxOctets }, agents, { ruleTexts: false }));
  noteAgents('check', agents, profile);
  // The use-preference lines of the crawler's groups, read once for every URL (the verdicts stay the matcher's).
  const robots = json || options.usage === true || operators.length > 0 ? parse(bytes, { profile, maxOctets }) : undefined;
  const usage = json || options.usage === true ? robotsInternals(robots!).crawlerUsage(agents) : undefined;
  const verdicts = urls.map((url) => {
    const v = matcher.explain(url);
    // (A crawler an operator lists: its control tokens' verdicts state purposes too, as usage() counts them.)
    const control = usage !== undefined && v.allowed ? controlStatementsOf(robotsInternals(robots!), url, agents) : undefined;
    const answers = operators.length === 0 ? undefined : usageErrors(() => operatorAnswers(robots!, url, operators));
    return { ...v, url: echoUrl(url), usage: usage === undefined ? undefined : usageOf(usage, v, url, undefined, control), answers };
  });
  if (json) {
    const list = verdicts.map(({ url, allowed, line, rule, usage: u, answers }) => ({ url, allowed, line, rule: rule ?? null, purposes: u!.purposes, signals: u!.signals, ...(answers === undefined ? {} : { operators: answers }) }));
    process.stdout.write(JSON.stringify(list) + '\n');
  } else {
    for (const v of verdicts) {
      let row = `${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${v.url}\t${echoUrl(ruleText(v))}`;
      if (v.usage !== undefined) {
        // The lines that set a purpose, each once, in file order (0: a response header; none here).
        const lines = [...new Set(v.usage.signals.filter((s) => s.purpose !== undefined).map((s) => s.line))];
        row += `\t${PURPOSES.map((p) => v.usage!.purposes[p]).join('\t')}\t${lines.length === 0 ? '-' : lines.join(',')}`;
      }
      if (v.answers !== undefined) row += v.answers.map((a) => `\t${operatorColumn(a)}`).join('');
      process.stdout.write(`${row}\n`);
    }
  }
  return verdicts.every((v) => v.allowed) ? 0 : 1;
}
