// RobotsTxt.explainAll: the explanation `robots explain` and the tester page
// give (the groups that applied, every matching rule with its length, the
// deciding rule and why), from code. One implementation: the command's JSON is
// explainAll's, and explain() keeps its shape.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, referenceVerdict, type Profile, robotsInternals } from '../../src/internal.js';
import { robots as cli } from '../helpers/cli-run.js';

const FILE = `User-agent: Googlebot
Disallow: /private
Allow: /private/ok
Allow: /pag*
Disallow: /page

User-agent: *
Disallow: /
Allow: /dir/index.html
`;

const dir = mkdtempSync(path.join(tmpdir(), 'explain-all-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('RobotsTxt.explainAll', () => {
  it('gives the groups, every matching rule, the deciding one and why; explain() keeps its shape', () => {
    const robots = parse(FILE, { profile: 'google' });
    const e = robots.explainAll('https://example.com/private/ok/x', 'Googlebot');
    expect(e).toEqual({
      url: 'https://example.com/private/ok/x',
      path: '/private/ok/x',
      crawler: ['Googlebot'],
      profile: 'google',
      groups: [{ line: 1, global: false }],
      group: 'the group for Googlebot at line 1 applies; "User-agent: *" groups are then ignored.',
      matches: [
        { line: 2, kind: 'disallow', pattern: '/private', length: 8, viaIndexHtm: false },
        { line: 3, kind: 'allow', pattern: '/private/ok', length: 11, viaIndexHtm: false },
      ],
      allowed: true,
      line: 3,
      rule: { kind: 'allow', pattern: '/private/ok', line: 3 },
      why: 'Line 3 (Allow: /private/ok) decides: the longest matching rule wins (length 11).',
      // Google-Extended, a control token without a group of its own: the `*` disallow (line 8) states Googlebot's train-ai and ai-use.
      purposes: { search: 'unknown', 'train-ai': 'disallowed', 'ai-use': 'disallowed' },
      signals: [
        { field: 'control-token', value: 'Google-Extended', token: 'Google-Extended', line: 8, purpose: 'train-ai', preference: 'disallowed' },
        { field: 'control-token', value: 'Google-Extended', token: 'Google-Extended', line: 8, purpose: 'ai-use', preference: 'disallowed' },
      ],
    });
    expect(Object.keys(robots.explain('https://example.com/private/ok/x', 'Googlebot')).sort()).toEqual(['allowed', 'line', 'rule']);
    // A tie, the `*` group, Google's index.html rule.
    expect(robots.explainAll('/page', 'Googlebot').why).toMatch(/on a tie the allow wins/);
    const star = robots.explainAll('/dir/', ['Bingbot', 'Slurp']);
    expect([star.groups, star.crawler, star.allowed, star.matches.map((m) => [m.line, m.viaIndexHtm])]).toEqual([[{ line: 7, global: true }], ['Bingbot', 'Slurp'], true, [[8, false], [9, true]]]);
    // Its arguments are checked as explain()'s.
    expect(() => parse(FILE).explainAll('/x', 'Googlebot/2.1')).toThrow(TypeError);
    expect(() => robots.explainAll(42 as unknown as string, 'Googlebot')).toThrow(TypeError);
  });

  it('the purposes and the signals behind them: usage()\'s, the page\'s headers too when given', () => {
    const body = 'User-agent: *\nContent-Signal: ai-train=no\nDisallow: /private\nContent-Usage: /blog/ search=y\n';
    for (const profile of ['google', 'rfc'] as Profile[]) {
      const robots = parse(body, { profile });
      for (const url of ['/blog/x', '/x', '/private/x']) {
        for (const headers of [undefined, { 'content-signal': 'ai-input=no' }]) {
          const e = robots.explainAll(url, 'FooBot', { headers });
          const u = robots.usage(url, 'FooBot', { headers });
          expect([e.purposes, e.signals], `${profile} ${url}`).toEqual([u.purposes, u.signals]);
        }
      }
      expect(robots.explainAll('/blog/x', 'FooBot').purposes).toEqual({ search: 'allowed', 'train-ai': 'disallowed', 'ai-use': 'unknown' });
      // In file order: the Content-Signal line (2) before the Content-Usage rule (4).
      expect(robots.explainAll('/blog/x', 'FooBot').signals.map((s) => s.line)).toEqual([2, 4]);
    }
  });

  it('reads the records it keeps: right after the file was compacted (a cache weighed it)', () => {
    const big = `${FILE}${'# filler\n'.repeat(2000)}User-agent: Bingbot\nDisallow: /b\n`;
    const robots = parse(big, { profile: 'rfc' });
    expect(robotsInternals(robots).heldBytes).toBeLessThan(big.length / 2); // (compacted)
    const e = robots.explainAll('/b/x', 'Bingbot');
    expect([e.allowed, e.line, e.matches]).toEqual([false, 2011, [{ line: 2011, kind: 'disallow', pattern: '/b', length: 2, viaIndexHtm: false }]]);
  });

  const segment = fc.constantFrom('a', 'b', 'x', '/', '*', '$', '.html', 'index.html', '%41', 'A', '?q');
  const pattern = fc.array(segment, { maxLength: 4 }).map((s) => '/' + s.join(''));
  const rule = fc.tuple(fc.constantFrom('Allow', 'Disallow'), pattern).map(([k, p]) => `${k}: ${p}`);
  const file = fc.array(fc.tuple(fc.constantFrom('*', 'FooBot', 'BarBot'), fc.array(rule, { maxLength: 4 })), { maxLength: 3 })
    .map((gs) => gs.map(([a, rs]) => [`User-agent: ${a}`, ...rs].join('\n')).join('\n\n') + '\n');
  for (const profile of ['google', 'rfc'] as Profile[]) {
    it(`property (${profile}): the verdict is explain()'s, the matches the reference matcher's`, () => {
      fc.assert(
        fc.property(file, pattern, fc.constantFrom('FooBot', 'BarBot', 'NoBot'), (body, url, agent) => {
          const robots = parse(body, { profile });
          const e = robots.explainAll(url, agent);
          const v = robots.explain(url, agent);
          expect([e.allowed, e.line, e.rule]).toEqual([v.allowed, v.line, v.rule ?? null]);
          const reference = referenceVerdict(new TextEncoder().encode(body), url, agent, profile);
          expect(e.matches.map((m) => [m.line, m.kind, m.length])).toEqual(reference.matched.map((m) => [m.line, m.kind, m.priority]));
        }),
        { numRuns: 500 },
      );
    });
  }
});

describe('robots explain uses explainAll', () => {
  it('its JSON is explainAll\'s (the sentence `group` aside), for both profiles and several names', async () => {
    const file = path.join(dir, 'robots.txt');
    writeFileSync(file, FILE);
    for (const profile of ['google', 'rfc'] as Profile[]) {
      for (const [agent, url] of [['Googlebot', 'https://example.com/private/ok/x'], ['Googlebot,Bingbot', '/page'], ['Bingbot', '/dir/']]) {
        const run = await cli(['explain', '--profile', profile, '--format', 'json', file, agent, url]);
        const { group: _, ...expected } = parse(FILE, { profile }).explainAll(url, agent.split(','));
        expect(JSON.parse(run.stdout), `${profile} ${agent} ${url}`).toEqual(expected);
      }
    }
  });
});
