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
// Answers are immutable (frozen, deep) and may be shared between calls: a
// RobotsTxt keeps them by their inputs as numbers (its crawlers' verdicts, the
// Content-Usage rules that decide, the control tokens' statements: what an
// answer is made of, whatever the URL), and an answer asked again with the same
// inputs is the one kept, not built again (its objects were most of its cost).
// Headers count by their values (their Content-Usage and Content-Signal, as
// usage() reads them): an answer with the same values is the one kept. An answer
// of another source, or with headers of long values (over KEPT_HEADERS
// characters: not kept, so that a caller's ever new values keep no more than
// that), is built and frozen each time.
import type { Operator, OperatorCrawler, RobotsStance } from '../../data/operators.js';
import { controlStatement, type ControlStatement, type ControlVerdicts } from './control-tokens.js';
import { verdictCode, type KeptAnswers } from './kept-answers.js';
import { combine, PURPOSES, type Preference, type Purpose } from './vocabulary.js';
import { headerValue, type Usage, type UsageOptions, type UsageSignal } from './usage.js';

/** The word for one purpose: may the crawler fetch it, and the site does not disallow that use. */
export type UsageAnswer = 'yes' | 'no' | 'unknown';

/** A crawler's verdict for the URL. */
export interface CrawlerFetch {
  /** Its product token. */
  readonly crawler: string;
  readonly allowed: boolean;
  /** The verdict's deciding line (0: none). */
  readonly line: number;
}

/** What is known of one purpose for the operator. */
export interface PurposeAnswer {
  /** The verdict of the crawler that fetches for this purpose; undefined when the operator lists none. */
  readonly fetch: CrawlerFetch | undefined;
  /** What the site says about this use, for that crawler (usage()'s), or from the control tokens alone without one. */
  readonly preference: Preference;
  readonly answer: UsageAnswer;
  /** The statements about this purpose behind `preference`, in file order, then the headers'. */
  readonly signals: readonly Readonly<UsageSignal>[];
}

/** One operator's answer for a URL: immutable (frozen, deep), and it may be shared between calls. */
export interface OperatorUsage {
  readonly operator: { readonly id: string; readonly name: string };
  readonly purposes: Readonly<Record<Purpose, PurposeAnswer>>;
  /** Crawlers that fetch when a person asks (not a purpose): their verdicts, and what the operator says of robots.txt for them. */
  readonly user: readonly (CrawlerFetch & { readonly respectsRobots: RobotsStance })[];
}

export interface OperatorUsageOptions extends UsageOptions {}

/** What operatorUsage() asks of a RobotsTxt (or of a RobotsCache's entry). */
export interface OperatorSource extends ControlVerdicts {
  /** A Usage made for this call: its lists become the answer's. */
  usage(url: string, agent: string | readonly string[], options?: UsageOptions): Usage;
  /** @internal A RobotsTxt's: usage()'s verdict and signals without the Usage around them. */
  readonly usageAnswers?: FetcherSignals;
}

/** usage()'s parts for a crawler, by its entry: its signals (a list made for the call) and, after, their verdict. */
export interface FetcherSignals {
  /** The entries of the agents (valid tokens: a TypeError names one that is not), each kept by the source. */
  entries(agents: readonly string[]): readonly unknown[];
  entrySignals(entry: unknown, url: string, options?: UsageOptions): UsageSignal[];
  /** The verdict of the last entrySignals() call. */
  readonly found: { allowed: boolean; line: number };
  /** explain()'s allowed and line. */
  entryVerdict(entry: unknown, url: string): { allowed: boolean; line: number };
  /** What entrySignals() makes its signals of (without headers), as numbers written to codes from `at`; the place after them. */
  entryCodes(entry: unknown, url: string, operators: readonly Operator[] | undefined, codes: number[], at: number): number;
  /** The answers made, by their inputs (answerCodes()). */
  readonly kept: KeptAnswers<OperatorUsage>;
}

