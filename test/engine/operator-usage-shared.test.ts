// Operator answers are immutable and may be shared between calls (issue 40's
// bound on the operator answer: building ~15 objects per call was most of its
// cost): every answer is frozen, deep, so that mutating any part of it throws
// (these modules are strict) and changes no later answer; a RobotsTxt asked again
// with the same inputs (its crawlers' verdicts, the Content-Usage rules that
// decide, the control tokens' statements; no headers) gives the same object, for
// the same URL or another (headers count by their use-preference values); the
// answers kept are bounded per file; and every
// answer, kept or not, is byte for byte (JSON) the one built for its own URL
// without any kept, on the corpus, where every operator is answered on every
// file, its words as the rule says (test/engine/operator-usage.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS, parse, RobotsCache, type Operator, type OperatorUsage, type RobotsTxt, type UsageOptions } from '../../src/index.js';
import { KEPT_HEADERS, operatorUsageOf, type OperatorSource } from '../../src/engine/usage/operator-usage.js';
import { robotsInternals } from '../../src/internal.js';
import { ANSWERS } from '../../src/engine/usage/usage-answers.js';
import { PURPOSES } from '../../src/engine/usage/vocabulary.js';
import { serve, startServer, type TestServer } from '../helpers/http-servers.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

const url = (p: string) => `https://example.com${p}`;
const FILE = 'User-agent: Google-Extended\nDisallow: /private\n\nUser-agent: *\nDisallow: /a/no\nContent-Usage: /a train-ai=n, search=y\nContent-Usage: /b ai-use=n\nContent-Signal: ai-input=no\n';

/** Every object and array of the answer, once each. */
function parts(value: unknown, seen = new Set<object>()): Set<object> {
  if (typeof value !== 'object' || value === null || seen.has(value)) return seen;
  seen.add(value);
  for (const v of Object.values(value)) parts(v, seen);
  return seen;
}

/** Tries to change every part of an answer: each attempt must throw (strict mode, frozen parts). */
function expectUnchangeable(a: OperatorUsage): void {
  const w = a as unknown as { [k: string]: any };
  expect(() => (w.operator.id = 'changed')).toThrow(TypeError);
  expect(() => (w.extra = 1)).toThrow(TypeError);
  for (const q of ['search', 'train-ai', 'ai-use'] as const) {
    const p = w.purposes[q];
    expect(() => (p.answer = 'unknown')).toThrow(TypeError);
    expect(() => (p.preference = 'disallowed')).toThrow(TypeError);
    expect(() => p.signals.push({ field: 'content-usage', value: 'added', line: -2 })).toThrow(TypeError);
    for (const s of p.signals) expect(() => (s.line = -1)).toThrow(TypeError);
    if (p.fetch !== undefined) expect(() => (p.fetch.allowed = !p.fetch.allowed)).toThrow(TypeError);
  }
  expect(() => delete w.purposes.search).toThrow(TypeError);
  expect(() => w.user.push({ crawler: 'added', allowed: true, line: 0, respectsRobots: 'obeys' })).toThrow(TypeError);
  for (const c of w.user) expect(() => (c.allowed = !c.allowed)).toThrow(TypeError);
  for (const o of parts(a)) expect(Object.isFrozen(o)).toBe(true);
}

describe('an operator answer is immutable', () => {
  it('a RobotsTxt\'s, with and without headers, every operator, both profiles: frozen throughout, and later answers are unchanged', () => {
    for (const profile of ['google', 'rfc'] as const) {
      const robots = parse(FILE, { profile });
      for (const o of OPERATORS) {
        for (const p of ['/', '/a', '/a/no', '/b', '/private']) {
          for (const options of [undefined, { headers: { 'content-usage': 'search=n' } }] as (UsageOptions | undefined)[]) {
            const a = robots.operatorUsage(url(p), o.id, options);
            const json = JSON.stringify(a);
            expectUnchangeable(a);
            expect(JSON.stringify(robots.operatorUsage(url(p), o.id, options))).toBe(json);
          }
        }
      }
    }
  });

  it('a RobotsCache\'s, of a file and of an unavailable one, over a real HTTP server', async () => {
    const c = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', timeoutMs: 5000 });
    for (const origin of [file.origin, missing.origin]) {
      const a = await c.operatorUsage(`${origin}/a`, 'google');
      expectUnchangeable(a);
    }
  });
});

let file: TestServer;
let missing: TestServer;
beforeAll(async () => {
  file = await startServer(serve(FILE));
  missing = await startServer(serve('', {}, 404));
});
afterAll(async () => {
  await file.close();
  await missing.close();
});

