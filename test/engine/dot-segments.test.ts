// Dot segments (issue 42): under `rfc` every entry point decides on the path a
// fetch of the URL requests: RFC 3986 6.2.2, "%2E" decoded to "." and then dot
// segments removed (remove_dot_segments, 5.2.4), which is what WHATWG URL (and
// so RobotsCache and fetch) gives. Under `google` the raw string decides, as in
// Google's robots.cc. Held here on isAllowed, explain, the Matcher, checkMany,
// usage(), explainAll, the reference, the core's own path, `robots classify`,
// and a RobotsCache reading from a real server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { comparedPath, corePath, normalizePath, parse, pathParamsQuery, referenceVerdict, requestedPath, RobotsCache } from '../../src/internal.js';
import { robots } from '../helpers/cli-run.js';
import { serve, startServer, type TestServer } from '../helpers/http-servers.js';

const text = (b: Uint8Array) => new TextDecoder().decode(b);
const enc = (s: string) => new TextEncoder().encode(s);

/** A URL and the path `rfc` compares (what WHATWG URL requests, RFC 3986-normalised). */
const VECTORS: readonly (readonly [string, string])[] = [
  ['https://a.example/x/../a', '/a'],
  ['https://a.example/x/%2e%2e/a', '/a'],
  ['https://a.example/x/%2E%2e/a', '/a'],
  ['https://a.example/x/.%2E/a', '/a'],
  ['https://a.example/x/%2e./a', '/a'],
  ['https://a.example/x/./a', '/x/a'],
  ['https://a.example/x/%2e/a', '/x/a'],
  ['https://a.example/x/./../a', '/a'],
  ['https://a.example/a/b/../../c', '/c'],
  ['/x/../a', '/a'],
  ['/./a', '/a'],
  // Above the root: the root stays.
  ['https://a.example/../../a', '/a'],
  ['https://a.example/%2e%2e', '/'],
  ['https://a.example/..', '/'],
  ['https://a.example/.', '/'],
  // A dot segment last leaves the path ending in '/'.
  ['https://a.example/x/..', '/'],
  ['https://a.example/x/y/..', '/x/'],
  ['https://a.example/x/.', '/x/'],
  ['https://a.example/x/../', '/'],
  ['https://a.example/x/..?', '/?'],
  // An empty segment is a segment: ".." removes it.
  ['https://a.example/x//../a', '/x/a'],
  ['https://a.example//../a', '/a'],
  // The query is not the path: its dots stay, and so does what follows '#'.
  ['https://a.example/x/..?q=/../b', '/?q=/../b'],
  ['https://a.example/?/../a', '/?/../a'],
  ['https://a.example?x/../a', '/?x/../a'],
  ['https://a.example/x/../a#/../b', '/a'],
  // ';' is an octet of its segment (no parameters in RFC 3986's or WHATWG's path).
  ['https://a.example/x/..;p/a', '/x/..;p/a'],
  ['https://a.example/x/;/../a', '/x/a'],
  // Not dot segments: more dots, dots with more, an escaped '/' inside.
  ['https://a.example/x/.../a', '/x/.../a'],
  ['https://a.example/x/..a/b', '/x/..a/b'],
  ['https://a.example/x/a../b', '/x/a../b'],
  ['https://a.example/.well-known/x', '/.well-known/x'],
  ['https://a.example/x/%2e%2e%2fa', '/x/..%2Fa'],
  ['https://a.example/x/%252e%252e/a', '/x/%252e%252e/a'],
  // After a segment that starts with '.' (Node 20's URL parser leaves these: see requestedPath).
  ['https://a.example/x/.a/../b', '/x/b'],
  ['https://a.example/x/.a/.', '/x/.a/'],
  ['https://a.example/x/.a/..?q', '/x/?q'],
  // Long paths: the removal works past the scans' 16-octet blocks.
  [`https://a.example/${'b'.repeat(30)}/../${'c'.repeat(20)}/./d/..`, `/${'c'.repeat(20)}/`],
  [`https://a.example/${'x/'.repeat(40)}${'../'.repeat(39)}a`, '/x/a'],
];

// Every URL's path a Disallow of its own, anchored: disallowed under rfc exactly
// when the compared path is that path. An allow of everything around it.
const bodyFor = (p: string) => `User-agent: *\nAllow: /\nDisallow: ${p}$\n`;
const googlePath = (url: string) => text(pathParamsQuery(enc(url)));
/** What a fetch of the URL requests (RobotsCache's reading: WHATWG URL), RFC 3986-normalised. */
const fetchedPath = (url: string) => text(normalizePath(pathParamsQuery(enc(requestedPath(url)))));