/** The operator's answer for url (see the header); `options.operators` is replaced by [operator]. */
export function operatorUsageOf(robots: OperatorSource, url: string, operator: Operator, options?: UsageOptions): OperatorUsage {
  const plan = planOf(operator);
  const parts = typeof url === 'string' ? robots.usageAnswers : undefined; // (any other url: usage()'s TypeError)
  const headers = options?.headers;
  // (The header values are read once: the answer kept by them is built from them, whatever a caller's get() says next.)
  let usageValue: string | undefined;
  let signalValue: string | undefined;
  let text: string | undefined | null;
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object' && typeof headers !== 'function') text = null; // (the built answer's TypeError)
    else {
      usageValue = headerValue(headers, 'content-usage');
      signalValue = headerValue(headers, 'content-signal');
      text = headersText(usageValue, signalValue);
    }
  }
  if (parts === undefined || text === null) return frozen(answerOf(robots, url, operator, plan, options));
  const n = answerCodes(robots, parts, url, operator, plan);
  let answer = parts.kept.get(CODES, n, text);
  if (answer === undefined) {
    // (Its codes copied first: building may run a caller's code, an Operator's getters, that asks another answer: it writes CODES.)
    const codes = CODES.slice(0, n);
    const asked = headers === undefined || headers === null ? options : { ...options, headers: valuesRecord(usageValue, signalValue) };
    parts.kept.set(codes, n, text, (answer = frozen(answerOf(robots, url, operator, plan, asked))));
  }
  return answer;
}

/** The longest text of header values (Content-Usage's and Content-Signal's) an answer is kept by. */
export const KEPT_HEADERS = 1024;

/** The header values an answer is kept by, as one text (each value length-prefixed: no two read alike;
 * undefined when neither field is there: the answer without headers), or null when it is not kept by them
 * (values over KEPT_HEADERS). */
function headersText(usage: string | undefined, signal: string | undefined): string | undefined | null {
  if ((usage?.length ?? 0) + (signal?.length ?? 0) > KEPT_HEADERS) return null;
  if (usage === undefined && signal === undefined) return undefined;
  return (usage === undefined ? '-' : `${usage.length}:${usage}`) + (signal === undefined ? '-' : `:${signal}`);
}

/** Header values read, as headers usage() reads alike. */
function valuesRecord(usage: string | undefined, signal: string | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (usage !== undefined) record['content-usage'] = usage;
  if (signal !== undefined) record['content-signal'] = signal;
  return record;
}

/** What an answer is made of (without headers), as numbers in CODES: the operator's plan, each fetcher's
 * inputs (entryCodes()), the verdicts of the control tokens that state purposes no crawler fetches for (a
 * RobotsTxt names a token or not whatever the URL), and those of the user crawlers that fetch for no
 * purpose. Their number. */
function answerCodes(robots: OperatorSource, parts: FetcherSignals, url: string, operator: Operator, plan: Plan): number {
  const entries = parts.entries(plan.agents);
  const f = plan.fetchers.length;
  let n = 0;
  CODES[n++] = plan.id;
  for (let i = 0; i < f; i++) n = parts.entryCodes(entries[i], url, plan.ask.operators, CODES, n);
  for (const i of plan.statedTokens) {
    const token = operator.controlTokens[i].token;
    CODES[n++] = verdictCode(robots.verdict !== undefined ? robots.verdict(url, token) : robots.explain(url, token));
  }
  for (let i = 0; i < plan.user.length; i++) {
    const at = plan.userAgent[i];
    if (at >= f) CODES[n++] = verdictCode(parts.entryVerdict(entries[at], url));
  }
  return n;
}

/** answerCodes()'s numbers, written call after call (nothing allocated to find a kept answer). */
const CODES: number[] = [];

/** The answer, frozen throughout: its caller may share it. */
function frozen(a: OperatorUsage): OperatorUsage {
  Object.freeze(a.operator);
  for (const p of PURPOSES) {
    const q = a.purposes[p];
    if (q.fetch !== undefined) Object.freeze(q.fetch);
    if (q.signals !== NO_SIGNALS) {
      for (const s of q.signals) Object.freeze(s);
      Object.freeze(q.signals);
    }
    Object.freeze(q);
  }
  Object.freeze(a.purposes);
  if (a.user !== NO_USER) {
    for (const c of a.user) Object.freeze(c);
    Object.freeze(a.user);
  }
  return Object.freeze(a);
}

/** The empty lists of every answer (frozen: shared). */
const NO_SIGNALS: readonly Readonly<UsageSignal>[] = Object.freeze([]);
const NO_USER: OperatorUsage['user'] = Object.freeze([]);

/**
 * The operator's answer for url as operatorUsageOf() gives it, built on each call and not frozen (its
 * empty lists are): for a caller that reads its words and drops it (the audit), paying for neither.
 */
export function operatorAnswerOf(robots: OperatorSource, url: string, operator: Operator, options?: UsageOptions): OperatorUsage {
  return answerOf(robots, url, operator, planOf(operator), options);
}

