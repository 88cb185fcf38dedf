// The operator answer as it is made URL after URL (lists made to their length, a
// usage()'s signal list handed to the one purpose all its signals are about, the
// operator's plan and its last lookup kept): every answer equals one built plainly
// from usage() and explain() as the rule says (operator-usage.ts's header), on
// random files, operators of the data and of the caller's (purposes without a
// crawler, control tokens governing them, user crawlers that also fetch), with and
// without headers; and an answer is immutable (frozen, shared between calls of
// the same inputs): mutating any part of it throws, and mutating a usage()
// changes no answer, asked again or for another URL.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPERATORS, parse, type Operator, type OperatorUsage, type Preference, type Purpose, type PurposeAnswer, type RobotsTxt, type UsageOptions, type UsageSignal } from '../../src/index.js';
import { robotsInternals } from '../../src/internal.js';

const PURPOSES: Purpose[] = ['search', 'train-ai', 'ai-use'];
const url = (p: string) => `https://example.com${p}`;
const source = { url: 'https://example.com', date: 'read 2026-12' };
const crawler = (token: string, purposes: Operator['crawlers'][number]['purposes']) => ({ token, purposes, respectsRobots: 'obeys' as const, source, confidence: 'high' as const });
// A search crawler that also fetches for people, a control token for the two purposes no crawler fetches for,
// another governing train-ai only, and a user crawler of its own.
const X: Operator = {
  id: 'x', name: 'X', aliases: [], otherControls: [], formerTokens: [], sources: [],
  crawlers: [crawler('XBot', ['search', 'user']), crawler('XUser', ['user'])],
  controlTokens: [
    { token: 'X-Extended', governs: ['train-ai', 'ai-use'], source, confidence: 'high' },
    { token: 'X-Train', governs: ['train-ai'], source, confidence: 'high' },
  ],
};
// Three crawlers for three purposes (three usage() answers), and one control token for one of them.
const Y: Operator = {
  id: 'y', name: 'Y', aliases: [], otherControls: [], formerTokens: [], sources: [],
  crawlers: [crawler('YSearch', ['search']), crawler('YTrain', ['train-ai', 'user']), crawler('YUse', ['ai-use'])],
  controlTokens: [{ token: 'Y-Extended', governs: ['train-ai'], source, confidence: 'high' }],
};
const OPERATORS_ASKED = [...OPERATORS, X, Y];
const AGENTS = ['*', 'Googlebot', 'Google-Extended', 'GoogleOther', 'GPTBot', 'XBot', 'X-Extended', 'X-Train', 'XUser', 'YSearch', 'YTrain', 'Y-Extended'];
const LINES = ['Allow: /', 'Disallow: /a', 'Allow: /a/b', 'Disallow: /b', 'Content-Usage: train-ai=n', 'Content-Usage: /a search=y, ai-use=n', 'Content-Usage: /a/ train-ai=y', 'Content-Usage: /b* train-ai=n, tdm=y', 'Content-Signal: ai-train=yes, search=no', 'Content-Signal: ai-input=no'];
const group = fc.record({ agents: fc.uniqueArray(fc.constantFrom(...AGENTS), { minLength: 1, maxLength: 2 }), lines: fc.array(fc.constantFrom(...LINES), { maxLength: 4 }) });
const render = (groups: { agents: string[]; lines: string[] }[]) => groups.map((g) => [...g.agents.map((a) => `User-agent: ${a}`), ...g.lines].join('\n')).join('\n\n') + '\n';
const HEADERS: (UsageOptions['headers'] | undefined)[] = [undefined, { 'content-usage': 'search=n' }, { 'Content-Signal': 'ai-train=no' }];

