// Control tokens and the per-operator answer (issue 40, items 3 and 4):
// usage() for a crawler an operator lists counts the verdicts of the operator's
// control tokens for the purposes they govern (Google-Extended for Googlebot's
// train-ai and ai-use), and operatorUsage() answers per purpose: may the
// operator's crawler for it fetch the URL, what the site says of that use, and
// one word for both. Cloudflare's managed file, files that block only a control
// token, a site naming GPTBot but not OAI-SearchBot, and a property against a
// plain reference written here. (Every operator on the corpus, its words as the
// rule says: test/engine/operator-usage-shared.test.ts, which asks the same.)
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { OPERATORS, parse, type Operator, type Preference, type Purpose } from '../../src/index.js';
import { CLOUDFLARE } from '../helpers/cloudflare-robots.js';

const PROFILES = ['google', 'rfc'] as const;
const PURPOSES: Purpose[] = ['search', 'train-ai', 'ai-use'];
const url = (p: string) => `https://example.com${p}`;
const answers = (r: ReturnType<ReturnType<typeof parse>['operatorUsage']>) =>
  Object.fromEntries(PURPOSES.map((p) => [p, r.purposes[p].answer]));

describe('control tokens in usage()', () => {
  it('a file that blocks only Google-Extended: Googlebot may fetch, train-ai and ai-use disallowed, search unknown', () => {
    for (const profile of PROFILES) {
      const u = parse('User-agent: Google-Extended\nDisallow: /\n', { profile }).usage(url('/a'), 'Googlebot');
      expect(u.allowed).toBe(true);
      expect({ ...u.purposes }).toEqual({ search: 'unknown', 'train-ai': 'disallowed', 'ai-use': 'disallowed' });
      expect(u.signals).toEqual([
        { field: 'control-token', value: 'Google-Extended', token: 'Google-Extended', line: 2, purpose: 'train-ai', preference: 'disallowed' },
        { field: 'control-token', value: 'Google-Extended', token: 'Google-Extended', line: 2, purpose: 'ai-use', preference: 'disallowed' },
      ]);
      // GoogleOther fetches for train-ai and ai-use too; Google-CloudVertexBot for ai-use only.
      expect(parse('User-agent: Google-Extended\nDisallow: /\n', { profile }).usage(url('/a'), 'Google-CloudVertexBot').purposes['ai-use']).toBe('disallowed');
      // Another operator's crawler is not spoken for.
      expect(parse('User-agent: Google-Extended\nDisallow: /\n', { profile }).usage(url('/a'), 'GPTBot').purposes['train-ai']).toBe('unknown');
    }
  });

  it('a file that blocks only Applebot-Extended: Applebot train-ai disallowed, search unknown', () => {
    for (const profile of PROFILES) {
      const u = parse('User-agent: Applebot-Extended\nDisallow: /private/\n', { profile });
      expect({ ...u.usage(url('/private/x'), 'Applebot').purposes }).toEqual({ search: 'unknown', 'train-ai': 'disallowed', 'ai-use': 'unknown' });
      // Its own group allows the rest: a statement (allowed), with the verdict's line (0: no rule matched).
      expect(u.usage(url('/public'), 'Applebot').purposes['train-ai']).toBe('allowed');
    }
  });

  it('a control token without a group of its own: a `*` disallow states disallowed, a `*` allow nothing', () => {
    const robots = parse('User-agent: *\nDisallow: /private/\nAllow: /\n\nUser-agent: Googlebot\nAllow: /\n');
    expect(robots.usage(url('/private/x'), 'Googlebot').purposes['train-ai']).toBe('disallowed');
    expect(robots.usage(url('/private/x'), 'Googlebot').signals[0]).toMatchObject({ field: 'control-token', line: 2 });
    expect(robots.usage(url('/public'), 'Googlebot').purposes['train-ai']).toBe('unknown');
    expect(robots.usage(url('/public'), 'Googlebot').signals).toEqual([]);
  });

  it('combines with Content-Usage and Content-Signal: any disallow wins', () => {
    const robots = parse('User-agent: Google-Extended\nAllow: /\n\nUser-agent: Googlebot\nContent-Usage: train-ai=n\nAllow: /\n');
    expect(robots.usage(url('/'), 'Googlebot').purposes['train-ai']).toBe('disallowed');
    expect(robots.usage(url('/'), 'Googlebot').purposes['ai-use']).toBe('allowed');
  });

  it('a URL the crawler may not fetch has no preference, control tokens included', () => {
    const u = parse('User-agent: Google-Extended\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /x\n').usage(url('/x'), 'Googlebot');
    expect(u).toMatchObject({ allowed: false, signals: [] });
    expect(u.purposes['train-ai']).toBe('unknown');
  });

  it('usages(): crawlers of the same groups share an answer only when the same control tokens speak for them', () => {
    const robots = parse('User-agent: Google-Extended\nDisallow: /\n');
    const [foo, google, bar] = robots.usages(url('/'), ['FooBot', 'Googlebot', 'BarBot']);
    expect([foo, google, bar].map((u) => u.purposes['train-ai'])).toEqual(['unknown', 'disallowed', 'unknown']);
  });

  it('callers give their own operators (or none)', () => {
    const body = 'User-agent: Foo-Extended\nDisallow: /\n\nUser-agent: Google-Extended\nDisallow: /\n';
    const mine: Operator = {
      id: 'foo', name: 'Foo', aliases: [], otherControls: [], formerTokens: [], sources: [],
      crawlers: [{ token: 'FooBot', purposes: ['train-ai'], respectsRobots: 'obeys', source: { url: 'https://example.com', date: 'read 2026-12' }, confidence: 'high' }],
      controlTokens: [{ token: 'Foo-Extended', governs: ['train-ai'], source: { url: 'https://example.com', date: 'read 2026-12' }, confidence: 'high' }],
    };
    const robots = parse(body);
    expect(robots.usage(url('/'), 'FooBot').purposes['train-ai']).toBe('unknown');
    expect(robots.usage(url('/'), 'FooBot', { operators: [...OPERATORS, mine] }).purposes['train-ai']).toBe('disallowed');
    expect(robots.usage(url('/'), 'Googlebot', { operators: [] }).purposes['train-ai']).toBe('unknown');
    expect(answers(robots.operatorUsage(url('/'), mine))).toEqual({ search: 'unknown', 'train-ai': 'no', 'ai-use': 'unknown' });
  });
});