/** The answer, built. */
function answerOf(robots: OperatorSource, url: string, operator: Operator, plan: Plan, options: UsageOptions | undefined): OperatorUsage {
  const ask: UsageOptions = options === undefined ? plan.ask : { ...options, operators: plan.ask.operators };
  // usage()'s verdict and signals of each distinct crawler (plan.fetchers: every one serves a purpose, at
  // most three), in the order the purposes first need them: a RobotsTxt's without the Usage around them (the
  // answer reads its purposes from the signals). (No list of them: an answer is made URL after URL. Lists
  // made below are made to their length: one grown by push() takes room for 17 entries.)
  const f = plan.fetchers;
  const parts = typeof url === 'string' ? robots.usageAnswers : undefined;
  let v0: Verdict | undefined, v1: Verdict | undefined, v2: Verdict | undefined;
  let s0: UsageSignal[] | undefined, s1: UsageSignal[] | undefined, s2: UsageSignal[] | undefined;
  // (The source's entries of the crawlers, fetchers first: no lookup by name per URL.)
  const entries = parts?.entries(plan.agents);
  if (parts !== undefined) {
    if (f.length > 0) {
      s0 = parts.entrySignals(entries![0], url, ask);
      v0 = parts.found;
    }
    if (f.length > 1) {
      s1 = parts.entrySignals(entries![1], url, ask);
      v1 = parts.found;
    }
    if (f.length > 2) {
      s2 = parts.entrySignals(entries![2], url, ask);
      v2 = parts.found;
    }
  } else {
    if (f.length > 0) s0 = (v0 = robots.usage(url, f[0], ask)).signals;
    if (f.length > 1) s1 = (v1 = robots.usage(url, f[1], ask)).signals;
    if (f.length > 2) s2 = (v2 = robots.usage(url, f[2], ask)).signals;
  }
  // Each control token's statement for the URL, for the purposes no crawler fetches for (none when every purpose has one).
  let statements: (ControlStatement | undefined)[] | undefined;
  if (plan.statedTokens.length > 0) {
    statements = new Array<ControlStatement | undefined>(operator.controlTokens.length);
    for (const i of plan.statedTokens) statements[i] = controlStatement(robots, url, { token: operator.controlTokens[i].token, purposes: [] });
  }
  const fs = plan.fetcherOf[0];
  const ft = plan.fetcherOf[1];
  const fa = plan.fetcherOf[2];
  // (Written out, purpose by purpose: one shape, its properties in PURPOSES' order, each read by its name.)
  const purposes: Record<Purpose, PurposeAnswer> = {
    search: fs < 0 ? withoutCrawler(operator, statements!, 'search') : purposeAnswer(plan.crawlers[0]!, fs === 0 ? v0! : fs === 1 ? v1! : v2!, fs === 0 ? s0! : fs === 1 ? s1! : s2!, 'search'),
    'train-ai': ft < 0 ? withoutCrawler(operator, statements!, 'train-ai') : purposeAnswer(plan.crawlers[1]!, ft === 0 ? v0! : ft === 1 ? v1! : v2!, ft === 0 ? s0! : ft === 1 ? s1! : s2!, 'train-ai'),
    'ai-use': fa < 0 ? withoutCrawler(operator, statements!, 'ai-use') : purposeAnswer(plan.crawlers[2]!, fa === 0 ? v0! : fa === 1 ? v1! : v2!, fa === 0 ? s0! : fa === 1 ? s1! : s2!, 'ai-use'),
  };
  const user: (CrawlerFetch & { respectsRobots: RobotsStance })[] = plan.user.length === 0 ? (NO_USER as []) : new Array(plan.user.length);
  for (let i = 0; i < plan.user.length; i++) {
    const c = plan.user[i];
    // (A crawler that also fetches for a purpose, one of the first f.length: its usage()'s verdict.)
    const at = plan.userAgent[i];
    const v = at < f.length ? (at === 0 ? v0! : at === 1 ? v1! : v2!) : parts !== undefined ? parts.entryVerdict(entries![at], url) : robots.verdict !== undefined ? robots.verdict(url, c.token) : robots.explain(url, c.token);
    user[i] = { crawler: c.token, allowed: v.allowed, line: v.line, respectsRobots: c.respectsRobots };
  }
  return { operator: { id: operator.id, name: operator.name }, purposes, user };
}

type Verdict = { readonly allowed: boolean; readonly line: number };

/** The answer for a purpose its crawler fetches for: the crawler's verdict, and its usage()'s preference
 * for the purpose (any disallowed of its signals about it wins, then any allowed) with those signals. */
