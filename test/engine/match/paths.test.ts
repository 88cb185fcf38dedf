// A path handed to the engine stays a path. The engine reads any string as
// Google's GetPathParamsQuery does, so "//evil/public" is a scheme-relative URL
// (host "evil", path "/public"): every caller that has a path, not a URL (the
// compat entry, RobotsCache, a library user with a request's path) must hand it
// over so that the core reads that path, and nothing else. Compared with the
// plain reference matcher on the same path in a full URL, and with robots-parser
// where it is the contract (the compat entry).
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import robotsParser from '../../../src/compat/robots-parser.js';
import { corePath, fromPath, parse, referenceVerdict, requestedPath, RobotsCache, type Profile } from '../../../src/internal.js';
import { serve, startServer, type TestServer } from '../../helpers/http-servers.js';

const require = createRequire(import.meta.url);
const realRobotsParser = require('robots-parser') as typeof robotsParser;
const utf8 = new TextEncoder();
const PROFILES: Profile[] = ['google', 'rfc'];

// Paths that start as a URL's authority would: "//", "/\" (WHATWG's "//"), "///", "//host:80/...".
const head = fc.constantFrom('//', '/\\', '///', '////', '//evil', '//host:80/', '//user@host/', '//evil?', '//evil;', '//evil#', '/', '/./', '/%2F/', '?', ';', '');
const piece = fc.constantFrom('evil', 'public', '/', '//', '\\', ':', '://', '?', ';', '#', '@', 'a', '%2F', '.', '..', 'é', ' ', 'host:80');
const path = fc.tuple(head, fc.array(piece, { maxLength: 6 })).map(([h, rest]) => h + rest.join(''));
// A path as a URL's path: what follows the authority ("/x", "?q", ";p"; a bare "x" is "/x").
const inUrl = (p: string) => `https://example.com${p === '' || '/?;'.includes(p[0]) ? p : '/' + p}`;

const BODY = 'User-agent: *\nDisallow: /\nAllow: /public\nAllow: /*/public$\nDisallow: //evil\nAllow: /?\n';

describe('fromPath: the core reads exactly the path given', () => {
  it('the issue\'s cases', () => {
    const robots = parse('User-agent: *\nDisallow: /\nAllow: /public\n', { profile: 'google' });
    // Read as URLs, these are the host "evil" and the path "/public".
    expect(robots.isAllowed('//evil/public', 'FooBot')).toBe(true);
    for (const p of ['//evil/public', '///public', '//host:80/public', '//evil?/public']) {
      expect(robots.isAllowed(fromPath(p), 'FooBot'), p).toBe(false);
    }
    expect(robots.isAllowed(fromPath('/public'), 'FooBot')).toBe(true);
    // The common path is handed over as it is (no new string).
    expect(fromPath('/a//b')).toBe('/a//b');
  });

  for (const profile of PROFILES) {
    it(`property (${profile}): the core's path, verdict and line are the reference's for that path in a full URL`, () => {
      const robots = parse(BODY, { profile });
      const body = utf8.encode(BODY);
      fc.assert(
        fc.property(path, (p) => {
          const url = inUrl(p);
          expect(corePath(fromPath(p), profile)).toEqual(corePath(url, profile));
          const reference = referenceVerdict(body, url, 'FooBot', profile);
          const verdict = robots.explain(fromPath(p), 'FooBot');
          expect([verdict.allowed, verdict.line]).toEqual([reference.allowed, reference.line]);
        }),
        { numRuns: 2000 },
      );
    });
  }
});

describe('compat: a URL whose path starts with "//" (or "/\\") is checked on that path, as robots-parser does', () => {
  it('the issue\'s cases', () => {
    const body = 'User-agent: *\nDisallow: /\nAllow: /public\n';
    for (const url of ['https://example.com//evil/public', 'https://example.com/\\evil/public', 'https://example.com///public', 'https://example.com//host:80/public']) {
      expect(realRobotsParser('https://example.com/robots.txt', body).isAllowed(url, 'FooBot'), url).toBe(false);
      for (const profile of PROFILES) {
        const robots = robotsParser('https://example.com/robots.txt', body, { profile });
        expect(robots.isAllowed(url, 'FooBot'), `${profile} ${url}`).toBe(false);
        expect(robots.getMatchingLineNumber(url, 'FooBot'), `${profile} ${url}`).toBe(2);
      }
    }
  });

  // Rules on which robots-parser and both profiles agree (ASCII, no escapes), paths of every start.
  const ascii = fc.tuple(head, fc.array(fc.constantFrom('evil', 'public', '/', '//', '\\', ':', '://', '?', ';', '@', 'a', 'host:80'), { maxLength: 6 }))
    .map(([h, rest]) => h + rest.join(''))
    .filter((p) => !p.includes('#'));
  for (const profile of PROFILES) {
    it(`property (${profile}): robots-parser's verdict and line`, () => {
      const compat = robotsParser('https://example.com/robots.txt', BODY, { profile });
      const real = realRobotsParser('https://example.com/robots.txt', BODY);
      fc.assert(
        fc.property(ascii, (p) => {
          const url = inUrl(p);
          expect([compat.isAllowed(url, 'FooBot'), compat.getMatchingLineNumber(url, 'FooBot')]).toEqual([real.isAllowed(url, 'FooBot'), real.getMatchingLineNumber(url, 'FooBot')]);
        }),
        { numRuns: 2000 },
      );
    });
  }
});

