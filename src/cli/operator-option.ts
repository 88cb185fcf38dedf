// --operator of `explain` and `check`: operators by id (src/data/operators.ts),
// comma-separated or repeated, `@ai` for all of them, and their answers in
// words (RobotsTxt.operatorUsage: per purpose, may its crawler fetch, what the
// site says of the use, and one word for both).
import { OPERATORS, type Operator, type OperatorUsage, type RobotsTxt, PURPOSES } from '../index.js';
import { ruleText, signalLabel, signalNote } from '../engine/explanation.js';
import { shownText } from '../text/shown-text.js';
import { CliError } from './errors.js';
import { echoUrl } from './url-echo.js';

/** The ids as errors and help name them. */
export const OPERATOR_IDS = OPERATORS.map((o) => o.id).join(', ');

/** The operators of --operator's values (split at commas), each once, in the order given; `@ai` (or `all`, audit's
 * first spelling): all, in the data's order. `option` names the flag in errors (explain and check: --operator). */
export function parseOperators(values: readonly string[] | undefined, option = '--operator'): Operator[] {
  if (values === undefined) return [];
  const out: Operator[] = [];
  for (const id of values.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '')) {
    const lower = id.toLowerCase();
    const found = lower === '@ai' || lower === 'all' ? OPERATORS : OPERATORS.filter((o) => o.id === lower);
    if (found.length === 0) throw new CliError(`${option}: unknown operator ${JSON.stringify(shownText(id))}: the operators are ${OPERATOR_IDS} (or @ai for all)`);
    for (const o of found) if (!out.includes(o)) out.push(o);
  }
  if (out.length === 0) throw new CliError(`${option}: no operator given: the operators are ${OPERATOR_IDS} (or @ai for all)`);
  return out;
}

/** Each operator's answer for url. */
export function operatorAnswers(robots: RobotsTxt, url: string, operators: readonly Operator[]): OperatorUsage[] {
  return operators.map((o) => robots.operatorUsage(url, o));
}

/** A crawler's verdict in words: `GPTBot may fetch (line 4: Allow: /a)`, `GPTBot may fetch (no rule matched)`. */
function fetchText(robots: RobotsTxt, url: string, f: { crawler: string; allowed: boolean; line: number }): string {
  const rule = f.line === 0 ? 'no rule matched' : `line ${f.line}: ${echoUrl(ruleText(robots.explain(url, f.crawler)))}`;
  return `${f.crawler} ${f.allowed ? 'may fetch' : 'may not fetch'} (${rule})`;
}

/** explain's text for the operators' answers: per operator, a line a purpose, then the statements behind its preference. */
export function operatorsText(robots: RobotsTxt, url: string, answers: readonly OperatorUsage[]): string[] {
  const lines = ['Operators: per purpose, yes when the crawler for it may fetch the URL and the site does not disallow the use; unknown when no crawler of the operator fetches for it.'];
  for (const a of answers) {
    lines.push(`  ${a.operator.name} (${a.operator.id})`);
    for (const p of PURPOSES) {
      const q = a.purposes[p];
      const fetch = q.fetch === undefined ? `no crawler of ${a.operator.name} fetches for ${p}` : fetchText(robots, url, q.fetch);
      lines.push(`    ${p.padEnd(8)}  ${q.answer.padEnd(7)}  ${fetch}; preference ${q.preference}`);
      for (const s of q.signals) lines.push(`      line ${s.line}: ${echoUrl(signalLabel(s))}  (${signalNote(s)})`);
    }
    for (const u of a.user) lines.push(`    user      ${fetchText(robots, url, u)}, when a person asks (robots.txt: ${u.respectsRobots})`);
  }
  return lines;
}

/** check's column for one answer: `openai:yes,no,unknown` (search, train-ai, ai-use). */
export function operatorColumn(a: OperatorUsage): string {
  return `${a.operator.id}:${PURPOSES.map((p) => a.purposes[p].answer).join(',')}`;
}
