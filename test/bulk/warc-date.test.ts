// A capture's WARC-Date (warc-date.ts): WARC 1.1's usual form read from its
// digits gives the time Date.parse gives, without calling it; every other
// W3C-ISO8601 form is Date.parse's, and anything else is undated.
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { warcDateOf } from '../../src/bulk/sources/warc/warc-date.js';

afterEach(() => vi.restoreAllMocks());

describe('warcDateOf', () => {
  it("reads WARC 1.1's usual form without Date.parse (robots index reads one a record)", () => {
    const parse = vi.spyOn(Date, 'parse');
    expect(warcDateOf('2024-01-01T00:00:00Z')).toBe(Date.UTC(2024, 0, 1));
    expect(warcDateOf('1999-12-28T23:59:59Z')).toBe(Date.UTC(1999, 11, 28, 23, 59, 59));
    expect(parse).not.toHaveBeenCalled();
  });

  it('gives what Date.parse gives for every date of that form, and the edges the long way', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      // (Fields a little past their ranges: most dates valid, every edge met.)
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), (y, mo, d, h, mi, s) => {
        const text = `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(h)}:${two(mi)}:${two(s)}Z`;
        expect(warcDateOf(text), text).toBe(Date.parse(text));
      }),
      { numRuns: 5000 },
    );
    // A digit of the form replaced by something else, each in turn: no date read from the digits around it.
    for (let i = 0; i < 19; i++) {
      if ('-T:'.includes('2024-05-17T13:45:56Z'[i])) continue;
      for (const c of ['a', '/', ':', ' ']) {
        const text = `${'2024-05-17T13:45:56Z'.slice(0, i)}${c}${'2024-05-17T13:45:56Z'.slice(i + 1)}`;
        expect(warcDateOf(text), text).toBeNaN();
      }
    }
    for (const text of ['0099-01-01T00:00:00Z', '2024-02-29T00:00:00Z', '2024-02-30T12:00:00Z', '2024-13-01T00:00:00Z', '2024-01-01T24:00:00Z', '2024-01-01T00:00:60Z', '2024-00-10T00:00:00Z', '2024-01-00T00:00:00Z']) {
      expect(warcDateOf(text), text).toBe(Date.parse(text));
    }
  });

  it('reads the other W3C-ISO8601 precisions, and dates nothing else', () => {
    expect(warcDateOf('2024-01-01T00:00:00.5Z')).toBe(Date.UTC(2024, 0, 1, 0, 0, 0, 500));
    expect(warcDateOf('2024-01-01T01:00+01:00')).toBe(Date.UTC(2024, 0, 1));
    expect(warcDateOf('2024')).toBe(Date.UTC(2024, 0, 1));
    expect(warcDateOf('+275760-09-13T00:00:00Z')).toBe(8.64e15);
    for (const text of ['-5', '1/1/2030', '2024-01-01 00:00:00Z', '2024-01-01T00:00:00z', '２０２４-01-01T00:00:00Z', '2024-01-01T00:00:00', '', null, undefined]) {
      expect(warcDateOf(text), String(text)).toBeNaN();
    }
  });
});