describe('operatorUsage()', () => {
  it('the issue’s example: Google-Extended allowed, `*` says ai-train=no, no Googlebot group: Google’s train-ai disallowed', () => {
    for (const profile of PROFILES) {
      const r = parse('User-agent: Google-Extended\nAllow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\nAllow: /\n', { profile }).operatorUsage(url('/a'), 'google');
      expect(r.operator).toEqual({ id: 'google', name: 'Google' });
      expect(r.purposes['train-ai']).toMatchObject({ fetch: { crawler: 'Googlebot', allowed: true, line: 6 }, preference: 'disallowed', answer: 'no' });
      expect(r.purposes['train-ai'].signals.map((s) => [s.field, s.line, s.preference])).toEqual([
        ['control-token', 2, 'allowed'],
        ['content-signal', 5, 'disallowed'],
      ]);
      expect(r.purposes['ai-use']).toMatchObject({ preference: 'allowed', answer: 'yes' });
      expect(r.purposes.search).toMatchObject({ preference: 'unknown', answer: 'yes', signals: [] });
      expect(r.user).toEqual([{ crawler: 'Google-GeminiNotebook', allowed: true, line: 6, respectsRobots: 'may-ignore' }]);
    }
  });

  it('Cloudflare’s managed file, every operator it names', () => {
    const robots = parse(CLOUDFLARE);
    expect(answers(robots.operatorUsage(url('/a'), 'google'))).toEqual({ search: 'yes', 'train-ai': 'no', 'ai-use': 'no' });
    expect(answers(robots.operatorUsage(url('/a'), 'openai'))).toEqual({ search: 'yes', 'train-ai': 'no', 'ai-use': 'unknown' });
    expect(robots.operatorUsage(url('/a'), 'openai').purposes.search).toMatchObject({ fetch: { crawler: 'OAI-SearchBot', allowed: true }, preference: 'allowed' });
    expect(answers(robots.operatorUsage(url('/a'), 'apple'))).toEqual({ search: 'yes', 'train-ai': 'no', 'ai-use': 'unknown' });
    expect(answers(robots.operatorUsage(url('/a'), 'anthropic'))).toEqual({ search: 'yes', 'train-ai': 'no', 'ai-use': 'unknown' });
    expect(robots.operatorUsage(url('/admin/x'), 'openai').purposes.search).toMatchObject({ fetch: { allowed: false }, answer: 'no' });
  });

  it('a site that names GPTBot but not OAI-SearchBot', () => {
    const r = parse('User-agent: GPTBot\nDisallow: /\n').operatorUsage(url('/a'), 'openai');
    expect(r.purposes['train-ai']).toMatchObject({ fetch: { crawler: 'GPTBot', allowed: false, line: 2 }, preference: 'unknown', answer: 'no' });
    expect(r.purposes.search).toMatchObject({ fetch: { crawler: 'OAI-SearchBot', allowed: true, line: 0 }, answer: 'yes' });
    expect(r.purposes['ai-use']).toEqual({ fetch: undefined, preference: 'unknown', answer: 'unknown', signals: [] });
    expect(r.user.map((u) => [u.crawler, u.allowed])).toEqual([['ChatGPT-User', true]]);
  });

  it('a user mistake is a one-line TypeError', () => {
    const robots = parse('User-agent: *\nDisallow:\n');
    expect(() => robots.operatorUsage(url('/'), 'nobody')).toThrow(/^unknown operator "nobody": known: openai, /);
    expect(() => robots.operatorUsage(url('/'), 42 as unknown as string)).toThrow(TypeError);
  });
});

