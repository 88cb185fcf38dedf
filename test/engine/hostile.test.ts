// Hostile input is normal input: any bytes as robots.txt, any string as URL or
// agent. No exception, no hang, memory within the caps; a clear error where
// the caller made a mistake. Every limit has a test here.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_MAX_BYTES, parse } from '../../src/index.js';
import { coreAllocatedBytes } from '../../src/internal.js';
import { referenceDecider } from '../../src/engine/reference.js';
import { readRecords } from '../../src/engine/parse/records.js';
import { largeSynthetic, pathologicalSynthetic } from '../../bench/synthetic.mjs';
import { propertySeed } from '../helpers/seed.js';

const MiB = 1 << 20;

describe('any bytes as robots.txt', () => {
  it('random octets parse and answer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.string({ unit: 'binary' }), (body, url) => {
        for (const profile of ['rfc', 'google'] as const) {
          const r = parse(body, { profile });
          expect(typeof r.isAllowed(url, 'FooBot')).toBe('boolean');
          expect(Array.isArray(r.diagnostics)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('random lines built from robots.txt vocabulary parse and answer', () => {
    const word = fc.constantFrom('User-agent:', 'Disallow:', 'Allow:', '*', '/', '$', '#', '\0', '\r', '\n', '\r\n', ' ', '\ufeff', 'é', '\udc00', 'Sitemap:', 'Crawl-delay:', '1.5', ':', 'x');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 60 }), fc.string({ unit: 'grapheme' }), (words, url) => {
        const r = parse(words.join(''), { profile: 'google' });
        expect(typeof r.isAllowed(url, ['FooBot', 'x'])).toBe('boolean');
      }),
      { numRuns: 300 },
    );
  });

  it('NULs and invalid UTF-8 are diagnosed, not fatal', () => {
    const body = new Uint8Array([...new TextEncoder().encode('User-agent: *\nDisallow: /a\0/b\nDisallow: /'), 0xff, 0xfe, 0x0a]);
    const r = parse(body, { profile: 'google' });
    expect(r.isAllowed('http://x/a/b', 'FooBot')).toBe(false);
    expect(r.diagnostics.some((d) => d.code === 'invalid-utf8' && d.line === 3)).toBe(true);
  });
});

describe('size limits', () => {
  it('a 10 MB file: only the first 512,000 octets are parsed, with a diagnostic', () => {
    const line = 'Disallow: /private/some/long/path/segment/file.html\n';
    const body = 'User-agent: *\n' + line.repeat(Math.ceil((10 * 1e6) / line.length)) + 'Disallow: /\n';
    const r = parse(body);
    expect(r.diagnostics.at(-1)?.code).toBe('size-limit');
    // The final "Disallow: /" is past the limit, so it does not apply.
    expect(r.isAllowed('http://x/public', 'FooBot')).toBe(true);
    expect(parse(body, { maxBytes: Infinity }).isAllowed('http://x/public', 'FooBot')).toBe(false);
  });

  it('maxBytes below 512,000 is refused', () => {
    expect(DEFAULT_MAX_BYTES).toBe(512_000);
    expect(() => parse('', { maxBytes: 1000 })).toThrow(RangeError);
    expect(() => parse('', { maxBytes: NaN })).toThrow(RangeError);
    expect(() => parse('', { maxBytes: 600_000 })).not.toThrow();
  });

  it('a 16 KiB line: octets past 16,663 are dropped, with a diagnostic', () => {
    const long = 'Disallow: /' + 'a'.repeat(20_000);
    const r = parse('User-agent: *\n' + long + '\n', { profile: 'google' });
    expect(r.diagnostics).toContainEqual(expect.objectContaining({ line: 2, code: 'line-too-long' }));
    // The kept value is the line's first 16,663 octets less "Disallow: ".
    const kept = 16_663 - 'Disallow: '.length;
    expect(r.explain('/' + 'a'.repeat(kept - 1), 'x').allowed).toBe(false);
    expect(r.explain('/' + 'a'.repeat(kept - 2), 'x').allowed).toBe(true);
  });
});