function purposeAnswer(crawler: OperatorCrawler, verdict: Verdict, signals: UsageSignal[], purpose: Purpose): PurposeAnswer {
  let preference: Preference = 'unknown';
  let n = 0;
  for (const s of signals) {
    if (s.purpose !== purpose) continue;
    preference = combine(preference, s.preference!);
    n++;
  }
  return {
    fetch: { crawler: crawler.token, allowed: verdict.allowed, line: verdict.line },
    preference,
    answer: !verdict.allowed || preference === 'disallowed' ? 'no' : 'yes',
    signals: signalsAbout(signals, purpose, n),
  };
}

/** The n signals about the purpose, in a list of their number. (A signal speaks to one purpose: each
 * answer's are its own objects, the list they are of being made for this call; when all its
 * signals are about this purpose, the list is this answer's: no other purpose has any.) */
function signalsAbout(signals: UsageSignal[], purpose: Purpose, n: number): readonly UsageSignal[] {
  if (n === 0) return NO_SIGNALS;
  if (n === signals.length) return signals;
  const about = new Array<UsageSignal>(n);
  n = 0;
  for (const s of signals) if (s.purpose === purpose) about[n++] = s;
  return about;
}

/** What an operator's answer looks up, once per operator (the data does not change; an Operator of
 * the caller's is read again when it is another object). */
interface Plan {
  /** Its number among the plans made: the first of an answer's codes. */
  id: number;
  /** The crawler of each purpose, in PURPOSES' order (undefined: none fetches for it). */
  crawlers: (OperatorCrawler | undefined)[];
  /** The distinct tokens of those crawlers, and each purpose's place among them (-1: none). */
  fetchers: string[];
  fetcherOf: number[];
  /** The control tokens that govern a purpose no crawler fetches for, by place in operator.controlTokens. */
  statedTokens: number[];
  user: readonly OperatorCrawler[];
  /** The fetchers, then the user crawlers that fetch for no purpose; each user crawler's place among them. */
  agents: string[];
  userAgent: number[];
  ask: UsageOptions;
}
const plans = new WeakMap<Operator, Plan>();
let plansMade = 0;
// (The operator asked last: most callers ask one URL after another of the same.)
let lastOperator: Operator | undefined;
let lastPlan: Plan | undefined;

function planOf(operator: Operator): Plan {
  if (operator === lastOperator) return lastPlan!;
  let plan = plans.get(operator);
  if (plan === undefined) {
    const crawlers: (OperatorCrawler | undefined)[] = [];
    const fetchers: string[] = [];
    const fetcherOf: number[] = [];
    const statedTokens: number[] = [];
    for (const p of PURPOSES) {
      const c = operator.crawlers.find((c) => c.purposes.includes(p));
      crawlers.push(c);
      if (c !== undefined && !fetchers.includes(c.token)) fetchers.push(c.token);
      fetcherOf.push(c === undefined ? -1 : fetchers.indexOf(c.token));
      if (c === undefined) operator.controlTokens.forEach((t, i) => t.governs.includes(p) && !statedTokens.includes(i) && statedTokens.push(i));
    }
    const user = operator.crawlers.filter((c) => c.purposes.includes('user'));
    const agents = [...fetchers];
    for (const c of user) if (!agents.includes(c.token)) agents.push(c.token);
    plan = { id: plansMade++, crawlers, fetchers, fetcherOf, statedTokens: statedTokens.sort((a, b) => a - b), user, agents, userAgent: user.map((c) => agents.indexOf(c.token)), ask: { operators: [operator] } };
    plans.set(operator, plan);
  }
  lastOperator = operator;
  lastPlan = plan;
  return plan;
}

/** A purpose no crawler of the operator fetches for: unknown, with what its control tokens state
 * (`statements[i]`: the operator's i-th control token's statement for the URL, found for each that governs such a purpose). */
function withoutCrawler(operator: Operator, statements: readonly (ControlStatement | undefined)[], purpose: Purpose): PurposeAnswer {
  let preference: Preference = 'unknown';
  const signals: UsageSignal[] = [];
  for (let i = 0; i < operator.controlTokens.length; i++) {
    if (!operator.controlTokens[i].governs.includes(purpose)) continue;
    const s = statements[i];
    if (s === undefined) continue;
    preference = combine(preference, s.preference);
    signals.push({ field: 'control-token', value: s.token, token: s.token, line: s.line, purpose, preference: s.preference });
  }
  return { fetch: undefined, preference, answer: 'unknown', signals: signals.length === 0 ? NO_SIGNALS : signals.sort((a, b) => a.line - b.line) };
}
