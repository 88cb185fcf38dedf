// One origin for every spelling of a host: robotsUrl(), `robots classify`'s
// origin of a run of URLs (its cache key and the Origin --robots-dir and
// --robots-warc look up), its --shard and its thread (the host's hashes) all
// name the origin WHATWG URL's host parser gives, for random spellings of
// random hosts (case, percent-escapes, full-width letters, IPv4 numbers in any
// base and short form, IPv6 with any compression and leading zeros or an IPv4
// tail, backslashes, slashes, user info, default and other ports, a trailing
// dot). The expected host is written here without WHATWG (but for IDN).
// A trailing dot is dropped: "e.com." is the DNS name "e.com" (urlOrigin()).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { domainToASCII } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { robotsUrl } from '../../src/engine/robots-url.js';
import { LineClassifier } from '../../src/bulk/classify/line-classifier.js';
import type { Origin } from '../../src/bulk/hosts/origin.js';
import { HostRouter } from '../../src/bulk/classify/host-router.js';
import { HostMatchers } from '../../src/bulk/classify/host-matchers.js';
import { captureKey, type WarcCapture } from '../../src/bulk/sources/warc/warc-index.js';
import { propertySeed } from '../helpers/seed.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-host-origins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A host and ways to write it: [what WHATWG names it, a spelling generator]. */
type Host = { canonical: string; spell: fc.Arbitrary<string> };

const pick = <T,>(xs: readonly T[]) => fc.constantFrom(...xs);
const hex = (v: number, upper: boolean) => (upper ? v.toString(16).toUpperCase() : v.toString(16));

/** Each character as is, upper-cased, percent-escaped or full-width (IDNA maps it back). */
function spellDomain(name: string): fc.Arbitrary<string> {
  return fc.tuple(...[...name].map((ch) => fc.nat(9).map((how) => {
    const code = ch.charCodeAt(0);
    if (code >= 0x80 || how < 4) return ch;
    if (how < 6) return ch.toUpperCase();
    if (how < 8) return `%${hex(code, how === 6).padStart(2, '0')}`;
    return /[a-z0-9]/.test(ch) ? String.fromCharCode(code + 0xfee0) : ch; // full-width
  }))).map((chars) => chars.join(''));
}

const label = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,7}$/).filter((l) => !l.startsWith('xn--'));
const domain: fc.Arbitrary<Host> = fc
  .tuple(fc.array(label, { minLength: 0, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/), fc.boolean(), fc.boolean())
  .chain(([labels, tld, idn, dot]) => {
    const written = [...labels, ...(idn ? ['bücher'] : []), tld].join('.');
    const canonical = idn ? domainToASCII(written) : written;
    const spellings = idn ? fc.oneof(spellDomain(written), spellDomain(canonical)) : spellDomain(written);
    return fc.constant({ canonical, spell: spellings.map((s) => (dot ? `${s}.` : s)) });
  });

/** A number as WHATWG's IPv4 parser reads it: decimal, octal (0…) or hex (0x…), with leading zeros. */
const ipv4Part = (v: number) =>
  fc.tuple(pick(['dec', 'oct', 'hex'] as const), fc.nat(2), fc.boolean()).map(([base, zeros, upper]) =>
    base === 'dec' ? String(v) : base === 'oct' ? `0${'0'.repeat(zeros)}${v.toString(8)}` : `0${upper ? 'X' : 'x'}${'0'.repeat(zeros)}${hex(v, upper)}`);

const ipv4: fc.Arbitrary<Host> = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c, d]) => {
  const canonical = `${a}.${b}.${c}.${d}`;
  // Four parts, or the last 16, 24 or 32 bits as one number.
  const forms = [[a, b, c, d], [a, b, c * 256 + d], [a, b * 65536 + c * 256 + d], [((a * 256 + b) * 256 + c) * 256 + d]];
  const spell = fc.nat(3).chain((k) => fc.tuple(...forms[k].map(ipv4Part), fc.boolean()))
    .map((parts) => { const dot = parts.pop() as boolean; return parts.join('.') + (dot ? '.' : ''); })
    .chain((s) => fc.oneof(fc.constant(s), spellDomain(s))); // percent-escapes too
  return { canonical, spell };
});

/** IPv6 as WHATWG serialises it: lower-case hex, no leading zeros, the first longest run of 2+ zero groups as "::". */
function ipv6Canonical(g: number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) { best = i; bestLen = j - i; }
    i = j;
  }
  const hexes = g.map((v) => v.toString(16));
  if (best < 0) return `[${hexes.join(':')}]`;
  return `[${hexes.slice(0, best).join(':')}::${hexes.slice(best + bestLen).join(':')}]`;
}

const group = fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }) });
const ipv6: fc.Arbitrary<Host> = fc.array(group, { minLength: 8, maxLength: 8 }).map((g) => {
  const spell = fc.tuple(fc.nat(8), fc.nat(8), fc.boolean(), fc.array(fc.tuple(fc.nat(3), fc.boolean()), { minLength: 8, maxLength: 8 })).map(([from, len, tail, looks]) => {
    // Any run of zero groups (even one) may be "::"; the last 32 bits may be written as IPv4.
    let a = Math.min(from, 7);
    let b = a;
    while (b < 8 && b - a < len && g[b] === 0) b++;
    if (b === a) a = b = -1;
    const v4 = tail && !(b > 6) ? `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}` : null;
    const words = g.map((v, i) => hex(v, looks[i][1]).padStart(looks[i][0] + 1, '0').slice(-4)); // up to 4 digits
    const end = v4 === null ? 8 : 6;
    const part = (from: number, to: number) => words.slice(from, to);
    let text: string;
    if (a < 0) text = [...part(0, end), ...(v4 ? [v4] : [])].join(':');
    else text = `${part(0, a).join(':')}::${[...part(b, end), ...(v4 ? [v4] : [])].join(':')}`;
    return `[${text}]`;
  });
  return { canonical: ipv6Canonical(g), spell };
});