describe('rules built to be slow', () => {
  it('100,000 rules compile and answer within the memory cap', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 100_000; i++) lines.push(`${i % 3 ? 'Disallow' : 'Allow'}: /${i % 7 ? '' : '*'}p${i}/${i % 5 ? '' : '*'}x${i % 11 ? '' : '$'}`);
    const r = parse(lines.join('\n'), { maxBytes: Infinity, profile: 'google' });
    const m = r.compile('FooBot');
    const urls = Array.from({ length: 2000 }, (_, i) => `http://x/p${(i * 7919) % 100_000}/y/x${i % 2 ? '' : '/z'}`);
    const verdicts = m.checkMany(urls);
    expect(verdicts.length).toBe(2000);
    expect(m.stats.bytes).toBeLessThanOrEqual(8 * MiB);
    m.dispose();
  });

  it('/*a*a*a…*a$ against 16 KiB URLs stays within the cap', () => {
    const star = '/' + '*a'.repeat(2000) + '$';
    const r = parse(`User-agent: *\nDisallow: ${star}\nAllow: /*a*b*a*b*a*b\nDisallow: /*aaaa*bbbb*$\n`, { profile: 'google' });
    const m = r.compile('FooBot', { maxDfaBytes: 1 * MiB });
    for (const url of ['/' + 'a'.repeat(16_384), '/' + 'ab'.repeat(8192), '/' + 'a'.repeat(3999), '/' + 'ba'.repeat(8192) + 'c']) {
      expect(typeof m.isAllowed('http://x' + url)).toBe('boolean');
    }
    expect(m.isAllowed('http://x/' + 'a'.repeat(16_384))).toBe(false);
    expect(m.isAllowed('http://x/' + 'a'.repeat(1999))).toBe(true);
    expect(m.stats.bytes).toBeLessThanOrEqual(1 * MiB);
    m.dispose();
  });

  it('many wildcard rules against random 16 KiB URLs: bounded memory, tables cleared as needed', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 2000; i++) lines.push(`Disallow: /*${'abcd'[i % 4]}${i % 10}*${'xyz'[i % 3]}${(i * 7) % 10}*q$`);
    const r = parse(lines.join('\n'));
    const m = r.compile('FooBot', { maxDfaBytes: 256 * 1024 });
    const rnd = fc.sample(fc.string({ unit: fc.constantFrom(...'abcdxyzq0123456789/'), minLength: 16_384, maxLength: 16_384 }), { numRuns: 4, seed: propertySeed() });
    for (const u of rnd) expect(typeof m.isAllowed('http://x/' + u)).toBe('boolean');
    expect(m.stats.bytes).toBeLessThanOrEqual(256 * 1024);
    m.dispose();
  });
});

describe('dot segments built to be slow', () => {
  it('a URL of 400,000 dot segments is read in one pass (rfc: the fetched path; google: the raw string)', () => {
    // Each ".." takes back what the segment before it wrote, and every "." or ".." may be
    // last: work linear in the URL in the core and in the reference that usage() and explainAll() run.
    const body = 'User-agent: *\nDisallow: /b$\nContent-Usage: /b train-ai=n\n';
    const urls = ['/a/..'.repeat(200_000) + '/b', '/..'.repeat(400_000) + '/b', '/.'.repeat(400_000) + '/b', `/${'x/'.repeat(200_000)}${'../'.repeat(200_000)}b`];
    const rfc = parse(body).compile('FooBot');
    expect(Array.from(rfc.checkMany(urls))).toEqual([0, 0, 0, 0]);
    for (const u of urls) {
      expect(rfc.isAllowed(u)).toBe(false);
      expect(parse(body).explainAll(u, 'FooBot').path).toBe('/b');
    }
    const allowedRfc = parse('User-agent: *\nContent-Usage: /b train-ai=n\n');
    expect(allowedRfc.usage(urls[0], 'FooBot').purposes['train-ai']).toBe('disallowed');
    rfc.dispose();
    const google = parse(body, { profile: 'google' }).compile('FooBot');
    expect(Array.from(google.checkMany(urls))).toEqual([1, 1, 1, 1]);
    google.dispose();
  });
});

