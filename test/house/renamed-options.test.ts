// Options renamed to follow docs/glossary.md (octets: the content of a body;
// bytes: memory): each old name is still read, as a deprecated alias until 0.2,
// and gives what the new one gives; given both, they must agree.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_OCTETS, fetchRobots, isProductToken, isValidAgent, lint, parse, RobotsCache, type FetchFunction } from '../../src/index.js';

/** Rules before and after 600,000 octets of comment: the default limit reads `/early` only. */
const BODY = 'User-agent: *\nDisallow: /early\n' + '#'.repeat(600_000) + '\nDisallow: /late\n';
const UA = 'FooBot/1.0 (+https://foo.example/bot)';
const served: FetchFunction = async () => new Response(BODY, { status: 200 });

describe('body limits in octets: maxOctets, and maxBytes its deprecated alias', () => {
  it('DEFAULT_MAX_BYTES is DEFAULT_MAX_OCTETS', () => {
    expect(DEFAULT_MAX_OCTETS).toBe(512_000);
    expect(DEFAULT_MAX_BYTES).toBe(DEFAULT_MAX_OCTETS);
  });

  it('parse(): either name sets the limit; both must agree; errors name what was given', () => {
    expect(parse(BODY).isAllowed('/late', 'FooBot')).toBe(true);
    expect(parse(BODY, { maxOctets: 1_000_000 }).isAllowed('/late', 'FooBot')).toBe(false);
    expect(parse(BODY, { maxBytes: 1_000_000 }).isAllowed('/late', 'FooBot')).toBe(false);
    expect(parse(BODY, { maxOctets: Infinity, maxBytes: Infinity }).isAllowed('/late', 'FooBot')).toBe(false);
    expect(parse(BODY, { maxBytes: 1_000_000 }).diagnostics).toEqual(parse(BODY, { maxOctets: 1_000_000 }).diagnostics);
    expect(() => parse('', { maxOctets: 1_000_000, maxBytes: Infinity })).toThrow(/maxBytes is the deprecated name of maxOctets/);
    expect(() => parse('', { maxOctets: 1000 })).toThrow(/^maxOctets must be at least 512000/);
    expect(() => parse('', { maxBytes: 1000 })).toThrow(/^maxBytes must be at least 512000/);
  });

  it('lint(): either name', () => {
    const cut = (report: ReturnType<typeof lint>) => report.findings.some((f) => f.code === 'size-limit');
    expect(cut(lint(BODY))).toBe(true);
    expect(cut(lint(BODY, { maxOctets: 1_000_000 }))).toBe(false);
    expect(cut(lint(BODY, { maxBytes: 1_000_000 }))).toBe(false);
    expect(() => lint(BODY, { maxOctets: 1_000_000, maxBytes: 2_000_000 })).toThrow(TypeError);
  });

  it('fetchRobots(): either name', async () => {
    const read = async (o: object) => (await fetchRobots('https://e.example/robots.txt', { userAgentHeader: UA, fetch: served, ...o })).body!.length;
    expect(await read({})).toBe(DEFAULT_MAX_OCTETS);
    expect(await read({ maxOctets: Infinity })).toBe(BODY.length);
    expect(await read({ maxBytes: Infinity })).toBe(BODY.length);
    await expect(read({ maxOctets: 1000 })).rejects.toThrow(/^maxOctets must be at least 512000/);
    await expect(read({ maxBytes: 1000 })).rejects.toThrow(/^maxBytes must be at least 512000/);
    await expect(read({ maxOctets: Infinity, maxBytes: 600_000 })).rejects.toThrow(TypeError);
  });

  it('RobotsCache: maxBodyOctets, and maxBodyBytes its deprecated alias; maxBytes stays the memory budget', async () => {
    const cache = (o: object) => new RobotsCache({ agent: 'FooBot', userAgentHeader: UA, fetch: served, ...o });
    expect(await cache({}).isAllowed('https://e.example/late')).toBe(true);
    expect(await cache({ maxBodyOctets: 1_000_000 }).isAllowed('https://e.example/late')).toBe(false);
    expect(await cache({ maxBodyBytes: 1_000_000 }).isAllowed('https://e.example/late')).toBe(false);
    expect(() => cache({ maxBodyOctets: 100_000 })).toThrow(/^maxBodyOctets must be at least 512000/);
    expect(() => cache({ maxBodyBytes: 100_000 })).toThrow(/^maxBodyBytes must be at least 512000/);
    expect(() => cache({ maxBodyOctets: 1_000_000, maxBodyBytes: 2_000_000 })).toThrow(/maxBodyBytes is the deprecated name of maxBodyOctets/);
    // (A memory budget too small for the entry evicts it: it is not a body limit.)
    expect(await cache({ maxBytes: 1 }).isAllowed('https://e.example/early')).toBe(false);
  });
});

describe('isProductToken, and isValidAgent its deprecated alias', () => {
  it('the same test of one name', () => {
    for (const name of ['Googlebot', 'Googlebot-Image', 'Googlebot/2.1', '', '*', 'Bot1', 'foo_bar']) {
      expect(isValidAgent(name)).toBe(isProductToken(name));
    }
    expect(isProductToken('Googlebot')).toBe(true);
    expect(isProductToken('Googlebot/2.1')).toBe(false);
  });
});