const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

/** A URL of the host: scheme in any case, slashes and backslashes, user info, a port, a path. */
function spellUrl(host: Host, scheme: string, port: string): fc.Arbitrary<string> {
  return fc.tuple(
    host.spell,
    fc.tuple(...[...scheme].map((c) => fc.boolean().map((up) => (up ? c.toUpperCase() : c)))).map((cs) => cs.join('')),
    fc.oneof({ weight: 4, arbitrary: fc.constant('//') }, { weight: 1, arbitrary: fc.array(pick(['/', '\\']), { maxLength: 3 }).map((s) => s.join('')) }),
    pick(['', '', 'user@', 'u:p@', 'a@b@']),
    port === '' ? pick(['', '', ':', `:${DEFAULT_PORT[scheme]}`, `:0${DEFAULT_PORT[scheme]}`]) : pick([`:${port}`, `:0${port}`]),
    pick(['/a', '\\a', '?q', '#f', '', '/a/b?c#d']),
  ).map(([h, s, slashes, user, p, rest]) => `${s}:${slashes}${user}${h}${p}${rest}`);
}

const scenario = fc.tuple(fc.oneof(domain, ipv4, ipv6), pick(['http', 'https']), pick(['', '', '8080'])).chain(([host, scheme, port]) =>
  fc.record({
    host: fc.constant(host.canonical),
    scheme: fc.constant(scheme),
    port: fc.constant(port),
    urls: fc.array(spellUrl(host, scheme, port), { minLength: 1, maxLength: 12 }),
  }),
);

const encoder = new TextEncoder();
// (One of each for the whole run, as a command has.)
const classifier = new LineClassifier('tsv');
const shards = [0, 1, 2, 3, 4].map((index) => new LineClassifier('tsv', undefined, { index, count: 5 }));
const router = new HostRouter(3);

/** Each run's key and origin (MatcherSource's), and its lines' count, from a LineClassifier. */
function runOrigins(urls: string[], source?: (key: number, origin: () => Origin) => null | ReturnType<HostMatchers['get']>) {
  const seen: { key: number; origin: Origin }[] = [];
  const verdicts: string[] = [];
  const out = classifier.classify(encoder.encode(urls.join('\n') + '\n'), (key, origin) => {
    seen.push({ key, origin: origin() });
    return source ? source(key, origin) : null;
  });
  for (const line of new TextDecoder().decode(out.output).split('\n').filter(Boolean)) verdicts.push(line.split('\t')[0]);
  return { seen, verdicts };
}

describe('every spelling of a host names one origin', () => {
  it('robotsUrl(), classify\'s origin and cache key, its shard and thread, --robots-dir and --robots-warc agree (fast-check, seeded)', () => {
    let n = 0;
    fc.assert(
      fc.property(scenario, ({ host, scheme, port, urls }) => {
        const canonicalUrl = `${scheme}://${host}${port === '' ? '' : `:${port}`}/a`;
        const all = [canonicalUrl, ...urls];
        const robots = robotsUrl(canonicalUrl);
        expect(robots).toBe(`${scheme}://${host}${port === '' ? '' : `:${port}`}/robots.txt`);
        // The library.
        for (const u of urls) expect(robotsUrl(u), u).toBe(robots);
        // classify: every run of these lines has one key and the origin.
        const { seen } = runOrigins(all);
        expect(new Set(seen.map((s) => s.key)).size, all.join(' ')).toBe(1);
        for (const s of seen) expect(s.origin).toEqual({ host, scheme, port });
        // --shard: one shard keeps them all (the others none).
        const kept = shards.map((shard) => shard.classify(encoder.encode(all.join('\n') + '\n'), () => null).urls);
        expect(kept.filter((k) => k > 0), all.join(' ')).toEqual([all.length]);
        // Threads: all to one (a run this short is not spread).
        const routed = router.route(encoder.encode(all.join('\n') + '\n'));
        expect(routed.counts.filter((c) => c.length > 0), all.join(' ')).toHaveLength(1);
        // --robots-dir: the host's file (Disallow: /) decides every spelling.
        const folder = path.join(dir, String(n++));
        mkdirSync(folder);
        writeFileSync(path.join(folder, host), 'User-agent: *\nDisallow: /\n');
        const options = { agents: ['FooBot'], profile: 'rfc' as const, maxOctets: 1 << 20, cacheBytes: 1 << 24 };
        const byDir = new HostMatchers({ ...options, dir: folder });
        expect(runOrigins(all, (k, o) => byDir.get(k, o)).verdicts, all.join(' ')).toEqual(all.map(() => 'disallowed'));
        // --robots-warc: the capture of the origin's robots.txt (a 500: all disallowed) decides every spelling.
        const capture: WarcCapture = { date: 0, status: 500, location: null, bodyAt: 0, bodyLength: 0 };
        const byWarc = new HostMatchers({ ...options, warc: { spill: null, captures: new Map([[captureKey(robots)!, capture]]) } });
        expect(runOrigins(all, (k, o) => byWarc.get(k, o)).verdicts, all.join(' ')).toEqual(all.map(() => 'disallowed'));
        return true;
      }),
      { seed: propertySeed(), numRuns: 300 },
    );
  });
});

