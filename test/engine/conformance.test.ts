// The conformance vectors of ../shared/conformance: Google's value for every
// vector under profile `google`; the RFC's for every `rfc` vector under `rfc`.
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';
import { HAVE_SHARED, readJson, Vector, vectorBody } from '../helpers/shared-data.js';

const vectors: Vector[] = HAVE_SHARED ? readJson('conformance/verdicts.json') : [];
// RFC 9309's Figure 4 row contradicts its own text on reserved characters; we follow RFC 3986.
const RFC_EXCEPTIONS = new Set(['rfc/2.2.2-fig4-encoding/3']);

describe.skipIf(!HAVE_SHARED)('conformance vectors', () => {
  it('has all 1,107 vectors', () => expect(vectors.length).toBe(1107));

  describe('profile google returns Google\'s value', () => {
    it.each(vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
      const robots = parse(vectorBody(v), { profile: 'google', maxBytes: Infinity });
      const expected = v.google_allowed ?? v.allowed;
      expect(robots.isAllowed(v.url, v.agents)).toBe(expected);
      const m = robots.compile(v.agents);
      expect(m.checkMany([v.url])[0]).toBe(expected ? 1 : 0);
      m.dispose();
    });
  });

  const rfc = vectors.filter((v) => v.source === 'rfc' && !RFC_EXCEPTIONS.has(v.id));
  describe('profile rfc returns the RFC\'s value', () => {
    it('covers every rfc vector but the documented exception', () => expect(rfc.length).toBe(66));
    it.each(rfc.map((v) => [v.id, v] as const))('%s', (_id, v) => {
      expect(parse(vectorBody(v)).isAllowed(v.url, v.agents)).toBe(v.allowed);
    });
  });
});
