// RobotsTxt.contentUsage(path, agent), deprecated for usage(): one reading of
// Content-Usage (issue 40 item 5). It answers what usage() counted of the file's
// Content-Usage rules for the path (the deciding rules' keys, as written), so a
// pattern (`/*.pdf`) matches as usage()'s, under the profile's normalisation,
// and a path the crawler may not fetch has none. A property holds the two to
// each other on random files.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse, type Preference, type Purpose } from '../../src/index.js';
import { combine } from '../../src/engine/usage/vocabulary.js';

const PROFILES = ['google', 'rfc'] as const;
const PURPOSES: readonly Purpose[] = ['search', 'train-ai', 'ai-use'];

describe('contentUsage() gives usage()\'s answer', () => {
  it('the issue\'s case: "Content-Usage: /*.pdf train-ai=n" decides for /a.pdf (it was undefined while usage() said disallowed)', () => {
    for (const profile of PROFILES) {
      const robots = parse('User-agent: *\nContent-Usage: /*.pdf train-ai=n\n', { profile });
      expect(robots.usage('/a.pdf', 'FooBot').purposes['train-ai']).toBe('disallowed');
      expect(robots.contentUsage('/a.pdf', 'FooBot')).toBe('train-ai=n');
      expect(robots.contentUsage('/a.html', 'FooBot')).toBeUndefined();
    }
  });

  it('a pattern that is no prefix of the path no longer hides the rule that decides, nor does a shorter rule answer in its place', () => {
    const robots = parse('User-agent: *\nContent-Usage: search=y\nContent-Usage: /*.pdf train-ai=n\n');
    // (Before: "search=y", the rule without a pattern, as "/*.pdf" is no prefix of "/a.pdf".)
    expect(robots.contentUsage('/a.pdf', 'FooBot')).toBe('train-ai=n');
    expect(robots.contentUsage('/a', 'FooBot')).toBe('search=y');
  });

  it('under rfc, a percent-encoded pattern matches as the profile normalises it', () => {
    const robots = parse('User-agent: *\nContent-Usage: /%7Ea/ train-ai=n\n');
    expect(robots.contentUsage('/~a/x', 'FooBot')).toBe('train-ai=n');
  });

  it('rules of the same pattern: every key usage() counted, in file order; a path the crawler may not fetch: none', () => {
    const robots = parse('User-agent: *\nDisallow: /private/\nContent-Usage: /blog/ train-ai=y\nContent-Usage: /blog/ search=y, train-ai=n\nContent-Usage: train-ai=n\n');
    expect(robots.contentUsage('/blog/x', 'FooBot')).toBe('train-ai=y, search=y, train-ai=n');
    // (Before: "train-ai=n", though usage() says robots.txt implies no preference there.)
    expect(robots.contentUsage('/private/x', 'FooBot')).toBeUndefined();
    expect(robots.usage('/private/x', 'FooBot').signals).toEqual([]);
  });
});

// Random files of Content-Usage rules (keys of the vocabulary and one of none, y and n), Allow/Disallow
// rules and groups: per purpose, the keys contentUsage() gives, combined as usage() combines them
// (any n wins, then y), are usage()'s purposes; undefined exactly when usage() counted no rule.
const PATTERNS = ['', '/', '/a', '/a/', '/*.pdf', '/a*', '/*b', '/a$', '/%7Ea', '/~a', '/%41'];
const KEYS = ['search', 'train-ai', 'ai-use', 'foo'];
const item = fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('y', 'n')).map(([k, v]) => `${k}=${v}`);
const lineArb = fc.oneof(
  fc.tuple(fc.constantFrom(...PATTERNS), fc.array(item, { minLength: 1, maxLength: 3 })).map(([p, items]) => `Content-Usage: ${p === '' ? '' : `${p} `}${items.join(', ')}`),
  fc.constantFrom('User-agent: *', 'User-agent: FooBot', 'User-agent: BarBot', 'Disallow: /a/b', 'Allow: /a/b/c', 'Disallow: /*.pdf$', ''),
);
const PATHS = ['/', '/a', '/a/', '/a/b', '/a/b/c', '/x.pdf', '/a.pdf', '/ab', '/b', '/~a', '/%7ea', '/A'];

describe('property: contentUsage() agrees with usage() on random files', () => {
  for (const profile of PROFILES) {
    it(profile, () => {
      fc.assert(
        fc.property(fc.array(lineArb, { maxLength: 12 }), fc.constantFrom('FooBot', 'BarBot', 'Nobody'), fc.constantFrom(...PATHS), (lines, agent, path) => {
          const robots = parse(lines.join('\n'), { profile });
          const raw = robots.contentUsage(path, agent);
          const u = robots.usage(path, agent);
          expect(raw === undefined).toBe(u.signals.length === 0);
          const read = new Map<Purpose, Preference>(PURPOSES.map((p) => [p, 'unknown']));
          for (const kv of raw === undefined ? [] : raw.split(', ')) {
            const [key, value] = kv.split('=');
            if (read.has(key as Purpose)) read.set(key as Purpose, combine(read.get(key as Purpose)!, value === 'n' ? 'disallowed' : 'allowed'));
          }
          expect(Object.fromEntries(read)).toEqual({ ...u.purposes });
          robots.dispose();
        }),
        { numRuns: 1500 },
      );
    });
  }
});