describe('a RobotsTxt shares an answer between calls of the same inputs', () => {
  it('the same URL, and another the same rules decide: the same object; other inputs: another', () => {
    for (const profile of ['google', 'rfc'] as const) {
      const robots = parse(FILE, { profile });
      const a = robots.operatorUsage(url('/a'), 'google');
      expect(robots.operatorUsage(url('/a'), 'google')).toBe(a);
      // Same verdicts, same deciding Content-Usage rule (/a), same control statements.
      expect(robots.operatorUsage(url('/a/x?q=1'), 'google')).toBe(a);
      // Another deciding rule, another verdict, another control statement: other answers.
      expect(robots.operatorUsage(url('/b'), 'google')).not.toBe(a);
      expect(robots.operatorUsage(url('/a/no'), 'google')).not.toBe(a);
      expect(robots.operatorUsage(url('/private'), 'google')).not.toBe(robots.operatorUsage(url('/c'), 'google'));
      // Another operator: its own answer.
      expect(robots.operatorUsage(url('/a'), 'openai')).not.toBe(a);
      // Headers count by their values: the same values (a record or a Headers), the same answer; others, another.
      const h = robots.operatorUsage(url('/a'), 'google', { headers: { 'content-signal': 'search=no' } });
      expect(h).not.toBe(a);
      expect(robots.operatorUsage(url('/a'), 'google', { headers: new Headers({ 'Content-Signal': 'search=no' }) })).toBe(h);
      expect(robots.operatorUsage(url('/a/x'), 'google', { headers: { 'Content-Signal': ['search=no'] } })).toBe(h);
      expect(robots.operatorUsage(url('/a'), 'google', { headers: { 'content-signal': 'search=yes' } })).not.toBe(h);
      // (A value and its split between the two fields are told apart.)
      const split = robots.operatorUsage(url('/a'), 'google', { headers: { 'content-usage': 'search=n', 'content-signal': 'ai-train=no' } });
      expect(robots.operatorUsage(url('/a'), 'google', { headers: { 'content-usage': 'search=n, ai-train=no' } })).not.toBe(split);
      // Headers that say nothing of use: the answer without them.
      expect(robots.operatorUsage(url('/a'), 'google', { headers: { 'content-type': 'text/html' } })).toBe(a);
      // Values over KEPT_HEADERS: built each time (frozen all the same), and equal to the answer built alone.
      const long = { headers: { 'content-signal': `search=no, ${'x=y, '.repeat(KEPT_HEADERS / 5)}ai-train=yes` } };
      const l = robots.operatorUsage(url('/a'), 'google', long);
      expect(robots.operatorUsage(url('/a'), 'google', long)).not.toBe(l);
      expect(JSON.stringify(l)).toBe(JSON.stringify(unkept(robots, url('/a'), 'google', long)));
      expectUnchangeable(l);
      // Headers that are no object: usage()'s TypeError, as ever.
      expect(() => robots.operatorUsage(url('/a'), 'google', { headers: 3 as never })).toThrow(TypeError);
    }
  });

  it('a caller\'s headers that ask another answer while one is asked: each kept under its own inputs', () => {
    const robots = parse(FILE);
    const fresh = parse(FILE);
    let asked = 0;
    const headers = {
      get(name: string) {
        // (Another URL, asked from inside the first answer's call: it writes its own inputs.)
        if (name === 'content-signal') robots.operatorUsage(url(`/b?${asked++}`), 'google');
        return name === 'content-signal' ? 'search=no' : null;
      },
    };
    const a = robots.operatorUsage(url('/a'), 'google', { headers });
    expect(asked).toBeGreaterThan(0);
    expect(JSON.stringify(a)).toBe(JSON.stringify(unkept(fresh, url('/a'), 'google', { headers: { 'content-signal': 'search=no' } })));
    for (const [p, o] of [['/a', 'google'], ['/b', 'openai'], ['/b', 'google'], ['/a', 'openai']] as const) {
      expect(JSON.stringify(robots.operatorUsage(url(p), o, { headers: { 'content-signal': 'search=no' } }))).toBe(JSON.stringify(unkept(fresh, url(p), o, { headers: { 'content-signal': 'search=no' } })));
      expect(JSON.stringify(robots.operatorUsage(url(p), o))).toBe(JSON.stringify(unkept(fresh, url(p), o)));
    }
  });

  it('a caller\'s headers whose get() answers otherwise each time: the answer kept is the one of the values it is kept by', () => {
    const robots = parse(FILE);
    const fresh = parse(FILE);
    let calls = 0;
    const headers = { get: (name: string) => (name === 'content-signal' ? (calls++ === 0 ? 'search=no' : 'search=yes') : null) };
    robots.operatorUsage(url('/a'), 'google', { headers });
    const want = JSON.stringify(unkept(fresh, url('/a'), 'google', { headers: { 'content-signal': 'search=no' } }));
    expect(JSON.stringify(robots.operatorUsage(url('/a'), 'google', { headers: { 'content-signal': 'search=no' } }))).toBe(want);
  });

  it('the answers kept are bounded per file: ever new inputs keep at most ANSWERS', () => {
    const rules = Array.from({ length: 3 * ANSWERS }, (_, i) => `Content-Usage: /p${i}/ train-ai=${i % 2 ? 'y' : 'n'}\n`).join('');
    const robots = parse(`User-agent: *\n${rules}`, { maxOctets: Infinity });
    const fresh = parse(`User-agent: *\n${rules}`, { maxOctets: Infinity });
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 3 * ANSWERS; i += 7) {
        expect(JSON.stringify(robots.operatorUsage(url(`/p${i}/x`), 'google'))).toBe(JSON.stringify(unkept(fresh, url(`/p${i}/x`), 'google')));
        expect(robotsInternals(robots).usageAnswers.size.answers).toBeLessThanOrEqual(ANSWERS);
      }
    }
    expect(robotsInternals(robots).usageAnswers.size.answers).toBeGreaterThan(0);
  });
});

