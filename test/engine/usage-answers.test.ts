// What a RobotsTxt keeps to answer usage() and operatorUsage() URL after URL
// (usage-answers.ts: per agent, its usage lines, control tokens and matcher;
// one URL written to the core for all its walks): bounded whatever agents it is
// asked about, and giving the answers a fresh parse gives, whichever agents
// (in any case, as lists in any order), URLs (long ones whose walk follows a
// compile) and operators come in whatever order.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPERATORS, parse, type Operator } from '../../src/index.js';
import { AGENTS, GROUP_SETS } from '../../src/engine/usage/usage-answers.js';
import { operatorUsageOf } from '../../src/engine/usage/operator-usage.js';
import type { UsageOptions } from '../../src/engine/usage/usage.js';
import { robotsInternals } from '../../src/internal.js';

const PROFILES = ['google', 'rfc'] as const;
const url = (p: string) => `https://example.com${p}`;

describe('what usage() keeps is bounded', () => {
  it('10,000 hostile agents (strings, and lists naming many sets of groups): at most AGENTS agents and GROUP_SETS sets of groups kept, each answered as a fresh parse does', { timeout: 120_000 /* a hang guard: 20,000 answers on a busy machine */ }, () => {
    // 12 named groups: lists of their names name 4,095 sets of groups.
    const names = Array.from({ length: 12 }, (_, i) => `bot${String.fromCharCode(97 + i)}`);
    const body = names.map((n, i) => `User-agent: ${n}\nDisallow: /d${i}/\nContent-Usage: /c${i}/ train-ai=n\nContent-Signal: search=yes\n`).join('') + 'User-agent: *\nContent-Usage: / ai-use=n\n';
    for (const profile of PROFILES) {
      const robots = parse(body, { profile });
      // (Product tokens are letters, '-' and '_'.)
      const letters = (i: number) => [...i.toString(26)].map((d) => String.fromCharCode(97 + parseInt(d, 26))).join('');
      const agentOf = (i: number): string | string[] => (i % 2 === 0 ? `hostile-${letters(i)}_${'x'.repeat(i % 50)}` : names.filter((_, b) => ((i >> 1) % 4095 + 1) & (1 << b)));
      for (let i = 0; i < 10_000; i++) {
        const agent = agentOf(i);
        const u = robots.usage(url(`/c${i % 12}/d${i % 7}/page`), agent);
        if (i % 997 === 0) expect(u).toEqual(parse(body, { profile }).usage(url(`/c${i % 12}/d${i % 7}/page`), agent));
        robotsInternals(robots).verdict(url('/x'), agent);
      }
      const kept = robotsInternals(robots).usageAnswers.size;
      expect(kept.agents).toBeLessThanOrEqual(AGENTS);
      expect(kept.groupSets).toBeLessThanOrEqual(GROUP_SETS);
      // Still answering as a fresh parse, for agents kept and not.
      for (const agent of ['botd', agentOf(0), agentOf(9_998), agentOf(9_999), ['botb', 'botc']]) {
        expect(robots.usage(url('/c3/page'), agent)).toEqual(parse(body, { profile }).usage(url('/c3/page'), agent));
      }
      robots.dispose();
    }
  });
});

// Random files of groups for Googlebot, GoogleOther, Google-Extended, FooBot and `*` (Allow, Disallow,
// Content-Usage with and without paths, Content-Signal), and a sequence of questions asked of one
// RobotsTxt: each answer is the one a fresh parse of the file gives to that question alone.
const AGENT_NAMES = ['Googlebot', 'GoogleOther', 'Google-Extended', 'FooBot', 'Nobody', 'Google-GeminiNotebook'];
const PATTERNS = ['', '/', '/a', '/a/', '/*.pdf', '/a*', '/*b', '/a$', '/%7Ea', '/~a'];
const line = fc.oneof(
  fc.tuple(fc.constantFrom(...PATTERNS), fc.constantFrom('train-ai=n', 'train-ai=y, search=n', 'ai-use=n', 'search=y', 'Bad')).map(([p, v]) => `Content-Usage: ${p === '' ? '' : `${p} `}${v}`),
  fc.constantFrom('Content-Signal: ai-train=no', 'Content-Signal: search=yes, ai-input=no', 'Disallow: /a/b', 'Allow: /a/b/c', 'Disallow: /*.pdf$', 'Disallow: /', 'Allow: /a'),
  fc.constantFrom(...AGENT_NAMES.slice(0, 4), '*').map((a) => `User-agent: ${a}`),
);
/** An agent name in a random case (Googlebot, GOOGLEBOT, googleBot ...). */
const casedName = fc.tuple(fc.constantFrom(...AGENT_NAMES), fc.array(fc.boolean(), { minLength: 24, maxLength: 24 })).map(([n, up]) => [...n].map((c, i) => (up[i] ? c.toUpperCase() : c.toLowerCase())).join(''));
const agentArb = fc.oneof({ weight: 4, arbitrary: casedName }, { weight: 1, arbitrary: fc.uniqueArray(casedName, { minLength: 1, maxLength: 3 }) });
const PATHS = ['/', '/a', '/a/', '/a/b', '/a/b/c', '/x.pdf', '/a.pdf', '/ab', '/b', '/~a', '/%7ea'];
/** Mostly short URLs; some over 22,000 characters (the core's URL area then outgrows what a compile keeps of it). */
const urlArb = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...PATHS) }, { weight: 1, arbitrary: fc.constantFrom(...PATHS).map((p) => `${p}${'a'.repeat(23_000)}`) }).map(url);
const MINE: Operator = { ...OPERATORS.find((o) => o.id === 'google')!, id: 'mine', crawlers: [OPERATORS.find((o) => o.id === 'google')!.crawlers[3]] };
type Question = { kind: 'usage' | 'operator' | 'usages' | 'explain' | 'dispose'; url: string; agent: string | string[]; operators?: readonly Operator[]; operator: string | Operator };
const questionArb: fc.Arbitrary<Question> = fc.record({
  // (explain() writes its URL to the core between usage()'s: none may walk a URL written before.)
  kind: fc.constantFrom('usage', 'usage', 'operator', 'usages', 'explain', 'dispose'),
  url: urlArb,
  agent: agentArb,
  operators: fc.constantFrom(undefined, undefined, [], [MINE], OPERATORS),
  operator: fc.constantFrom<string | Operator>('google', 'openai', MINE),
});

