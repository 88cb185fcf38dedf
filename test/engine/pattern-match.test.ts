// A pattern against a path (src/engine/parse/pattern-match.ts), as explain's
// reference matcher and the audit compare them: the answer of Google's Matches()
// (its set of positions per token, written out below as the oracle), in steps
// linear in the pattern and the path. Google's set of positions, which the
// reference used before, made a long rule against a long URL cost their product:
// `robots explain` of a 33 KB file and a 32 KB URL took 26 CPU-s.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';
import { globMatches, globMatchSteps } from '../../src/engine/parse/pattern-match.js';
import { STAR } from '../../src/engine/parse/pattern.js';

/** Google's RobotsMatchStrategy::Matches as written there: the positions the pattern so far can end at. */
function positionsMatch(tokens: Uint16Array, anchored: boolean, path: Uint8Array): boolean {
  const n = path.length;
  let pos = [0];
  for (const t of tokens) {
    if (t === STAR) {
      const from = pos[0];
      pos = [];
      for (let i = from; i <= n; i++) pos.push(i);
    } else {
      pos = pos.filter((i) => i < n && path[i] === t).map((i) => i + 1);
      if (pos.length === 0) return false;
    }
  }
  return anchored ? pos[pos.length - 1] === n : true;
}

// Few letters, so that runs meet, overlap and repeat (borders: `aab` in `aaab`); STARs anywhere, in runs too.
const token = fc.constantFrom(0x61, 0x61, 0x62, 0x2f, 0x3f, 0xe9, STAR);
const octet = fc.constantFrom(0x61, 0x61, 0x62, 0x2f, 0x3f, 0xe9);

describe('a pattern against a path', () => {
  it("answers as Google's set of positions does, on random patterns and paths", () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 24 }), fc.boolean(), fc.array(octet, { maxLength: 40 }), (t, anchored, p) => {
        const tokens = Uint16Array.from(t);
        const path = Uint8Array.from(p);
        expect(globMatches(tokens, 0, tokens.length, anchored, path)).toBe(positionsMatch(tokens, anchored, path));
      }),
      { numRuns: 20_000 },
    );
  });

  it('reads only tokens[at, at + length)', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), fc.array(token, { maxLength: 16 }), fc.array(token, { maxLength: 8 }), fc.boolean(), fc.array(octet, { maxLength: 24 }), (before, t, after, anchored, p) => {
        const all = Uint16Array.from([...before, ...t, ...after]);
        const path = Uint8Array.from(p);
        expect(globMatches(all, before.length, t.length, anchored, path)).toBe(positionsMatch(Uint16Array.from(t), anchored, path));
      }),
      { numRuns: 5_000 },
    );
  });

  it('takes steps linear in the pattern and the path where the set of positions took their product', () => {
    for (const n of [4_096, 65_536]) {
      // `*aaa…ab` against `/aaa…a`: every place tries the whole run; `*aaa…a$` where it matches; runs split by stars.
      const run = 'a'.repeat(n);
      const cases: [string, boolean, string][] = [
        [`*${run}b`, false, `/${run}`],
        [`*${run}`, true, `/${run}${run}`],
        [`/*${'a'.repeat(64)}*${'a'.repeat(63)}b`, false, `/${run}`],
      ];
      for (const [pattern, anchored, text] of cases) {
        const tokens = Uint16Array.from([...pattern].map((c) => (c === '*' ? STAR : c.charCodeAt(0))));
        const path = new TextEncoder().encode(text);
        const matched = globMatches(tokens, 0, tokens.length, anchored, path);
        if (n === 4_096) expect(matched).toBe(positionsMatch(tokens, anchored, path));
        expect(globMatchSteps.last, pattern.slice(0, 12)).toBeLessThanOrEqual(4 * (tokens.length + path.length) + 8);
      }
    }
  });

  it('explains 16 KB rules against a 128 KB URL in one pass (the public path: every matching rule)', () => {
    // (A rule's line is cut at 16,664 octets, as Google's parser cuts it: runs of 16,000 keep their last octet.)
    const run = 'a'.repeat(16_000);
    const robots = parse(`User-agent: *\nDisallow: /*${run}b\nAllow: /*${run}\nDisallow: /x\n`);
    const e = robots.explainAll(`https://example.com/${'a'.repeat(131_072)}`, 'Googlebot');
    expect(e.allowed).toBe(true);
    expect(e.matches.map((m) => m.line)).toEqual([3]);
  }, 60_000); // (a hang guard: milliseconds now; the set of positions took minutes)
});
