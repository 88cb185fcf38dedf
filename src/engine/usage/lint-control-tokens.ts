// lint()'s findings on control tokens (Google-Extended, Applebot-Extended: the
// names src/data/operators.ts lists as CONTROL_TOKENS): tokens nothing fetches
// as, whose group states a preference about the use of what the operator's
// crawlers fetch. A name that looks like one but is not counts for nothing; rules
// written for crawling in a control token's group do not do what they seem to.
import { CONTROL_TOKENS, OPERATORS, type OperatorControlToken } from '../../data/operators.js';
import { AI_CRAWLERS } from '../../data/ai-crawlers.js';
import { GOOGLE_CRAWLERS } from '../../data/google-crawlers.js';
import type { Group, Records } from '../parse/records.js';
import { asciiLower } from '../../text/ascii.js';

export type ControlTokenLintCode = 'misspelt-control-token' | 'control-token-crawler-rules';

export interface ControlTokenFinding {
  line: number;
  code: ControlTokenLintCode;
  message: string;
}

/** A name without case, hyphens, underscores, spaces or other marks: "Google_Extended" is "googleextended". */
const letters = (s: string) => asciiLower(s).replace(/[^a-z]+/g, '');

interface Control { token: OperatorControlToken; lower: string; letters: string }
let controlList: readonly Control[] | undefined;
/** The control tokens, each with its lower case and letters: made on first use, not at import (an ES import of
 * the package evaluates this module). */
const controlTable = (): readonly Control[] => (controlList ??= CONTROL_TOKENS.map((c) => ({ token: c, lower: asciiLower(c.token), letters: letters(c.token) })));
const isControl = (lower: string) => controlTable().some((c) => c.lower === lower);
let crawlerNameSet: ReadonlySet<string> | undefined;
/** Names of real crawlers (which may sit near a control token): never read as a misspelling. Made on the first
 * use, not at import: a process that loads the linter without linting (every run of the command) builds none. */
function crawlerNames(): ReadonlySet<string> {
  crawlerNameSet ??= new Set([
    ...OPERATORS.flatMap((o) => o.crawlers.map((c) => asciiLower(c.token))),
    ...AI_CRAWLERS.map((c) => asciiLower(c.name)),
    ...GOOGLE_CRAWLERS.map((c) => asciiLower(c.name)),
  ]);
  return crawlerNameSet;
}
/** Edits (a letter added, dropped, changed, or two swapped) within which a name is read as a control token misspelt. */
const MAX_EDITS = 2;

/** The restricted Damerau-Levenshtein distance of a and b, or MAX_EDITS + 1 when over it (names of
 * lengths further apart are not compared: a 16 KiB name costs nothing). */
function edits(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > MAX_EDITS) return MAX_EDITS + 1;
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row.push(d);
    }
    before = prev;
    prev = row;
  }
  return Math.min(prev[b.length], MAX_EDITS + 1);
}

/** The control token a user-agent value seems meant to name, or undefined (it names one, or none is near). */
function meantControlToken(token: string, value: string): OperatorControlToken | undefined {
  if (isControl(token)) return undefined;
  const written = letters(value);
  for (const c of controlTable()) if (written === c.letters) return c.token;
  if (token === '' || crawlerNames().has(token)) return undefined;
  for (const c of controlTable()) if (edits(token, c.lower) <= MAX_EDITS) return c.token;
  return undefined;
}

/** The operator's words for what a control token governs ("train-ai and ai-use"). */
const governs = (c: OperatorControlToken) => c.governs.join(' and ');

/** An Allow/Disallow of every path (`/`, `/*`, an empty Disallow: nothing), which a control token's group is for. */
function everyPath(kind: string, value: string): boolean {
  return /^\/\**$/.test(value) || (kind === 'disallow' && value === '');
}

/** A group's Allow/Disallow rules as a comparable text (kind and path, in order). */
function rulesText(records: Records, g: Group): string {
  const decoder = new TextDecoder();
  return g.rules.map((r) => `${r.kind} ${decoder.decode(records.body.subarray(r.start, r.end))}`).join('\n');
}