function ask(robots: ReturnType<typeof parse>, q: Question): unknown {
  const options = q.operators === undefined ? undefined : { operators: q.operators };
  if (q.kind === 'usage') return robots.usage(q.url, q.agent, options);
  if (q.kind === 'usages') return robots.usages(q.url, [q.agent, 'FooBot', q.agent], options);
  if (q.kind === 'explain') return robots.explain(q.url, q.agent);
  if (q.kind === 'operator') return robots.operatorUsage(q.url, q.operator, q.operator === MINE ? { operators: [MINE] } : undefined);
  robots.dispose();
  return undefined;
}

describe('property: what usage() keeps answers as a fresh parse does', () => {
  for (const profile of PROFILES) {
    it(profile, { timeout: 300_000 /* a hang guard: long URLs on a busy machine */ }, () => {
      fc.assert(
        fc.property(fc.array(line, { maxLength: 14 }), fc.array(questionArb, { minLength: 1, maxLength: 12 }), (lines, questions) => {
          const body = lines.join('\n');
          const robots = parse(body, { profile });
          for (const q of questions) {
            const kept = ask(robots, q);
            const said = JSON.stringify({ ...q, url: q.url.slice(0, 40) });
            if (q.kind !== 'dispose') expect(kept, said).toEqual(ask(parse(body, { profile }), q));
            // usage()'s verdict, read without explain() (and with no walk for a crawler without rules), is explain()'s.
            if (q.kind === 'usage') {
              const { allowed, line } = parse(body, { profile }).explain(q.url, q.agent);
              expect({ allowed: (kept as { allowed: boolean }).allowed, line: (kept as { line: number }).line }, said).toEqual({ allowed, line });
            }
          }
          robots.dispose();
        }),
        { numRuns: 300 },
      );
    });
  }
});

describe('operatorUsage() shares work between its purposes', () => {
  // An operator whose search crawler also fetches for people, and whose control token governs two
  // purposes no crawler fetches for: one usage() for the crawler (its verdict serves as its `user`
  // verdict) and one verdict of the control token, for both purposes.
  const X: Operator = {
    ...OPERATORS.find((o) => o.id === 'google')!,
    id: 'x',
    crawlers: [{ ...OPERATORS.find((o) => o.id === 'google')!.crawlers[0], token: 'XBot', purposes: ['search', 'user'] }],
    controlTokens: [{ ...OPERATORS.find((o) => o.id === 'google')!.controlTokens[0], token: 'X-Extended', governs: ['train-ai', 'ai-use'] }],
  };
  it('per URL: one usage() of the crawler, no other verdict of it, one verdict of the control token; answers as RobotsTxt.operatorUsage', () => {
    for (const profile of PROFILES) {
      const robots = parse('User-agent: X-Extended\nDisallow: /private\n\nUser-agent: XBot\nDisallow: /a\nContent-Usage: / search=y\n', { profile });
      const asked = new Map<string, number>();
      const count = (what: string, agent: string | readonly string[]) => asked.set(`${what} ${String(agent)}`, (asked.get(`${what} ${String(agent)}`) ?? 0) + 1);
      // RobotsTxt's own answers, counted as operatorUsageOf asks for them.
      const source = {
        usage: (u: string, a: string | readonly string[], o?: UsageOptions) => (count('usage', a), robots.usage(u, a, o)),
        explain: (u: string, a: string | readonly string[]) => (count('verdict', a), robots.explain(u, a)),
        verdict: (u: string, a: string) => (count('verdict', a), robotsInternals(robots).verdict(u, a)),
        namedAgents: () => robotsInternals(robots).namedAgents(),
      };
      for (const p of ['/', '/a/b', '/private/x']) {
        asked.clear();
        const answer = operatorUsageOf(source, url(p), X);
        expect(answer).toEqual(robots.operatorUsage(url(p), X, { operators: [X] }));
        expect(Object.fromEntries(asked), p).toEqual({ 'usage XBot': 1, 'verdict X-Extended': 1 });
      }
    }
  });
});
