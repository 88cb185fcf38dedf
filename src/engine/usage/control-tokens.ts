// Control tokens (src/data/operators.ts): tokens nothing fetches as, whose
// verdict for a URL states a use preference for the purposes each governs
// (Google-Extended: Google's train-ai and ai-use). The rule (issue 40, item 3;
// docs/library.md#use-preferences):
//   - a control token named by a group of its own states its purposes
//     `allowed` or `disallowed` by its verdict for the URL, with that line;
//   - one without a group of its own states `disallowed` where the `*` groups
//     disallow the URL, and nothing otherwise: a `*` allow is a statement
//     about fetching, not about AI.
// A crawler an operator lists gets the statements of that operator's control
// tokens for the purposes both the crawler fetches for and the token governs.
import { OPERATORS, type Operator } from '../../data/operators.js';
import type { Purpose } from './vocabulary.js';
import { asciiLower } from '../../text/ascii.js';

/** A control token's statement for a URL: what its verdict says of its purposes, and the line. */
export interface ControlStatement {
  token: string;
  purposes: readonly Purpose[];
  preference: 'allowed' | 'disallowed';
  /** The verdict's deciding line (0: none). */
  line: number;
}

/** The control tokens that speak for a crawler, and for which of its purposes. */
export interface ControlTokenUse {
  token: string;
  purposes: Purpose[];
  /** The token in ASCII lower case (what namedAgents() holds), when known. */
  lower?: string;
}

/** What a RobotsTxt answers for a control token: its verdict, and whether a group names it. */
export interface ControlVerdicts {
  explain(url: string, agent: string | readonly string[]): { allowed: boolean; line: number };
  /** explain()'s allowed and line alone, where the source finds them for less (RobotsTxt: without the rule's text). */
  verdict?(url: string, agent: string): { allowed: boolean; line: number };
  /** The product tokens the user-agent lines name (lower case, `*` aside): asked only whether it holds one. */
  namedAgents(): { has(token: string): boolean };
  /** No file to state anything (RobotsCache: an unavailable or unreachable robots.txt). */
  readonly statesNothing?: boolean;
}

/** The control tokens of the operators that list any of the agent's tokens as a crawler, with the
 * purposes each states for it (those the crawler fetches for that the token governs), in data order. */
export function controlTokensFor(agent: string | readonly string[], operators: readonly Operator[]): ControlTokenUse[] {
  const names = (typeof agent === 'string' ? [agent] : agent).filter((a): a is string => typeof a === 'string').map(asciiLower);
  const uses: ControlTokenUse[] = [];
  for (const o of operators) {
    for (const c of o.crawlers) {
      if (!names.includes(asciiLower(c.token))) continue;
      for (const t of o.controlTokens) {
        const purposes = t.governs.filter((p) => c.purposes.includes(p));
        if (purposes.length === 0) continue;
        const same = uses.find((u) => u.token === t.token);
        if (same === undefined) uses.push({ token: t.token, purposes, lower: asciiLower(t.token) });
        else same.purposes = [...new Set([...same.purposes, ...purposes])];
      }
    }
  }
  return uses;
}

/** The statement a control token makes for url (see the header), or undefined when it makes none. */
export function controlStatement(robots: ControlVerdicts, url: string, use: ControlTokenUse): ControlStatement | undefined {
  if (robots.statesNothing === true) return undefined;
  const verdict = robots.verdict !== undefined ? robots.verdict(url, use.token) : robots.explain(url, use.token);
  const named = robots.namedAgents().has(use.lower ?? asciiLower(use.token));
  if (!named && verdict.allowed) return undefined;
  return { token: use.token, purposes: use.purposes, preference: verdict.allowed ? 'allowed' : 'disallowed', line: verdict.line };
}

// The shipped data does not change: a crawler asking URL after URL finds its control tokens once.
let lastAgent: string | undefined;
let lastUses: ControlTokenUse[] = [];
let lastGivenAgent: string | undefined;
let lastGiven: readonly Operator[] | undefined;
let lastGivenUses: ControlTokenUse[] = [];

/** controlTokensFor() of the shipped operators (or of `operators` when given). */
export function controlTokensOf(agent: string | readonly string[], operators: readonly Operator[] | undefined): ControlTokenUse[] {
  if (operators !== undefined) {
    // (operatorUsage() asks with one list per operator, crawler after crawler, URL after URL.)
    if (typeof agent === 'string' && agent === lastGivenAgent && operators === lastGiven) return lastGivenUses;
    const uses = controlTokensFor(agent, operators);
    if (typeof agent === 'string') {
      lastGivenAgent = agent;
      lastGiven = operators;
      lastGivenUses = uses;
    }
    return uses;
  }
  if (typeof agent === 'string' && agent === lastAgent) return lastUses;
  const uses = controlTokensFor(agent, OPERATORS);
  if (typeof agent === 'string') {
    lastAgent = agent;
    lastUses = uses;
  }
  return uses;
}

/** The operator of an id in `operators` (default: the shipped data), or the Operator given; a TypeError names the known ids. */
export function operatorOf(operator: string | Operator, operators: readonly Operator[] = OPERATORS): Operator {
  if (typeof operator === 'object' && operator !== null && Array.isArray((operator as Operator).crawlers)) return operator;
  if (typeof operator === 'string') {
    // (A loop, not find(): an operator's answer looks its id up URL after URL.)
    for (let i = 0; i < operators.length; i++) if (operators[i].id === operator) return operators[i];
    throw new TypeError(`unknown operator ${JSON.stringify(operator.slice(0, 80))}: known: ${operators.map((o) => o.id).join(', ')}`);
  }
  throw new TypeError(`operator must be an operator id (e.g. "google") or an Operator object, got ${operator === null ? 'null' : typeof operator}`);
}

/** What the control tokens of the operators listing the agent as a crawler state for url (undefined: none speaks for it). */
export function controlStatementsOf(robots: ControlVerdicts, url: string, agent: string | readonly string[], operators?: readonly Operator[]): ControlStatement[] | undefined {
  return statementsOfUses(robots, url, controlTokensOf(agent, operators));
}

/** What the control tokens `uses` state for url (undefined: no use given). */
export function statementsOfUses(robots: ControlVerdicts, url: string, uses: readonly ControlTokenUse[]): ControlStatement[] | undefined {
  if (uses.length === 0) return undefined;
  const statements: ControlStatement[] = [];
  for (const use of uses) {
    const s = controlStatement(robots, url, use);
    if (s !== undefined) statements.push(s);
  }
  return statements;
}

/** What tells crawlers of the same groups apart in usage(): the control tokens that speak for each ('' for none). */
export function controlKey(agent: string | readonly string[], operators?: readonly Operator[]): string {
  const uses = controlTokensOf(agent, operators);
  return uses.length === 0 ? '' : `;${uses.map((c) => `${c.token}:${c.purposes.join(',')}`).join(';')}`;
}