describe('the path rfc compares is the path a fetch requests; google\'s is the raw string', () => {
  it.each(VECTORS)('%s -> %s', (url, expected) => {
    expect(text(comparedPath(url, 'rfc'))).toBe(expected);
    expect(text(corePath(url, 'rfc'))).toBe(expected);
    expect(text(comparedPath(url, 'google'))).toBe(googlePath(url));
    expect(text(corePath(url, 'google'))).toBe(googlePath(url));
    if (url.startsWith('https:')) expect(fetchedPath(url)).toBe(expected);
  });

  it('RobotsCache\'s path (requestedPath) has no dot segment left where Node\'s URL parser leaves some', () => {
    // (ada 2.9, Node 20: "/x/.a/../b" stays as it is; the URL standard gives "/x/b".)
    expect(requestedPath('https://a.example/x/.a/../b')).toBe('/x/b');
    expect(requestedPath('https://a.example/x/.a/./b?/../q')).toBe('/x/.a/b?/../q');
    expect(requestedPath('https://a.example/x/.a/.')).toBe('/x/.a/');
    expect(requestedPath('https://a.example/.a/%2E%2E')).toBe('/');
  });

  it('is idempotent: the compared path read again is itself', () => {
    for (const [, p] of VECTORS) expect(text(comparedPath(p, 'rfc'))).toBe(p);
  });
});

describe('every entry point decides on that path', () => {
  it.each(VECTORS)('%s', (url, expected) => {
    const body = bodyFor(expected);
    for (const profile of ['rfc', 'google'] as const) {
      const disallowed = profile === 'rfc' || googlePath(url) === expected;
      const want = { allowed: !disallowed, line: disallowed ? 3 : 2 };
      const r = parse(body, { profile });
      const ref = referenceVerdict(enc(body), url, 'FooBot', profile);
      expect({ allowed: ref.allowed, line: ref.line }, `${profile} reference`).toEqual(want);
      expect(r.isAllowed(url, 'FooBot'), `${profile} isAllowed`).toBe(want.allowed);
      expect(r.explain(url, 'FooBot').line, `${profile} explain`).toBe(want.line);
      expect(r.usage(url, 'FooBot').allowed, `${profile} usage`).toBe(want.allowed);
      const all = r.explainAll(url, 'FooBot');
      expect({ allowed: all.allowed, line: all.line, path: all.path }, `${profile} explainAll`).toEqual({
        ...want,
        path: profile === 'rfc' ? expected : googlePath(url),
      });
      const m = r.compile('FooBot');
      expect(m.isAllowed(url), `${profile} Matcher`).toBe(want.allowed);
      expect(Array.from(m.checkMany([url, url, '/zz'])), `${profile} checkMany`).toEqual([want.allowed ? 1 : 0, want.allowed ? 1 : 0, 1]);
      m.dispose();
    }
  });

  it('the issue\'s case: Disallow: /a blocks /x/../a and /x/%2e%2e/a under rfc, with no purposes; google reads them raw', () => {
    const body = 'User-agent: *\nContent-Usage: / train-ai=y\nDisallow: /a\n';
    for (const url of ['https://a.example/x/../a', 'https://a.example/x/%2e%2e/a', '/x/%2E./a']) {
      const rfc = parse(body);
      expect(rfc.isAllowed(url, 'FooBot')).toBe(false);
      expect(rfc.usage(url, 'FooBot')).toMatchObject({ allowed: false, purposes: { 'train-ai': 'unknown' } });
      const google = parse(body, { profile: 'google' });
      expect(google.isAllowed(url, 'FooBot')).toBe(true);
    }
  });

  it('usage(): Content-Usage rules are matched against the same path', () => {
    const body = 'User-agent: *\nContent-Usage: /a train-ai=n\nContent-Usage: /x train-ai=y\n';
    const rfc = parse(body);
    expect(rfc.usage('https://a.example/x/../a', 'FooBot').purposes['train-ai']).toBe('disallowed');
    expect(rfc.usage('https://a.example/x/./a', 'FooBot').purposes['train-ai']).toBe('allowed');
  });

  it('patterns are not read as URLs: a pattern\'s dot segments stay as written (its last segment is a prefix)', () => {
    // "/community/." (from the corpus) disallows dot-files under /community/, not /community/ itself.
    const r = parse('User-agent: *\nDisallow: /community/.\nDisallow: /a/../b\n');
    expect(r.isAllowed('https://a.example/community/.git', 'FooBot')).toBe(false);
    expect(r.isAllowed('https://a.example/community/x', 'FooBot')).toBe(true);
    expect(r.isAllowed('https://a.example/community/./x', 'FooBot')).toBe(true);
    // A complete dot segment inside a pattern meets no path a fetch requests.
    expect(r.isAllowed('https://a.example/a/../b', 'FooBot')).toBe(true);
    expect(r.isAllowed('https://a.example/b', 'FooBot')).toBe(true);
  });
});

// URLs made of segments that are, or almost are, dot segments, escaped or not,
// at the start and end, with ';', and a query that holds them too.
const segment = fc.constantFrom('.', '..', '%2e', '%2E', '%2e%2e', '%2E%2e', '.%2e', '%2e.', '...', '.a', 'a.', 'a', 'b', '', ';', '..;x', 'x;..', '%2F', 'ab');
const dotPath = fc.tuple(
  fc.array(segment, { maxLength: 10 }),
  fc.option(fc.array(fc.constantFrom('/', '..', '.', 'a', '=', '%2e', '?'), { maxLength: 6 }), { freq: 3 }),
).map(([segs, query]) => '/' + segs.join('/') + (query === null ? '' : '?' + query.join('')));
const dotUrl = fc.oneof(
  dotPath.map((p) => 'http://example.com' + p),
  dotPath,
  dotPath.map((p) => 'http://example.com' + p.slice(1)), // (a path that starts with a dot segment glued to the host: no path there)
);