/** The answer built for url alone: operatorUsageOf over a source with none of a RobotsTxt's kept answers. */
function unkept(robots: RobotsTxt, u: string, operator: string | Operator, options?: UsageOptions): OperatorUsage {
  const source: OperatorSource = {
    usage: (x, a, o) => robots.usage(x, a, o),
    explain: (x, a) => robots.explain(x, a),
    namedAgents: () => robotsInternals(robots).namedAgents(),
  };
  return operatorUsageOf(source, u, typeof operator === 'string' ? OPERATORS.find((o) => o.id === operator)! : operator, options);
}

describe.skipIf(!HAVE_SHARED)('the corpus', () => {
  // Generous: 4,241 files × 14 operators × several URLs on a shared 2-core machine; a hang guard only.
  it('every answer, shared or not, is byte for byte the one built for its own URL alone; every operator answered, its words as the rule says', { timeout: 600_000 }, async () => {
    const dir = path.join(SHARED, 'corpus', 'robots');
    const files = readdirSync(dir);
    expect(files.length).toBe(4241);
    let shared = 0;
    const differ: string[] = []; // (one expect at the end: 356,000 of them would cost more than the answers)
    const wrongWords: string[] = [];
    const words = { yes: 0, no: 0, unknown: 0 };
    /** An answer's word per purpose is the rule's: no when its crawler may not fetch or the site says no to the use, unknown with no crawler. */
    const countWords = (a: OperatorUsage, where: string) => {
      for (const p of PURPOSES) {
        const x = a.purposes[p];
        const want = x.fetch === undefined ? 'unknown' : !x.fetch.allowed || x.preference === 'disallowed' ? 'no' : 'yes';
        if (x.answer !== want) wrongWords.push(`${where} ${p}: ${x.answer}, not ${want}`);
        words[x.answer]++;
      }
    };
    for (const [i, f] of files.entries()) {
      // The loop yields now and then: on a busy machine it runs for minutes, and a worker that does not
      // answer vitest for a minute fails the run.
      if (i % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
      const body = readFileSync(path.join(dir, f));
      const robots = parse(body);
      // `/` and the file's first two paths (its rules' and Content-Usage lines'), and beside each a URL the same rules likely decide.
      const paths = ['/'];
      for (const m of body.toString('latin1').matchAll(/^\s*(?:dis)?allow\s*:\s*(\/[^\s*$#]*)|^\s*content-usage\s*:\s*(\/[^\s*$#]*)/gim)) {
        if (paths.length >= 3) break;
        paths.push(m[1] ?? m[2]);
      }
      for (const o of OPERATORS) {
        for (const p of paths) {
          const a = robots.operatorUsage(url(p), o.id);
          if (JSON.stringify(a) !== JSON.stringify(unkept(robots, url(p), o))) differ.push(`${f} ${o.id} ${p}`);
          countWords(a, `${f} ${o.id} ${p}`);
          // (Most often the same rules decide: the answer kept for the other URL, which must be this one's.)
          const b = robots.operatorUsage(url(`${p}x?y`), o.id);
          if (b === a) shared++;
          if (JSON.stringify(b) !== JSON.stringify(unkept(robots, url(`${p}x?y`), o))) differ.push(`${f} ${o.id} ${p}x?y`);
          countWords(b, `${f} ${o.id} ${p}x?y`);
        }
      }
      robots.dispose();
    }
    expect(differ).toEqual([]);
    expect(shared).toBeGreaterThan(0);
    expect(wrongWords).toEqual([]);
    expect(words.no).toBeGreaterThan(0);
    expect(words.yes).toBeGreaterThan(0);
  });
});
