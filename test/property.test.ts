// Property tests: the WASM automaton against the plain TypeScript reference
// matcher (src/reference.ts) on random rule sets and URLs, both profiles.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { corePath, normalizePath, parse, pathParamsQuery, referenceVerdict } from '../dist/index.js';

// Pieces chosen to collide: wildcards, anchors, escapes of reserved and
// unreserved octets in both cases, non-ASCII, Google's index.htm rule.
const piece = fc.constantFrom(
  '/', 'a', 'b', 'ab', '*', '$', '.', '?', '=', '&', ';', '%', '%41', '%61', '%2a', '%2A', '%24', '%2F', '%2f', '%7e', '%7E', '%00', '%20',
  'é', 'ツ', '%C3%A9', ' ', '\t', 'index.htm', 'index.html', '~', '-', 'A', '#', ':', '//',
);
const pattern = fc.array(piece, { maxLength: 8 }).map((p) => p.join(''));
const rule = fc.record({ kind: fc.constantFrom('Allow', 'Disallow'), pattern });
const agentLine = fc.constantFrom('*', 'FooBot', 'foobot', 'BarBot', 'Other', '* x');
const group = fc.record({
  agents: fc.array(agentLine, { minLength: 1, maxLength: 2 }),
  rules: fc.array(rule, { maxLength: 6 }),
});
const robots = fc.array(group, { minLength: 1, maxLength: 3 }).map((groups) =>
  groups
    .map((g) => [...g.agents.map((a) => `User-agent: ${a}`), ...g.rules.map((r) => `${r.kind}: ${r.pattern}`)].join('\n'))
    .join('\n'),
);
const url = fc.oneof(
  fc.array(piece, { maxLength: 10 }).map((p) => 'http://example.com/' + p.join('')),
  fc.array(piece, { maxLength: 10 }).map((p) => p.join('')),
  fc.string({ maxLength: 30, unit: 'binary' }),
  fc.constantFrom('http://example.com/robots.txt', 'http://example.com/%72obots.txt', '/robots.txt?x', 'http://x/a\u0000b', 'a:?//b/c', 'x:;/y'),
);
const agent = fc.constantFrom<string | string[]>('FooBot', 'BarBot', 'Nobody', ['FooBot', 'BarBot']);

function agree(profile: 'rfc' | 'google', maxDfaBytes?: number) {
  fc.assert(
    fc.property(robots, fc.array(url, { minLength: 1, maxLength: 8 }), agent, (body, urls, ag) => {
      const r = parse(body, { profile });
      const m = r.compile(ag, { maxDfaBytes });
      try {
        const batch = m.checkMany(urls);
        urls.forEach((u, i) => {
          const ref = referenceVerdict(new TextEncoder().encode(body), u, ag, profile);
          const got = m.explain(u);
          expect({ allowed: got.allowed, line: got.line }).toEqual({ allowed: ref.allowed, line: ref.line });
          expect(batch[i]).toBe(ref.allowed ? 1 : 0);
        });
      } finally {
        m.dispose();
      }
    }),
    { numRuns: 1500 },
  );
}

describe('WASM automaton agrees with the reference matcher', () => {
  it('profile google', () => agree('google'));
  it('profile rfc', () => agree('rfc'));
  it('with a tiny memory cap (tables cleared on every new state)', () => {
    agree('google', 1);
    agree('rfc', 1);
  });
});

describe('the core\'s path handling agrees with the reference', () => {
  it('on edge cases around "://"', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    for (const u of ['a:?/x', 'a:?//x', 'http:;//x/y', ':?//', '://', 'x://', '//a://b/c', 'a://?b', 'a:/', 'a:b//c']) {
      expect(corePath(u, 'google'), u).toEqual(pathParamsQuery(enc(u)));
    }
  });

  it('path extraction on strings of the octets that matter to it', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const unit = fc.constantFrom(':', '/', '?', ';', '#', 'a', '\u0000', '%');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 14 }), (u) => {
        const path = pathParamsQuery(enc(u));
        const nul = path.indexOf(0);
        expect(corePath(u, 'google')).toEqual(nul < 0 ? path : path.subarray(0, nul));
      }),
      { numRuns: 20_000 },
    );
  });

  it('path extraction (google) and RFC 3986 normalisation (rfc) of any string', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    fc.assert(
      fc.property(fc.oneof(url, fc.string({ unit: 'binary', maxLength: 80 })), (u) => {
        const path = pathParamsQuery(enc(u));
        const nul = path.indexOf(0); // Google reads the path as a C string
        expect(corePath(u, 'google')).toEqual(nul < 0 ? path : path.subarray(0, nul));
        expect(corePath(u, 'rfc')).toEqual(normalizePath(path));
      }),
      { numRuns: 3000 },
    );
  });

  it('RFC 3986 normalisation of long paths: plain runs of 16 and more, escapes across their edges', () => {
    // The core copies plain octets 16 at a time: runs of every length, with
    // escapes, octets to encode and broken escapes at and across the edges.
    const unit = fc.constantFrom('a', 'a', 'a', 'a', '/', '%', '%4', '%41', '%2f', '%2F', '%7e', 'é', ' ', '\u007f', 'F', '~');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 120 }), (p) => {
        const path = pathParamsQuery(new TextEncoder().encode('/' + p));
        expect(corePath('/' + p, 'rfc')).toEqual(normalizePath(path));
      }),
      { numRuns: 5000 },
    );
  });
});