describe('dot segments, random URLs', () => {
  it('the core\'s compared path is the reference\'s, and under rfc the fetched path (WHATWG URL), normalised', () => {
    fc.assert(
      fc.property(dotUrl, (u) => {
        for (const profile of ['rfc', 'google'] as const) expect(corePath(u, profile), `${profile} ${u}`).toEqual(comparedPath(u, profile));
        if (u.startsWith('http://example.com/')) expect(text(comparedPath(u, 'rfc')), u).toBe(fetchedPath(u));
      }),
      { numRuns: 3000 },
    );
  });

  it('isAllowed, explain and checkMany agree with the reference on rules and URLs with dot segments, both profiles', () => {
    const rule = fc.record({ kind: fc.constantFrom('Allow', 'Disallow'), pattern: dotPath.map((p) => p.split('?')[0]) });
    const file = fc.array(rule, { minLength: 1, maxLength: 6 }).map((rs) => 'User-agent: *\n' + rs.map((r) => `${r.kind}: ${r.pattern}`).join('\n'));
    fc.assert(
      fc.property(file, fc.array(dotUrl, { minLength: 1, maxLength: 6 }), (body, urls) => {
        for (const profile of ['rfc', 'google'] as const) {
          const m = parse(body, { profile }).compile('FooBot');
          const batch = m.checkMany(urls);
          urls.forEach((u, i) => {
            const ref = referenceVerdict(enc(body), u, 'FooBot', profile);
            const got = m.explain(u);
            expect({ u, profile, allowed: got.allowed, line: got.line }).toEqual({ u, profile, allowed: ref.allowed, line: ref.line });
            expect(batch[i]).toBe(ref.allowed ? 1 : 0);
          });
          m.dispose();
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('robots classify (the CLI) decides on the same path', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'robots-dots-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('under both profiles, for every vector, as the library does', { timeout: 120_000 }, async () => {
    // (A generous timeout: two runs of the built CLI on a machine other test workers share.)
    const file = path.join(dir, 'robots.txt');
    const body = 'User-agent: *\nDisallow: /a\nAllow: /x/\nDisallow: /x/a\nDisallow: /?\n';
    writeFileSync(file, body);
    const urls = VECTORS.map(([u]) => u);
    for (const profile of ['rfc', 'google'] as const) {
      const m = parse(body, { profile }).compile('Googlebot');
      const want = urls.map((u) => {
        const v = m.explain(u);
        return `${v.allowed ? 'allowed' : 'disallowed'}\t${v.line}\t${u}\n`;
      }).join('');
      m.dispose();
      const r = await robots(['classify', '--robots', file, '--agent', 'Googlebot', '--profile', profile, '-q'], urls.join('\n'));
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(want);
    }
    // The URL, by name: rfc blocks it as RobotsCache would.
    const one = await robots(['classify', '--robots', file, '--agent', 'Googlebot', '-q'], 'https://a.example/x/%2e%2e/a\n');
    expect(one.stdout).toBe('disallowed\t2\thttps://a.example/x/%2e%2e/a\n');
  });
});

describe('RobotsCache (which checks the path it will fetch) and parse() agree under rfc', () => {
  let server: TestServer;
  const BODY = 'User-agent: *\nDisallow: /a\nAllow: /x/\nDisallow: /x/a$\nDisallow: /?q\n';
  beforeAll(async () => {
    server = await startServer(serve(BODY));
  });
  afterAll(() => server.close());

  it('on every vector\'s path and random dot-segment paths, at a real server\'s origin', { timeout: 120_000 }, async () => {
    // (A generous timeout: one fetch and a few hundred cached verdicts on a shared machine; nothing here waits on a timer.)
    const cache = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', timeoutMs: 30_000 });
    const robotsTxt = parse(BODY);
    const paths = [
      ...VECTORS.map(([u]) => (u.startsWith('/') ? u : u.slice('https://a.example'.length))).filter((p) => p.startsWith('/') || p.startsWith('?')),
      ...fc.sample(dotPath, { numRuns: 300, seed: 42 }),
    ];
    let disallowed = 0;
    for (const p of paths) {
      const url = server.origin + p;
      const want = robotsTxt.isAllowed(url, 'FooBot');
      expect({ url, allowed: await cache.isAllowed(url) }).toEqual({ url, allowed: want });
      expect((await cache.policy(url)).allowed).toBe(want);
      if (!want) disallowed++;
    }
    // (Both verdicts occur: the comparison is not of "allowed" with itself.)
    expect(disallowed).toBeGreaterThan(10);
    expect(disallowed).toBeLessThan(paths.length);
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt']);
  });
});