/** The answer built plainly, purpose by purpose, from usage() and explain() (operator-usage.ts's header). */
function reference(robots: RobotsTxt, u: string, operator: Operator, headers: UsageOptions['headers'] | undefined): OperatorUsage {
  const options: UsageOptions = { operators: [operator], ...(headers === undefined ? {} : { headers }) };
  const named = robotsInternals(robots).namedAgents();
  const purposes = {} as Record<Purpose, PurposeAnswer>;
  for (const purpose of PURPOSES) {
    const c = operator.crawlers.find((c) => c.purposes.includes(purpose));
    if (c === undefined) {
      let preference: Preference = 'unknown';
      const signals: UsageSignal[] = [];
      for (const t of operator.controlTokens) {
        if (!t.governs.includes(purpose)) continue;
        const v = robots.explain(u, t.token);
        const isNamed = named.has(t.token.toLowerCase());
        if (!isNamed && v.allowed) continue;
        const p = v.allowed ? 'allowed' : 'disallowed';
        preference = preference === 'disallowed' || p === 'disallowed' ? 'disallowed' : 'allowed';
        signals.push({ field: 'control-token', value: t.token, token: t.token, line: v.line, purpose, preference: p });
      }
      purposes[purpose] = { fetch: undefined, preference, answer: 'unknown', signals: signals.sort((a, b) => a.line - b.line) };
      continue;
    }
    const usage = robots.usage(u, c.token, options);
    const preference = usage.purposes[purpose];
    purposes[purpose] = {
      fetch: { crawler: c.token, allowed: usage.allowed, line: usage.line },
      preference,
      answer: !usage.allowed || preference === 'disallowed' ? 'no' : 'yes',
      signals: usage.signals.filter((s) => s.purpose === purpose),
    };
  }
  const user = operator.crawlers.filter((c) => c.purposes.includes('user')).map((c) => {
    const v = robots.explain(u, c.token);
    return { crawler: c.token, allowed: v.allowed, line: v.line, respectsRobots: c.respectsRobots };
  });
  return { operator: { id: operator.id, name: operator.name }, purposes, user };
}

/** Tries to change every part of an answer: each attempt throws (frozen; this module is strict). */
function mutate(answer: OperatorUsage): void {
  const a = answer as any; // (what a JavaScript caller may try)
  const throws = (change: () => unknown) => expect(change).toThrow(TypeError);
  throws(() => (a.operator.id = 'changed'));
  for (const purpose of PURPOSES) {
    const p = a.purposes[purpose];
    if (p.fetch !== undefined) {
      throws(() => (p.fetch.allowed = !p.fetch.allowed));
      throws(() => (p.fetch.line = -1));
    }
    for (const s of p.signals) {
      throws(() => (s.line = -1));
      throws(() => (s.value = 'changed'));
    }
    throws(() => p.signals.push({ field: 'content-usage', value: 'added', line: -2 }));
    throws(() => (p.preference = 'disallowed'));
    throws(() => (p.answer = 'unknown'));
  }
  for (const c of a.user) throws(() => (c.allowed = !c.allowed));
  throws(() => a.user.push({ crawler: 'added', allowed: true, line: 0, respectsRobots: 'obeys' }));
}

