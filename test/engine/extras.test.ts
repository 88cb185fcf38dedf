// extras.json: path extraction, pattern escaping, valid agents, sitemaps and
// crawl-delay (Google's value where disputed).
import { describe, expect, it } from 'vitest';
import { corePath, escapePattern, isValidAgent, parse, pathParamsQuery, productToken } from '../../src/internal.js';
import { HAVE_SHARED, readJson, vectorBody } from '../helpers/shared-data.js';

interface Extra {
  kind: string;
  id: string;
  tags?: string[];
  /** The robots.txt of a sitemap or crawl-delay case, as text or base64 octets. */
  robots?: string;
  robots_b64?: string;
  [k: string]: unknown;
}

const extras: Extra[] = HAVE_SHARED ? readJson('conformance/extras.json') : [];
const ofKind = (k: string) => extras.filter((e) => e.kind === k).map((e) => [e.id, e] as const);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const enc = (s: string) => new TextEncoder().encode(s);

describe.skipIf(!HAVE_SHARED)('extras.json', () => {
  describe('path extraction (GetPathParamsQuery)', () => {
    it.each(ofKind('path'))('%s', (_id, e) => {
      expect(text(pathParamsQuery(enc(e.url as string)))).toBe(e.expected);
      expect(text(corePath(e.url as string, 'google'))).toBe(e.expected);
    });
  });

  describe('pattern escaping (MaybeEscapePattern)', () => {
    it.each(ofKind('escape'))('%s', (_id, e) => {
      expect(text(escapePattern(enc(e.input as string)))).toBe(e.expected);
    });
  });

  describe('valid agents (IsValidUserAgentToObey)', () => {
    it.each(ofKind('valid-agent'))('%s', (_id, e) => {
      expect(isValidAgent(e.agent)).toBe(e.expected);
      if (!e.expected) expect(() => parse('').isAllowed('/', e.agent as string)).toThrow(TypeError);
    });
  });

  describe('sitemaps (profile google)', () => {
    it.each(ofKind('sitemaps'))('%s', (_id, e) => {
      const got = parse(vectorBody(e), { profile: 'google' }).sitemaps;
      const expected = (e.google_sitemaps ?? e.expected) as string[] | undefined;
      if (expected !== undefined) expect(got).toEqual(expected);
      else expect(got.length).toBe(e.expected_count);
    });
  });

  describe('crawl-delay', () => {
    it.each(ofKind('crawl-delay'))('%s', (_id, e) => {
      // crawler-commons matches names by prefix ("googlebot/2.1" gets googlebot's
      // delay); here a name is compared whole, as for its verdicts, and a caller
      // holding such a string takes its product token first (README).
      const agents = ((e.agents ?? [e.agent]) as string[]).map((a) => (e.source === 'crawler-commons' ? productToken(a) : a));
      const got = parse(vectorBody(e), { profile: 'google' }).crawlDelay(agents);
      if (e.expected_gt !== undefined) expect(got).toBeGreaterThan(e.expected_gt as number);
      else if (e.expected === null) expect(got).toBeUndefined();
      else expect(got).toBeCloseTo(e.expected as number, 6);
    });
  });
});