describe('RobotsCache: the verdict is for the path a fetch of the URL requests', () => {
  it('property: the core reads requestedPath(url) as the path and query of new URL(url), also where it skips the parse', () => {
    const scheme = fc.constantFrom('http://', 'https://', 'HTTP://', 'ftp://', 'http:', 'http:/', 'http:\\\\');
    const host = fc.constantFrom('example.com', 'EXAMPLE.com', 'a-b.c', '127.0.0.1', '0x7f.1', 'h:8080', 'h:80', 'user@h', 'é.com', 'h.', '[::1]');
    // Mostly what WHATWG keeps as it is (the fast path), and what it does not.
    const plain = fc.constantFrom('/', '//', 'a', 'B', '.', '..', '%41', '%', '?', ';', ':', '://', '@', '~', '*', '$', '&', '=', '+', ',', '!', '(');
    const odd = fc.constantFrom('\\', '/.', '/..', '%2e', '%2E', '#', ' ', '\t', 'é', "'", '"', '<', '|', '[', '{', '^', '`');
    const part = fc.oneof({ weight: 4, arbitrary: plain }, { weight: 1, arbitrary: odd });
    const url = fc.tuple(scheme, host, fc.array(part, { maxLength: 10 })).map(([s, h, p]) => s + h + p.join(''));
    let fast = 0;
    fc.assert(
      fc.property(url, (u) => {
        let parsed: URL;
        try {
          parsed = new URL(u);
        } catch {
          return;
        }
        // (Where Node's parser leaves a dot segment, against the URL standard, requestedPath removes it: dot-segments.test.ts.)
        if (/\/(?:\.|%2e){1,2}(?:\/|$)/i.test(parsed.pathname)) return;
        const given = requestedPath(u);
        if (given === u) fast++;
        // (What a request asks for: the path, and the query when there is one, even an empty one.)
        const target = parsed.pathname + (parsed.href.split('#')[0].endsWith('?') && parsed.search === '' ? '?' : parsed.search);
        for (const profile of PROFILES) expect(corePath(given, profile), u).toEqual(corePath(fromPath(target), profile));
      }),
      { numRuns: 5000 },
    );
    // (The fast path is taken: the property tests it.)
    expect(fast).toBeGreaterThan(150); // (about 250 of the 5,000: a binomial far from 150)
  });

  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(serve('User-agent: *\nDisallow: /\nAllow: /public\n'));
  });
  afterAll(() => server.close());

  it('a URL that the core would read with another host or path is checked on what fetch() requests', async () => {
    const cache = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', timeoutMs: 5000 });
    const o = server.origin;
    // What a fetch of each requests (WHATWG), and the verdict for that path.
    const cases: [string, string, boolean][] = [
      [`${o}/public`, '/public', true],
      [`${o}//evil/public`, '//evil/public', false],
      [`${o}\\evil/public`, '/evil/public', false],
      [`${o}/\\evil/public`, '//evil/public', false],
      [`${o}/x/../public`, '/public', true],
      [`${o}/public/../private`, '/private', false],
    ];
    for (const [url, requested, allowed] of cases) {
      expect(new URL(url).pathname, url).toBe(requested);
      expect(await cache.isAllowed(url), url).toBe(allowed);
      // policy() gives a crawler the same verdict with the origin's answers (it read the URL as written before).
      expect((await cache.policy(url)).allowed, `policy ${url}`).toBe(allowed);
    }
    expect(server.requests.map((r) => r.path)).toEqual(['/robots.txt']);
    cache.clear();
  });
});