describe('an automaton that thrashes turns to rule mode', () => {
  it('the bench\'s pathological file (2,000 rules of 6 to 15 `*`, 16 KiB URLs): hot, rule mode within the first URL; by default, cold for good (all its rules have a `*`); the automaton\'s verdicts and lines', () => {
    const { file, urls } = pathologicalSynthetic({ rules: 2000, count: 6, length: 16_384 });
    for (const profile of ['google', 'rfc'] as const) {
      const m = parse(file.bytes, { profile }).compile('FooBot', { coldOctets: 0 });
      const first = m.explain(urls[0]);
      expect(m.stats).toMatchObject({ mode: 'rules', states: 0, bytes: 0 });
      const verdicts = urls.map((u: string) => m.explain(u));
      expect(verdicts[0]).toEqual(first);
      // The cost model never turns hot a matcher whose rules are mostly `*` rules: it walks them as rule mode does.
      const byDefault = parse(file.bytes, { profile }).compile('FooBot');
      expect(urls.map((u: string) => byDefault.explain(u))).toEqual(verdicts);
      expect(byDefault.stats).toMatchObject({ mode: 'cold', states: 0, bytes: 0 });
      byDefault.dispose();
      // The automaton alone (rule mode never), walking each URL at microseconds per octet.
      const dfa = parse(file.bytes, { profile }).compile('FooBot', { coldOctets: 0, modePolicy: { ruleMode: 'never' } });
      for (const [i, u] of urls.slice(0, 3).entries()) expect(dfa.explain(u), `${profile} URL ${i}`).toEqual(verdicts[i]);
      expect(dfa.stats.mode).toBe('hot');
      dfa.dispose();
      m.dispose();
    }
  });
  it('the bench\'s 20,000-rule file (2,222 `/*/a/*/b/*/c` rules, with grams): hot, rule mode at once, made from the rules; by default cold, then by cost the same (its `*` rules have grams: rule mode does not try them one by one); the reference\'s verdicts and lines', { timeout: 120_000 }, () => {
    const { file, urls } = largeSynthetic({ rules: 20_000, count: 3_000 });
    const every = 60;
    const sample = urls.filter((_: string, i: number) => i % every === 0);
    for (const profile of ['google', 'rfc'] as const) {
      // referenceVerdict's answers, the 20,000 rules read once for the sample.
      const reference = referenceDecider(readRecords(file.bytes, profile), 'FooBot', profile);
      const ref = sample.map((u: string) => reference(u));
      const m = parse(file.bytes, { profile, maxBytes: Infinity }).compile('FooBot', { coldOctets: 0 });
      m.isAllowed(urls[0]);
      expect(m.stats).toMatchObject({ mode: 'rules', states: 0, bytes: 0 }); // no DFA state built
      expect(sample.map((u: string) => m.explain(u)).map(({ allowed, line }) => ({ allowed, line }))).toEqual(ref.map(({ allowed, line }) => ({ allowed, line })));
      // By default cold (indexed), until the cost model turns it hot: its `*` rules have grams, so rule mode finds them.
      const byDefault = parse(file.bytes, { profile, maxBytes: Infinity }).compile('FooBot');
      byDefault.checkMany(urls.slice(0, 40));
      expect(byDefault.stats.mode).toBe('cold');
      // (its walks cost what rule mode's making does within a few hundred URLs: mode-policy.ts ruleModeHotFactor)
      const batch = byDefault.checkMany(urls);
      expect(byDefault.stats.mode).toBe('rules');
      expect(sample.map((_: string, j: number) => batch[j * every])).toEqual(ref.map((v: { allowed: boolean }) => (v.allowed ? 1 : 0)));
      byDefault.dispose();
      m.dispose();
    }
  });
});