/**
 * The findings, in no particular order:
 * - misspelt-control-token: a user-agent value that is not a control token nor a
 *   known crawler's name, within two edits of a control token's name (case aside),
 *   or with its letters (hyphens, underscores and spaces aside) ("GoogleExtended",
 *   "Google-Extend", "Google_Extended"): it names no one, so its group states nothing.
 * - control-token-crawler-rules: a control token's group whose lines look written
 *   for a crawler: (1) a crawl-delay after user-agent lines that name control
 *   tokens only (nothing fetches as one); (2) a group naming a control token and a
 *   crawler (or `*`) with a rule that is not of every path: rules written for
 *   crawling then also say, path by path, what the operator may use the content
 *   for; (3) a group naming control tokens only whose rules, not all of every path,
 *   are those of a group that names crawlers (crawl rules copied under it). A
 *   control token's group of its own with a partial Disallow is a preference by
 *   path, which the rules allow: no finding.
 */
export function controlTokenFindings(records: Records, values: ReadonlyMap<number, string>): ControlTokenFinding[] {
  const found: ControlTokenFinding[] = [];
  for (const g of records.groups) {
    for (const a of g.agents) {
      if (a.global) continue;
      const meant = meantControlToken(a.lower, values.get(a.line) ?? '');
      if (meant !== undefined) {
        found.push({
          line: a.line,
          code: 'misspelt-control-token',
          message: `"${(values.get(a.line) ?? a.lower).slice(0, 60)}" names no crawler: it looks like ${meant.token} misspelt, the control token by which ${operatorName(meant)} reads a preference for ${governs(meant)}; it counts only as written (case aside): write "User-agent: ${meant.token}"`,
        });
      }
    }
  }
  for (const run of records.delayRuns) {
    if (run.delay === undefined || run.agents.length === 0 || !run.agents.every((a) => !a.wildcard && isControl(a.lower))) continue;
    const names = run.agents.map((a) => controlTable().find((c) => c.lower === a.lower)!.token.token);
    found.push({
      line: run.agents[0].line,
      code: 'control-token-crawler-rules',
      message: `a crawl-delay (${run.delay} s) for ${names.join(', ')} applies to no crawler: a control token names no crawler (nothing fetches as it); a crawl-delay belongs to the crawler's own group`,
    });
  }
  const crawlerRules = new Set<string>();
  for (const g of records.groups) if (g.agents.some((a) => a.global || !isControl(a.lower))) crawlerRules.add(rulesText(records, g));
  const decoder = new TextDecoder();
  for (const g of records.groups) {
    const controls = g.agents.filter((a) => !a.global && isControl(a.lower));
    if (controls.length === 0) continue;
    const partial = g.rules.find((r) => !everyPath(r.kind, decoder.decode(records.body.subarray(r.start, r.end))));
    if (partial === undefined) continue;
    const token = controlTable().find((c) => c.lower === controls[0].lower)!.token;
    const crawlers = g.agents.filter((a) => a.global || !isControl(a.lower));
    const use = `which paths' content ${operatorName(token)} may use for ${governs(token)} (all but those they disallow)`;
    if (crawlers.length > 0) {
      found.push({
        line: partial.line,
        code: 'control-token-crawler-rules',
        message: `this group names the control token ${token.token} with crawlers, and rules not of every path: written for crawling, they also say ${use}; to opt out of that use, give ${token.token} a group of its own ("Disallow: /")`,
      });
    } else if (crawlerRules.has(rulesText(records, g))) {
      found.push({
        line: partial.line,
        code: 'control-token-crawler-rules',
        message: `these rules are a crawler's group's, copied under ${token.token}, which names no crawler: they stop no fetch, and say ${use}; to opt out of that use, write "Disallow: /" in its group`,
      });
    }
  }
  return found;
}

const operatorName = (c: OperatorControlToken) => OPERATORS.find((o) => o.id === c.operator)?.name ?? c.operator;
