// One operator's answer for a URL (issue 40, item 4): per purpose (search,
// train-ai, ai-use), may the operator's crawler for that purpose fetch the URL,
// what the site says about that use (usage() for that crawler: its groups'
// Content-Usage and Content-Signal lines and the operator's control tokens),
// and one word for both, since "may GPTBot fetch and train on this" is one
// question:
//   - no crawler of the operator fetches for the purpose: unknown (its control
//     tokens' statements are still given as the preference);
//   - the crawler may not fetch the URL, or the site disallows the use: no;
//   - else yes (an unknown preference is no objection: the site does not
//     disallow that use).
// The crawler for a purpose is the first the data lists for it (the operator's
// main one: Googlebot before GoogleOther). Crawlers that fetch for a person
// (`user`) serve no purpose of their own: they are listed apart, with their verdicts.
// Work is shared between purposes: one usage() per distinct crawler, whose
// verdict is also its verdict as a `user` crawler, and one statement per
// control token for the purposes no crawler fetches for.
import type { Operator, OperatorCrawler, RobotsStance } from '../data/operators.js';
import { controlStatement, type ControlStatement, type ControlVerdicts } from './control-tokens.js';
import { combine, PURPOSES, type Preference, type Purpose } from './parse/usage-vocabulary.js';
import type { Usage, UsageOptions, UsageSignal } from './usage.js';

/** The word for one purpose: may the crawler fetch it, and the site does not disallow that use. */
export type UsageAnswer = 'yes' | 'no' | 'unknown';

/** A crawler's verdict for the URL. */
export interface CrawlerFetch {
  /** Its product token. */
  crawler: string;
  allowed: boolean;
  /** The verdict's deciding line (0: none). */
  line: number;
}

/** What is known of one purpose for the operator. */
export interface PurposeAnswer {
  /** The verdict of the crawler that fetches for this purpose; undefined when the operator lists none. */
  fetch: CrawlerFetch | undefined;
  /** What the site says about this use, for that crawler (usage()'s), or from the control tokens alone without one. */
  preference: Preference;
  answer: UsageAnswer;
  /** The statements about this purpose behind `preference`, in file order, then the headers'. */
  signals: UsageSignal[];
}

/** One operator's answer for a URL. */
export interface OperatorUsage {
  operator: { id: string; name: string };
  purposes: Record<Purpose, PurposeAnswer>;
  /** Crawlers that fetch when a person asks (not a purpose): their verdicts, and what the operator says of robots.txt for them. */
  user: (CrawlerFetch & { respectsRobots: RobotsStance })[];
}

export interface OperatorUsageOptions extends UsageOptions {}

/** What operatorUsage() asks of a RobotsTxt (or of a RobotsCache's entry). */
export interface OperatorSource extends ControlVerdicts {
  usage(url: string, agent: string | readonly string[], options?: UsageOptions): Usage;
}