describe('caller mistakes get clear errors', () => {
  const r = parse('User-agent: *\nDisallow: /x\n');

  it.each([[''], ['Googlebot/2.1'], ['Foo Bar'], ['*'], ['ツ'], [[]], [['Foo', 'bad/1']]])('agent %j is a TypeError (profile rfc)', (agent) => {
    expect(() => r.isAllowed('http://x/', agent as string)).toThrow(TypeError);
    expect(() => r.compile(agent as string)).toThrow(/agent/);
  });

  it('non-string agents and URLs are TypeErrors in both profiles', () => {
    const g = parse('', { profile: 'google' });
    for (const p of [r, g]) {
      expect(() => p.isAllowed('http://x/', 42 as unknown as string)).toThrow(TypeError);
      expect(() => p.isAllowed(undefined as unknown as string, 'FooBot')).toThrow(TypeError);
      expect(() => p.compile('FooBot').checkMany(['/', 7 as unknown as string])).toThrow(TypeError);
    }
  });

  it('profile google takes any agent string, as Google does (a non-token matches no group)', () => {
    const g = parse('User-agent: Foo\nDisallow: /\nUser-agent: *\nDisallow: /x\n', { profile: 'google' });
    expect(g.isAllowed('http://x/a', 'Foo/1.0')).toBe(true);
    expect(g.isAllowed('http://x/a', 'Foo')).toBe(false);
    expect(g.isAllowed('http://x/a', '')).toBe(true);
  });

  it('agent lists that would join to the same text are told apart', () => {
    const g = parse('User-agent: a\nDisallow: /\n', { profile: 'google' });
    expect(g.isAllowed('/x', ['a\nb'])).toBe(true);
    expect(g.isAllowed('/x', ['a', 'b'])).toBe(false);
    expect(g.isAllowed('/x', 'a\nb')).toBe(true);
    expect(g.isAllowed('/x', '["a","b"]')).toBe(true);
    expect(g.isAllowed('/x', ['a', 'b'])).toBe(false);
  });

  it('bad options and bodies', () => {
    expect(() => parse('', { profile: 'bing' as 'rfc' })).toThrow(TypeError);
    expect(() => parse(42 as unknown as string)).toThrow(TypeError);
    expect(() => parse(null as unknown as string)).toThrow(TypeError);
    const held = coreAllocatedBytes();
    expect(() => r.compile('FooBot', { maxDfaBytes: -1 })).toThrow(RangeError);
    for (const cold of [-1, 1.5, NaN, '8' as unknown as number]) expect(() => r.compile('FooBot', { coldOctets: cold }), String(cold)).toThrow(/coldOctets must be/);
    expect(coreAllocatedBytes(), 'a refused compile leaves nothing in the core').toBe(held);
    // 0 (hot at once), a budget, and Infinity (cold for as long as a u32 counts) all decide alike.
    for (const cold of [0, 7, Infinity]) {
      const m = r.compile('FooBot', { coldOctets: cold });
      expect([m.isAllowed('/private/x'), m.isAllowed('/public'), m.isAllowed('/x/y'), m.explain('/xz').line], String(cold)).toEqual([true, true, false, 2]);
      expect(m.stats.states === 0, String(cold)).toBe(cold === Infinity);
      m.dispose();
    }
  });

  it('any URL string gets a verdict', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (u) => {
        expect(typeof r.isAllowed(u, 'FooBot')).toBe('boolean');
        expect(typeof r.explain(u, 'FooBot').line).toBe('number');
      }),
      { numRuns: 2000 },
    );
    for (const u of ['', '\ud800', '\u0000', '#', '?', ';', '://', '//', 'http://', 'x'.repeat(100_000)]) {
      expect(typeof r.isAllowed(u, 'FooBot')).toBe('boolean');
    }
  });
});

describe('matcher lifetime', () => {
  it('a disposed matcher refuses work; dispose twice is harmless', () => {
    const m = parse('User-agent: *\nDisallow: /x').compile('FooBot');
    expect(m.isAllowed('/x')).toBe(false);
    m.dispose();
    m.dispose();
    expect(() => m.isAllowed('/x')).toThrow(/disposed/);
  });

  it('memory freed by dispose is reused', () => {
    const body = 'User-agent: *\n' + Array.from({ length: 300 }, (_, i) => `Disallow: /*p${i}*q`).join('\n');
    const r = parse(body);
    const warm = r.compile('FooBot');
    warm.checkMany(Array.from({ length: 200 }, (_, i) => `/p${i}/q/${i}`));
    warm.dispose();
    const probe = parse('').compile('FooBot');
    const before = (probe as unknown as { core: { exports: { memory: WebAssembly.Memory } } }).core.exports.memory.buffer.byteLength;
    for (let k = 0; k < 100; k++) {
      const m = r.compile('FooBot');
      m.checkMany(Array.from({ length: 200 }, (_, i) => `/p${i}/q/${i}`));
      m.dispose();
    }
    const after = (probe as unknown as { core: { exports: { memory: WebAssembly.Memory } } }).core.exports.memory.buffer.byteLength;
    expect(after).toBe(before);
    probe.dispose();
  });
});

describe('state building during a call', () => {
  it('explain reads the right rule after a walk that built many states', () => {
    // Enough wildcard rules that each walk builds many states (and the tables move).
    const body = 'User-agent: *\n' + Array.from({ length: 3000 }, (_, i) => `Disallow: /*x${i}*y${i}$`).join('\n') + '\nDisallow: /deny\n';
    const r = parse(body);
    for (let i = 0; i < 50; i++) {
      const m = r.compile('FooBot');
      const v = m.explain(`http://h/deny/x${i}/y${i}/${'z'.repeat(2000)}`);
      expect(v).toEqual({ allowed: false, line: 3002, rule: { kind: 'disallow', pattern: '/deny', line: 3002 } });
      m.dispose();
    }
  });
});

describe('the caller\'s buffer', () => {
  it('is copied: reusing it after parse() changes nothing', () => {
    const buf = Buffer.from('User-agent: *\nDisallow: /private\n');
    const r = parse(buf);
    const m = r.compile('Bot');
    buf.fill(0x41);
    expect(r.isAllowed('http://x/private', 'Bot')).toBe(false);
    expect(r.compile('Other').explain('http://x/private').rule?.pattern).toBe('/private');
    expect(m.isAllowed('http://x/private')).toBe(false);
    m.dispose();
  });
});
