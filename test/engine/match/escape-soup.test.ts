// Every API path (isAllowed, explain, checkMany) against the plain reference on
// "escape soup": URLs and rules made of escapes, broken escapes ('%', '%e',
// '%%41'), escapes whose decoding makes a hex digit, and paths that start with
// '/', '?', ';' or nothing, after every kind of scheme and authority. Both
// profiles. FUZZ_RUNS=N runs N cases per profile (the suite keeps a bounded count).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { comparedPath, corePath, normalizePath, parse, referenceVerdict } from '../../../src/internal.js';
import { propertySeed } from '../../helpers/seed.js';
import { referenceDecider } from '../../../src/engine/reference.js';
import { readRecords } from '../../../src/engine/parse/records.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 1500);
const SEED = propertySeed();
const enc = (s: string) => new TextEncoder().encode(s);

const soup = fc.constantFrom(
  '%', '%%', '%e', '%E', '%4', '%41', '%61', '%2', '%25', '%252', '%2A', '%2a', '%24', '%2F', '%2f', '%7e', '%7E', '%3F', '%3B',
  '%e%41', '%%41', '%4%31', '%C3%A9', '%c3', '%zz', '%0', '%00', '%20', '%80', '%FF',
  'e', 'E', 'A', 'a', '4', '1', 'F', '/', '?', ';', '=', ':', '~', '.', ' ', '\t', 'é', 'ツ', '\u0000', '#',
  '"', '<', '>', '\\', '^', '`', '{', '|', '}', '$', '*', '%3C', '%7B', '%5c',
);
const patternPiece = fc.oneof({ weight: 6, arbitrary: soup }, { weight: 1, arbitrary: fc.constantFrom('*', '$', '*e', '/*') });
const pattern = fc.array(patternPiece, { maxLength: 6 }).map((p) => {
  const s = p.join('').replace(/[#\n\r\u0000]/g, ''); // a rule value ends at '#', a line at CR or LF
  return s.startsWith('/') || s.startsWith('*') ? s : '/' + s;
});
const rules = fc.array(fc.record({ kind: fc.constantFrom('Allow', 'Disallow'), pattern }), { minLength: 1, maxLength: 8 })
  .map((rs) => 'User-agent: *\n' + rs.map((r) => `${r.kind}: ${r.pattern}`).join('\n') + '\n');

/** Every start a path can follow, so every branch of path extraction sees the soup. */
const start = fc.constantFrom(
  '', '/', '?', ';', 'https://example.com', 'https://example.com/', 'https://example.com?', 'https://example.com;',
  '//example.com', '//example.com?', 'http://ex%41mple.com', 'http://ex%e%41mple.com?', 'a:', 'x:?', 'https://example.com:8080;',
);
const url = fc.tuple(start, fc.array(soup, { maxLength: 10 })).map(([s, p]) => s + p.join(''));

function agreeEverywhere(profile: 'rfc' | 'google', runs: number): void {
  fc.assert(
    fc.property(rules, fc.array(url, { minLength: 1, maxLength: 8 }), (body, urls) => {
      const robots = parse(body, { profile });
      const m = robots.compile('FooBot');
      try {
        const batch = m.checkMany(urls);
        // referenceVerdict for each URL, the file read once; expect() only on a difference (where it fails as
        // before): its machinery costs more than the checks.
        const reference = referenceDecider(readRecords(enc(body), profile), 'FooBot', profile);
        urls.forEach((u, i) => {
          const ref = reference(u);
          const want = { allowed: ref.allowed, line: ref.line };
          const got = m.explain(u);
          if (got.allowed !== want.allowed || got.line !== want.line) expect({ allowed: got.allowed, line: got.line }, `explain ${JSON.stringify(u)}`).toEqual(want);
          const one = m.isAllowed(u);
          if (one !== ref.allowed) expect(one, `isAllowed ${JSON.stringify(u)}`).toBe(ref.allowed);
          if (batch[i] !== (ref.allowed ? 1 : 0)) expect(batch[i], `checkMany ${JSON.stringify(u)}`).toBe(ref.allowed ? 1 : 0);
          const viaFile = robots.isAllowed(u, 'FooBot');
          if (viaFile !== ref.allowed) expect(viaFile, `RobotsTxt.isAllowed ${JSON.stringify(u)}`).toBe(ref.allowed);
        });
      } finally {
        m.dispose();
        robots.dispose();
      }
    }),
    { numRuns: runs, seed: SEED },
  );
}

describe('escape soup: checkMany = isAllowed = explain = the reference', () => {
  it('profile rfc', () => agreeEverywhere('rfc', RUNS));
  it('profile google', () => agreeEverywhere('google', RUNS));

  it('a query-only path with a broken escape before an escape of a hex digit (rfc)', () => {
    // The batch used to normalise such a path twice (once as a URL, again when it
    // put the '/' before it): "%e%41" became "%eA", then "%EA".
    const m = parse('User-agent: *\nDisallow: /*e', { profile: 'rfc' }).compile('FooBot');
    for (const u of ['https://example.com?q=%e%41', 'https://example.com;q=%e%41', '?%e%41', ';q=%e%41', 'x:?%e%41']) {
      expect(m.isAllowed(u), u).toBe(false);
      expect(m.checkMany([u])[0], u).toBe(0);
    }
  });
});

describe('rfc normalisation is idempotent', () => {
  const path = fc.array(soup, { maxLength: 16 }).map((p) => '/' + p.join('').replaceAll('#', '')); // (a '#' ends the path)
  it('in the reference, and the core gives the reference\'s normal form', () => {
    fc.assert(
      fc.property(path, (p) => {
        const once = normalizePath(enc(p));
        expect(normalizePath(once)).toEqual(once);
        const text = new TextDecoder().decode(once);
        // What rfc compares: the normal form with its dot segments removed (also idempotent).
        const compared = comparedPath('http://h' + p, 'rfc');
        expect(comparedPath('http://h' + new TextDecoder().decode(compared), 'rfc')).toEqual(compared);
        expect(corePath('http://h' + p, 'rfc')).toEqual(compared);
        expect(corePath('http://h' + text, 'rfc')).toEqual(compared);
      }),
      { numRuns: 5000, seed: SEED },
    );
  });
  it('a % that starts no escape is %25, on both sides', () => {
    expect(new TextDecoder().decode(normalizePath(enc('/%e%41%')))).toBe('/%25eA%25');
    const m = parse('User-agent: *\nDisallow: /100%\n', { profile: 'rfc' }).compile('FooBot');
    expect(m.explain('https://example.com/100%25').line).toBe(2);
    expect(m.explain('https://example.com/100%').line).toBe(2);
    expect(m.isAllowed('https://example.com/100')).toBe(true);
  });
});

describe('rfc: every octet, raw and escaped, on both sides', () => {
  const hex = (c: number) => '%' + c.toString(16).toUpperCase().padStart(2, '0');
  it('the core agrees with the reference for each octet 0-255 in a pattern and in a path, raw or escaped', () => {
    const forms = (c: number) => [String.fromCharCode(c), hex(c), hex(c).toLowerCase()];
    for (let c = 0; c < 256; c++) {
      if (c === 0x0a || c === 0x0d || c === 0x23) continue; // a line ends at CR or LF, a value at '#'
      // The path: the octet's own forms, another octet's, and the special ones.
      const units = [...forms(c), ...forms((c * 7 + 13) % 256), '%', '*', '$', '%25', '%2A', '%24'];
      for (const form of forms(c)) {
        const body = `User-agent: *\nDisallow: /a${form}b\nAllow: /a${form}\n`;
        const m = parse(body, { profile: 'rfc' }).compile('FooBot');
        const urls = units.map((u) => `https://example.com/a${u}b`);
        const batch = m.checkMany(urls);
        urls.forEach((u, i) => {
          const ref = referenceVerdict(enc(body), u, 'FooBot', 'rfc');
          const got = m.explain(u);
          expect({ allowed: got.allowed, line: got.line }, `${JSON.stringify(body)} ${JSON.stringify(u)}`).toEqual({ allowed: ref.allowed, line: ref.line });
          expect(batch[i]).toBe(ref.allowed ? 1 : 0);
        });
        m.dispose();
      }
    }
  });

  it('octets a URI may not hold raw (" < > \\ ^ ` { | }) match their escapes, as clients send them', () => {
    for (const c of '"<>\\^`{|}') {
      const e = hex(c.charCodeAt(0));
      for (const rule of [c, e, e.toLowerCase()]) {
        const m = parse(`User-agent: *\nDisallow: /a${rule}d.html\n`, { profile: 'rfc' }).compile('FooBot');
        for (const url of [`/a${c}d.html`, `/a${e}d.html`, `/a${e.toLowerCase()}d.html`]) {
          expect(m.isAllowed(`https://example.com${url}`), `rule /a${rule}d.html, url ${url}`).toBe(false);
          expect(m.checkMany([`https://example.com${url}`])[0]).toBe(0);
        }
        expect(m.isAllowed('https://example.com/ad.html')).toBe(true);
      }
    }
  });

  it("a pattern's %24 and %2A are the literal $ and *, met by the path's raw or escaped ones (RFC 9309 2.2.3)", () => {
    const m = parse('User-agent: *\nDisallow: /dollar%24\nDisallow: /star%2A\nDisallow: /mid$dle\nDisallow: /end$\nDisallow: /any*thing\n', { profile: 'rfc' }).compile('FooBot');
    const verdicts: Record<string, boolean> = {
      '/dollar$': false, '/dollar%24': false, '/dollar%24x': false, '/dollar': true,
      '/star*': false, '/star%2A': false, '/star%2a': false, '/star': true, '/starx': true,
      '/mid$dle': false, '/mid%24dle': false, '/middle': true,
      '/end': false, '/end$': true, '/end%24': true, '/endx': true,
      '/any/thing': false, '/anything': false, '/any*thing': false, '/anythin': true,
    };
    for (const [path, allowed] of Object.entries(verdicts)) {
      expect(m.isAllowed(`https://example.com${path}`), path).toBe(allowed);
      expect(referenceVerdict(enc('User-agent: *\nDisallow: /dollar%24\nDisallow: /star%2A\nDisallow: /mid$dle\nDisallow: /end$\nDisallow: /any*thing\n'), `https://example.com${path}`, 'FooBot', 'rfc').allowed, path).toBe(allowed);
    }
  });
});
