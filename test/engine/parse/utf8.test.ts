// The core's UTF-8 validation (assembly/base/utf8.ts), which the lexer uses for
// LINE_INVALID_UTF8 and the engine's portability (no node:buffer), against
// Node's isUtf8 (simdutf) on the corners: every 1-4 octet sequence's
// boundaries, overlongs, surrogates, past U+10FFFF, cut sequences, long ASCII
// runs around them (the 16-octet steps), and random octets.
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coreIsUtf8 } from '../../../src/internal.js';

const edges = [0x00, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xee, 0xef, 0xf0, 0xf4, 0xf5, 0xff, 0x8f, 0x90, 0x9f, 0xa0];

describe('core isUtf8', () => {
  it('agrees with Node on every sequence of up to 3 edge octets, at every place of a 16-octet step', () => {
    // 224,000 sequences: the ones that disagree are collected and compared once (an expect() each made the
    // test CPU-bound on its assertions: 18 s beside two CPU hogs).
    const disagree: string[] = [];
    for (const a of edges) for (const b of edges) for (const c of edges) {
      for (const pad of [0, 1, 14, 15, 16, 17, 31]) {
        for (const tail of [0, 1, 15, 16]) {
          const bytes = new Uint8Array([...new Array(pad).fill(0x61), a, b, c, ...new Array(tail).fill(0x62)]);
          if (coreIsUtf8(bytes) !== isUtf8(bytes) && disagree.length < 10) disagree.push(Buffer.from(bytes).toString('hex'));
        }
      }
    }
    expect(disagree).toEqual([]);
  });

  it('agrees with Node on real characters, cut anywhere, and on random octets', () => {
    const text = Buffer.from('a€𝄞é中\u{10FFFF}\u{FFFF}x'.repeat(5));
    for (let cut = 0; cut <= text.length; cut++) expect(coreIsUtf8(text.subarray(0, cut))).toBe(isUtf8(text.subarray(0, cut)));
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => coreIsUtf8(bytes) === isUtf8(bytes)), { numRuns: 20_000 });
    const mostlyAscii = fc.array(fc.oneof(fc.constant(0x61), fc.constant(0x61), fc.integer({ min: 0, max: 255 })), { maxLength: 300 }).map((a) => Uint8Array.from(a));
    fc.assert(fc.property(mostlyAscii, (bytes) => coreIsUtf8(bytes) === isUtf8(bytes)), { numRuns: 20_000 });
    expect(coreIsUtf8(new Uint8Array(0))).toBe(true);
  });
});
