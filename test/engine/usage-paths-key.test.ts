// Content-Usage rules of the same pattern (as the profile normalises it) combine, and of
// different patterns do not, however long: a pattern's key is built a chunk of 16,384
// tokens at a time, and a line's 12,000 octets of `é` are 36,000 tokens once escaped
// (`%C3%A9`), so patterns that differ only past the first chunk, or only in it, are
// told apart, and the same long pattern written twice combines.
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';

// (Encoded, as a crawler sends it: the google profile matches the URL as given.)
const url = (p: string) => `https://example.com${encodeURI(p)}`;
const LONG = 'é'.repeat(6_000);

describe('the key of a Content-Usage pattern', () => {
  for (const profile of ['google', 'rfc'] as const) {
    it(`${profile}: the same pattern of 36,000 tokens combines; patterns differing past 16,384 tokens, or before, do not`, { timeout: 120_000 /* a hang guard: long patterns compiled on a busy machine */ }, () => {
      const purposes = (body: string, path: string) => ({ ...parse(`User-agent: *\n${body}`, { profile }).usage(url(path), 'FooBot').purposes });
      expect(purposes(`Content-Usage: /${LONG}b train-ai=y\nContent-Usage: /${LONG}b search=n\n`, `/${LONG}b`)).toEqual({ search: 'disallowed', 'train-ai': 'allowed', 'ai-use': 'unknown' });
      // The same length, different past the first chunk only: the first in file order decides alone.
      expect(purposes(`Content-Usage: /${LONG}* train-ai=y\nContent-Usage: /${LONG}b search=n\n`, `/${LONG}b`)).toEqual({ search: 'unknown', 'train-ai': 'allowed', 'ai-use': 'unknown' });
      // Different in the first chunk only: one of them decides alone (which one is the profile's tie-break).
      expect([
        { search: 'unknown', 'train-ai': 'allowed', 'ai-use': 'unknown' },
        { search: 'disallowed', 'train-ai': 'unknown', 'ai-use': 'unknown' },
      ]).toContainEqual(purposes(`Content-Usage: /*${LONG} train-ai=y\nContent-Usage: /b${LONG} search=n\n`, `/b${LONG}`));
      // As the profile reads percent-encoding: `%62` is `b` under rfc (one pattern, combined); under google
      // another pattern, which does not match `b`: the `b` rule decides alone.
      expect(purposes(`Content-Usage: /${LONG}%62 train-ai=y\nContent-Usage: /${LONG}b search=n\n`, `/${LONG}b`)).toEqual(
        profile === 'rfc' ? { search: 'disallowed', 'train-ai': 'allowed', 'ai-use': 'unknown' } : { search: 'disallowed', 'train-ai': 'unknown', 'ai-use': 'unknown' },
      );
    });
  }
});