describe('property: the operator answer, made URL after URL, is the plain one', () => {
  it('random files, every operator (the data\'s and two of the caller\'s), URLs asked again and in turn, with and without headers, both profiles', { timeout: 300_000 /* a hang guard: many answers on a busy machine */ }, () => {
    fc.assert(
      fc.property(
        fc.array(group, { maxLength: 5 }),
        fc.array(fc.tuple(fc.constantFrom('/', '/a', '/a/b', '/b', '/bc', '/c'), fc.constantFrom(...OPERATORS_ASKED), fc.nat(HEADERS.length - 1)), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('google' as const, 'rfc' as const),
        (groups, asks, profile) => {
          const body = render(groups);
          const robots = parse(body, { profile });
          const fresh = parse(body, { profile });
          for (const [p, operator, h] of asks) {
            const headers = HEADERS[h];
            const options = headers === undefined ? undefined : { headers };
            const a = robots.operatorUsage(url(p), operator, options);
            expect(a).toEqual(reference(fresh, url(p), operator, headers));
            // Asked again: equal (the same object without headers: operator-usage-shared.test.ts).
            const again = robots.operatorUsage(url(p), operator, options);
            expect(again).toEqual(a);
            mutate(a);
            expect(robots.operatorUsage(url(p), operator, options)).toEqual(again);
            // A usage() mutated changes no operator answer.
            const c = operator.crawlers.find((c) => c.purposes.some((q) => q !== 'user'));
            if (c !== undefined) {
              const u = robots.usage(url(p), c.token, { operators: [operator], ...options });
              for (const s of u.signals) s.line = -3;
              u.signals.push({ field: 'content-usage', value: 'added', line: -4 });
            }
            expect(robots.operatorUsage(url(p), operator, options)).toEqual(again);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the parts of an answer', () => {
  it('purposes of one crawler: each its own fetch, signal list (an empty one may be shared: frozen) and signals', () => {
    for (const profile of ['google', 'rfc'] as const) {
      const robots = parse('User-agent: Google-Extended\nDisallow: /a\n\nUser-agent: *\nContent-Usage: /a train-ai=n, search=y\nContent-Signal: ai-input=no\nAllow: /\n', { profile });
      for (const p of ['/a', '/b']) {
        const a = robots.operatorUsage(url(p), 'google');
        const [search, train, use] = PURPOSES.map((q) => a.purposes[q]);
        expect(new Set([search.fetch, train.fetch, use.fetch]).size).toBe(3);
        const lists = [search.signals, train.signals, use.signals].filter((l) => l.length > 0);
        expect(new Set(lists).size).toBe(lists.length);
        expect(new Set([...search.signals, ...train.signals, ...use.signals]).size).toBe(search.signals.length + train.signals.length + use.signals.length);
        // Asked again with the same inputs: the same answer (frozen, shared), with headers that say nothing too.
        expect(robots.operatorUsage(url(p), 'google')).toBe(a);
        expect(robots.operatorUsage(url(p), 'google', { headers: {} })).toBe(a);
      }
    }
  });

  it('all of a usage()\'s signals about one purpose: that purpose\'s list holds them, the others are empty', () => {
    const robots = parse('User-agent: *\nContent-Usage: /a train-ai=n\n');
    const a = robots.operatorUsage(url('/a'), 'google');
    expect(a.purposes['train-ai'].signals).toEqual([{ field: 'content-usage', value: 'train-ai=n', line: 2, path: '/a', purpose: 'train-ai', preference: 'disallowed' }]);
    expect(a.purposes.search.signals).toEqual([]);
    expect(a.purposes['ai-use'].signals).toEqual([]);
    expect(() => (a.purposes.search.signals as UsageSignal[]).push(a.purposes['train-ai'].signals[0])).toThrow(TypeError);
    expect(a.purposes['ai-use'].signals).toEqual([]);
    expect(robots.operatorUsage(url('/a'), 'google').purposes.search.signals).toEqual([]);
  });
});

describe('the work of an answer', () => {
  it('a RobotsTxt\'s answer reads each crawler\'s verdict and signals with no Usage made around them: usage() is not asked', () => {
    for (const profile of ['google', 'rfc'] as const) {
      const robots = parse('User-agent: Google-Extended\nDisallow: /a\n\nUser-agent: *\nContent-Usage: /a train-ai=n\nContent-Signal: search=yes\n', { profile });
      const fresh = parse('User-agent: Google-Extended\nDisallow: /a\n\nUser-agent: *\nContent-Usage: /a train-ai=n\nContent-Signal: search=yes\n', { profile });
      let asked = 0;
      const usage = robots.usage.bind(robots);
      robots.usage = (...args: Parameters<RobotsTxt['usage']>) => {
        asked++;
        return usage(...args);
      };
      for (const operator of OPERATORS_ASKED) {
        for (const p of ['/a', '/b']) {
          expect(robots.operatorUsage(url(p), operator)).toEqual(reference(fresh, url(p), operator, undefined));
          expect(robots.operatorUsage(url(p), operator, { headers: { 'content-usage': 'search=n' } })).toEqual(reference(fresh, url(p), operator, { 'content-usage': 'search=n' }));
        }
      }
      expect(asked).toBe(0);
    }
  });

  it('a control token\'s entry, kept with the crawler it speaks for, answers as before once more agents than are kept were asked', () => {
    const robots = parse('User-agent: Google-Extended\nDisallow: /a\n\nUser-agent: *\nContent-Usage: train-ai=y\n');
    const fresh = parse('User-agent: Google-Extended\nDisallow: /a\n\nUser-agent: *\nContent-Usage: train-ai=y\n');
    for (let round = 0; round < 3; round++) {
      for (const p of ['/a', '/b']) {
        expect(robots.usage(url(p), 'Googlebot')).toEqual(fresh.usage(url(p), 'Googlebot'));
        expect(robots.operatorUsage(url(p), 'google')).toEqual(reference(fresh, url(p), OPERATORS.find((o) => o.id === 'google')!, undefined));
      }
      // (More agents than a RobotsTxt keeps: Googlebot's and Google-Extended's entries are dropped.)
      for (let i = 0; i < 40; i++) robots.usage(url('/b'), `Bot-${'r'.repeat(round + 1)}-${'i'.repeat(i + 1)}`);
    }
  });

  it('a signal\'s properties in their order (field, value, line, path, purpose, preference, then the flags), whichever way it is made', () => {
    const robots = parse('User-agent: *\nContent-Usage: /a train-ai=n, ai=n\nContent-Usage: search=y, Bad\nContent-Signal: ai-train=no, foo=1\n');
    const keys = (p: string) => robots.usage(url(p), 'Googlebot', { headers: { 'content-usage': 'ai-use=n' } }).signals.map((s) => Object.keys(s).join(' '));
    expect(keys('/a')).toEqual([
      'field value line path purpose preference',
      'field value line path legacy',
      'field value line purpose preference',
      'field value line',
      'field value line purpose preference header',
    ]);
    expect(keys('/b')).toEqual(['field value line invalid', 'field value line purpose preference', 'field value line', 'field value line purpose preference header']);
  });
});

describe('the entries of an operator\'s crawlers', () => {
  it('are found once, whatever else is asked between answers: their groups are looked up once per crawler, not per URL', () => {
    const robots = parse('User-agent: Google-Extended\nDisallow: /a\n\nUser-agent: *\nContent-Usage: /a train-ai=n\n');
    const fresh = parse('User-agent: Google-Extended\nDisallow: /a\n\nUser-agent: *\nContent-Usage: /a train-ai=n\n');
    const looked = new Map<string, number>();
    const inside = robotsInternals(robots);
    const rulesKey = inside.rulesKey.bind(robots);
    inside.rulesKey = (agent: string | readonly string[]) => {
      if (typeof agent === 'string') looked.set(agent, (looked.get(agent) ?? 0) + 1);
      return rulesKey(agent);
    };
    const google = OPERATORS.find((o) => o.id === 'google')!;
    let first: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const p of ['/a', '/b']) expect(robots.operatorUsage(url(`${p}/${round}`), google)).toEqual(reference(fresh, url(`${p}/${round}`), google, undefined));
      if (round === 0) first = ['Googlebot', 'Google-GeminiNotebook', 'Google-Extended'].map((a) => looked.get(a) ?? 0);
      // (More agents than a RobotsTxt keeps: the operator's crawlers' are dropped from its map.)
      for (let i = 0; i < 40; i++) robots.usage(url('/b'), `Bot-${'r'.repeat(round + 1)}-${'i'.repeat(i + 1)}`);
    }
    expect(first.every((n) => n > 0)).toBe(true);
    expect(['Googlebot', 'Google-GeminiNotebook', 'Google-Extended'].map((a) => looked.get(a) ?? 0)).toEqual(first);
  });
});