// The plain reference: groups as the test wrote them; a group applies to a crawler when it names it, else the `*`
// groups. Verdicts are the engine's (explain(), tested elsewhere); the reference is the rule that combines them.
const AGENTS = ['Googlebot', 'Google-Extended', 'GoogleOther', 'GPTBot', 'OtherBot', '*'];
const SIGNALS = ['ai-train=no', 'ai-train=yes', 'ai-input=no', 'search=yes', 'search=no'];
const USAGES = ['train-ai=n', 'train-ai=y', 'ai-use=n', 'search=y', 'ai-use=y'];
interface G { agents: string[]; rules: [boolean, string][]; signal: string | null; usage: string | null }
const group = fc.record({
  agents: fc.uniqueArray(fc.constantFrom(...AGENTS), { minLength: 1, maxLength: 2 }),
  // (At least one rule, written first: each group ends at its rules in both profiles, as the reference reads it.)
  rules: fc.array(fc.tuple(fc.boolean(), fc.constantFrom('/', '/a', '/a/b', '/b')), { minLength: 1, maxLength: 3 }),
  signal: fc.option(fc.constantFrom(...SIGNALS)),
  usage: fc.option(fc.constantFrom(...USAGES)),
});
function render(groups: G[]): string {
  return groups.map((g) => [...g.agents.map((a) => `User-agent: ${a}`), ...g.rules.map(([allow, p]) => `${allow ? 'Allow' : 'Disallow'}: ${p}`), ...(g.signal ? [`Content-Signal: ${g.signal}`] : []), ...(g.usage ? [`Content-Usage: ${g.usage}`] : [])].join('\n')).join('\n\n') + '\n';
}
const SIGNAL_PURPOSE: Record<string, Purpose> = { 'ai-train': 'train-ai', 'ai-input': 'ai-use', search: 'search' };
function refCombine(a: Preference, b: Preference): Preference {
  return a === 'disallowed' || b === 'disallowed' ? 'disallowed' : a === 'allowed' || b === 'allowed' ? 'allowed' : 'unknown';
}
/** What the lines of the groups that apply to the crawler say (each line a whole-file statement here). */
function refLines(groups: G[], crawler: string): Record<Purpose, Preference> {
  const named = groups.filter((g) => g.agents.includes(crawler));
  const applied = named.length > 0 ? named : groups.filter((g) => g.agents.includes('*'));
  const out: Record<Purpose, Preference> = { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' };
  for (const g of applied) {
    if (g.signal) {
      const [k, v] = g.signal.split('=');
      out[SIGNAL_PURPOSE[k]] = refCombine(out[SIGNAL_PURPOSE[k]], v === 'yes' ? 'allowed' : 'disallowed');
    }
  }
  // Content-Usage lines without a path: every one of the groups combines.
  for (const g of applied) {
    if (g.usage) {
      const [k, v] = g.usage.split('=');
      out[k as Purpose] = refCombine(out[k as Purpose], v === 'y' ? 'allowed' : 'disallowed');
    }
  }
  return out;
}

describe('property: the operator answer agrees with a plain reference', () => {
  it('random groups of crawlers, control tokens and use lines (Google, OpenAI), both profiles', () => {
    const google = OPERATORS.find((o) => o.id === 'google')!;
    fc.assert(
      fc.property(fc.array(group, { maxLength: 5 }), fc.constantFrom('/', '/a', '/a/b', '/b', '/c'), fc.constantFrom(...PROFILES), (groups, p, profile) => {
        const robots = parse(render(groups), { profile });
        const u = url(p);
        const extendedNamed = groups.some((g) => g.agents.includes('Google-Extended'));
        const ext = robots.explain(u, 'Google-Extended');
        const extended: Preference = extendedNamed ? (ext.allowed ? 'allowed' : 'disallowed') : ext.allowed ? 'unknown' : 'disallowed';
        const r = robots.operatorUsage(u, 'google');
        for (const purpose of PURPOSES) {
          const crawler = google.crawlers.find((c) => c.purposes.includes(purpose))!.token;
          const fetch = robots.explain(u, crawler).allowed;
          let preference: Preference = 'unknown';
          if (fetch) {
            preference = refLines(groups, crawler)[purpose];
            if (purpose !== 'search') preference = refCombine(preference, extended);
          }
          const answer = !fetch || preference === 'disallowed' ? 'no' : 'yes';
          expect(r.purposes[purpose]).toMatchObject({ fetch: { crawler, allowed: fetch }, preference, answer });
          expect(robots.usage(u, crawler).purposes[purpose]).toBe(preference);
        }
        const openai = robots.operatorUsage(u, 'openai');
        const gpt = robots.explain(u, 'GPTBot').allowed;
        const gptPref = gpt ? refLines(groups, 'GPTBot')['train-ai'] : 'unknown';
        expect(openai.purposes['train-ai']).toMatchObject({ preference: gptPref, answer: !gpt || gptPref === 'disallowed' ? 'no' : 'yes' });
        expect(openai.purposes['ai-use'].answer).toBe('unknown');
      }),
      { numRuns: 400 },
    );
  });
});
