// Crawler names across the entry points (library, compat, the command): a name
// is never cut to a product token, so two crawlers of different names never
// share a group; under `rfc` a name that is not a token is refused, under
// `google` it is compared whole (no group names it: the `*` group applies) and
// agentNotes() says so, as `robots check` and `robots explain` do on stderr.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import robotsParser from '../../../dist/compat.js';
import { agentNotes, isValidAgent, parse, productToken } from '../../../dist/index.js';
import { robots as cli } from '../../helpers/cli-run.js';

// Each group allows what only it allows (/gN), under a `*` group that disallows everything.
const FILE = 'User-agent: Bot1\nAllow: /g1\nDisallow: /\n\nUser-agent: Bot2\nAllow: /g2\nDisallow: /\n\nUser-agent: Bot\nAllow: /g3\nDisallow: /\n\nUser-agent: *\nDisallow: /\n';

const dir = mkdtempSync(path.join(tmpdir(), 'agent-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('productToken never cuts a name to a token', () => {
  it('the product of a User-Agent header when it is a token, else ""', () => {
    const cases: [string, string][] = [
      ['Bot1', ''],
      ['Bot2/2.0', ''],
      ['MJ12bot/v1.4.8 (http://mj12bot.com/)', ''],
      ['Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)', ''],
      ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
      ['Sogou web spider/4.0', 'Sogou'],
      ['FooBot/1.2 (+https://foo.example/bot)', 'FooBot'],
      ['FooBot,BarBot', 'FooBot'],
      ['ia.archiver', ''],
    ];
    for (const [ua, token] of cases) expect(productToken(ua), ua).toBe(token);
  });

  it('property: two headers whose products differ never give the same token', () => {
    const product = fc.stringMatching(/^[A-Za-z0-9_.-]{1,8}$/);
    fc.assert(
      fc.property(product, product, fc.constantFrom('', '/1.0', ' (+https://x)', '/2 (compatible)'), (a, b, rest) => {
        const [ta, tb] = [productToken(a + rest), productToken(b + rest)];
        if (a !== b && ta !== '') expect(tb).not.toBe(ta);
        if (ta !== '') expect(ta).toBe(a);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('the library', () => {
  it('google: a name that is not a token names no group (neither "Bot1" nor "Bot2"), and agentNotes says so', () => {
    const robots = parse(FILE, { profile: 'google' });
    // Google reads the lines "Bot1" and "Bot2" as "Bot": the crawler "Bot" gets the three groups.
    expect(['/g1', '/g2', '/g3', '/x'].map((p) => robots.isAllowed(p, 'Bot'))).toEqual([true, true, true, false]);
    for (const name of ['Bot1', 'Bot2', 'Bot1/1.0']) {
      expect(['/g1', '/g2', '/g3'].map((p) => robots.isAllowed(p, name)), name).toEqual([false, false, false]);
      expect(robots.explainAll('/g1', name).groups, name).toEqual([{ line: 13, global: true }]);
    }
    expect(agentNotes('Bot1', 'google')).toEqual([
      '"Bot1" is not a product token (letters, \'-\' and \'_\'): Google\'s parser compares it whole, so no group names it (a line "User-agent: Bot1" is read as "Bot") and the "User-agent: *" group applies.',
    ]);
    expect(agentNotes(['Googlebot', 'FooBot/1.0'], 'google')).toEqual([
      '"FooBot/1.0" is not a product token (letters, \'-\' and \'_\'): Google\'s parser compares it whole, so no group names it (a line "User-agent: FooBot/1.0" is read as "FooBot") and the "User-agent: *" group applies; its product token is "FooBot".',
    ]);
    expect(agentNotes('*', 'google')[0]).toMatch(/not a crawler's name/);
    expect(agentNotes('', 'google')[0]).toMatch(/360Spider/);
    expect(agentNotes('12bot', 'google')[0]).toMatch(/read as the empty name/);
  });

  it('rfc: refused, with no hint that cuts it to a token; agentNotes says it is refused', () => {
    const robots = parse(FILE);
    for (const name of ['Bot1', 'MJ12bot']) {
      expect(() => robots.isAllowed('/x', name)).toThrow(TypeError);
      expect(() => robots.isAllowed('/x', name)).not.toThrow(/productToken/);
      expect(() => robots.compile(name)).toThrow(TypeError);
      expect(() => robots.explainAll('/x', name)).toThrow(TypeError);
      expect(agentNotes(name)).toEqual([`"${name}" is not a product token (letters, '-' and '_'): the rfc profile refuses it.`]);
    }
    expect(() => robots.isAllowed('/x', 'FooBot/1.0')).toThrow(/productToken\("FooBot\/1.0"\) gives "FooBot"/);
  });

  it('agentNotes: none for product tokens, in both profiles; its arguments are checked', () => {
    for (const profile of ['google', 'rfc'] as const) expect(agentNotes(['Googlebot', 'Bing_bot', 'AdsBot-Google'], profile)).toEqual([]);
    fc.assert(fc.property(fc.string(), fc.constantFrom('google' as const, 'rfc' as const), (name, profile) => {
      expect(agentNotes(name, profile).length).toBe(isValidAgent(name) ? 0 : 1);
    }));
    expect(() => agentNotes(42 as unknown as string)).toThrow(TypeError);
    expect(() => agentNotes([null] as unknown as string[])).toThrow(TypeError);
    expect(() => agentNotes('x', 'bing' as 'rfc')).toThrow(TypeError);
  });
});

describe('the compat entry (robots-parser\'s reading of names, on both sides)', () => {
  it('each name meets only the lines of that name: Crawlee\'s { userAgent: "Bot1" } gets Bot1\'s group', () => {
    for (const profile of ['google', 'rfc'] as const) {
      const r = robotsParser('http://e.com/robots.txt', FILE, { profile });
      const allowed = (ua: string) => ['/g1', '/g2', '/g3', '/x'].map((p) => r.isAllowed(`http://e.com${p}`, ua));
      expect(allowed('Bot1'), profile).toEqual([true, false, false, false]);
      expect(allowed('Bot2/2.0'), profile).toEqual([false, true, false, false]);
      expect(allowed('Bot'), profile).toEqual([false, false, true, false]);
      expect(allowed('Bot3'), profile).toEqual([false, false, false, false]);
    }
  });
});

describe('the command: rfc refuses, google says on stderr what it does with the name', () => {
  const file = path.join(dir, 'robots.txt');
  writeFileSync(file, FILE);

  it('check and explain under google: the verdict on stdout as before, the note on stderr', async () => {
    const check = await cli(['check', '--profile', 'google', file, 'Bot1', '/g1']);
    expect([check.status, check.stdout]).toEqual([1, 'disallowed\t14\t/g1\tDisallow: /\n']);
    expect(check.stderr).toBe(`robots check: note: ${agentNotes('Bot1', 'google')[0]}\n`);
    const explain = await cli(['explain', '--profile', 'google', '--format', 'json', file, 'Bot1', '/g1']);
    expect(JSON.parse(explain.stdout).groups).toEqual([{ line: 13, global: true }]);
    expect(explain.stderr).toBe(`robots explain: note: ${agentNotes('Bot1', 'google')[0]}\n`);
    // A product token: no note.
    expect((await cli(['check', '--profile', 'google', file, 'Bot', '/g1'])).stderr).toBe('');
    expect((await cli(['explain', '--profile', 'google', file, 'Bot', '/g1'])).stderr).toBe('');
  });

  it('classify says it too (--agent and --crawlers), before its verdicts', async () => {
    const urls = path.join(dir, 'urls.txt');
    writeFileSync(urls, '/g1\n/g3\n');
    const one = await cli(['classify', '--robots', file, '--profile', 'google', '--agent', 'Bot1', '-q', urls]);
    expect([one.status, one.stdout]).toEqual([0, 'disallowed\t14\t/g1\ndisallowed\t14\t/g3\n']);
    expect(one.stderr).toBe(`robots classify: note: ${agentNotes('Bot1', 'google')[0]}\n`);
    const several = await cli(['classify', '--robots', file, '--profile', 'google', '--crawlers', 'Bot,Bot2', '-q', urls]);
    expect(several.stdout).toBe('url\tBot\tBot2\n/g1\tallowed\tdisallowed\n/g3\tallowed\tdisallowed\n');
    expect(several.stderr).toBe(`robots classify: note: ${agentNotes('Bot2', 'google')[0]}\n`);
  });

  it('under rfc: a usage error (exit 2), one line', async () => {
    for (const cmd of ['check', 'explain']) {
      const run = await cli([cmd, file, 'Bot1', '/g1']);
      expect(run.status, cmd).toBe(2);
      expect(run.stderr, cmd).toMatch(/^robots: invalid agent "Bot1": a product token is letters, '-' and '_' only[^\n]*\n$/);
    }
  });
});