/** The operator's answer for url (see the header); `options.operators` is replaced by [operator]. */
export function operatorUsageOf(robots: OperatorSource, url: string, operator: Operator, options?: UsageOptions): OperatorUsage {
  const plan = planOf(operator);
  const ask: UsageOptions = options === undefined ? plan.ask : { ...options, operators: plan.ask.operators };
  // usage() of each distinct crawler (plan.fetchers), asked when a purpose or a user crawler first needs it.
  const usages: (Usage | undefined)[] = [];
  const usageOf = (i: number) => (usages[i] ??= robots.usage(url, plan.fetchers[i], ask));
  // Each control token's statement for the URL, found when a purpose without a crawler first asks (null: not yet).
  let statements: (ControlStatement | undefined | null)[] | undefined;
  const statementOf = (i: number) => {
    statements ??= operator.controlTokens.map(() => null);
    // (Its purposes are not read: withoutCrawler() states one purpose at a time.)
    return statements[i] === null ? (statements[i] = controlStatement(robots, url, { token: operator.controlTokens[i].token, purposes: [] })) : statements[i];
  };
  const purposes = {} as Record<Purpose, PurposeAnswer>;
  for (const purpose of PURPOSES) {
    const crawler = plan.crawlers[purpose];
    if (crawler === undefined) {
      purposes[purpose] = withoutCrawler(operator, statementOf, purpose);
      continue;
    }
    const usage = usageOf(plan.fetcherOf[purpose]);
    const preference = usage.purposes[purpose];
    const answer: UsageAnswer = !usage.allowed || preference === 'disallowed' ? 'no' : 'yes';
    purposes[purpose] = {
      fetch: { crawler: crawler.token, allowed: usage.allowed, line: usage.line },
      preference,
      answer,
      signals: signalsAbout(usage.signals, purpose),
    };
  }
  const user: OperatorUsage['user'] = [];
  for (let i = 0; i < plan.user.length; i++) {
    const c = plan.user[i];
    // (A crawler that also fetches for a purpose: its usage()'s verdict.)
    const at = plan.userFetcher[i];
    const v = at >= 0 ? usageOf(at) : robots.verdict !== undefined ? robots.verdict(url, c.token) : robots.explain(url, c.token);
    user.push({ crawler: c.token, allowed: v.allowed, line: v.line, respectsRobots: c.respectsRobots });
  }
  return { operator: { id: operator.id, name: operator.name }, purposes, user };
}

/** The signals about the purpose. (A signal speaks to one purpose: each answer's are its own
 * objects, the usage() they are of being made for this call.) */
function signalsAbout(signals: readonly UsageSignal[], purpose: Purpose): UsageSignal[] {
  const about: UsageSignal[] = [];
  for (const s of signals) if (s.purpose === purpose) about.push(s);
  return about;
}

/** What an operator's answer looks up, once per operator (the data does not change; an Operator of
 * the caller's is read again when it is another object). */
interface Plan {
  crawlers: Record<Purpose, OperatorCrawler | undefined>;
  /** The distinct tokens of those crawlers, and each purpose's place among them (-1: none). */
  fetchers: string[];
  fetcherOf: Record<Purpose, number>;
  user: readonly OperatorCrawler[];
  /** Each user crawler's place among the fetchers (-1: it fetches for no purpose). */
  userFetcher: number[];
  ask: UsageOptions;
}
const plans = new WeakMap<Operator, Plan>();

function planOf(operator: Operator): Plan {
  let plan = plans.get(operator);
  if (plan === undefined) {
    const crawlers = {} as Record<Purpose, OperatorCrawler | undefined>;
    const fetchers: string[] = [];
    const fetcherOf = {} as Record<Purpose, number>;
    for (const p of PURPOSES) {
      const c = (crawlers[p] = operator.crawlers.find((c) => c.purposes.includes(p)));
      if (c !== undefined && !fetchers.includes(c.token)) fetchers.push(c.token);
      fetcherOf[p] = c === undefined ? -1 : fetchers.indexOf(c.token);
    }
    const user = operator.crawlers.filter((c) => c.purposes.includes('user'));
    plan = { crawlers, fetchers, fetcherOf, user, userFetcher: user.map((c) => fetchers.indexOf(c.token)), ask: { operators: [operator] } };
    plans.set(operator, plan);
  }
  return plan;
}

/** A purpose no crawler of the operator fetches for: unknown, with what its control tokens state
 * (`statementOf(i)`: the operator's i-th control token's statement for the URL). */
function withoutCrawler(operator: Operator, statementOf: (i: number) => ControlStatement | undefined | null, purpose: Purpose): PurposeAnswer {
  let preference: Preference = 'unknown';
  const signals: UsageSignal[] = [];
  for (let i = 0; i < operator.controlTokens.length; i++) {
    if (!operator.controlTokens[i].governs.includes(purpose)) continue;
    const s = statementOf(i);
    if (s === undefined || s === null) continue;
    preference = combine(preference, s.preference);
    signals.push({ field: 'control-token', value: s.token, token: s.token, line: s.line, purpose, preference: s.preference });
  }
  return { fetch: undefined, preference, answer: 'unknown', signals: signals.sort((a, b) => a.line - b.line) };
}
