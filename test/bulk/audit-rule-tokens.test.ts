// The audit's reference rule tokens (test/helpers/rule-tokens-reference.ts) against the
// plainly stated patterns of the engine (googlePattern/rfcPattern of
// escapePattern): tokens, anchor and priority, both profiles, on random values
// with escapes, `*`, `$` and octets >= 0x80, and on every rule of the corpus;
// tokensInto (the value read in place, within its file, its tokens written into
// a shared array after others) equal to ruleTokens, with octets around it that
// would change it if read (an escape's digits, `$`) and stars before where its
// tokens go (a star run must not reach back past them).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { escapePattern, googlePattern, rfcPattern } from '../../src/engine/parse/pattern.js';
import { readRecords } from '../../src/engine/parse/records.js';
import { ruleTokens, tokensInto, written } from '../helpers/rule-tokens-reference.js';
import { STAR } from '../../src/engine/parse/pattern.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

/** Octets put before and after a value read in place: an escape cut short before it, hex digits and `$` after it. */
const AROUND = Uint8Array.of(0x25, 0x34, 0x31);
const AFTER = Uint8Array.of(0x34, 0x31, 0x24);

function inFile(value: Uint8Array): Uint8Array {
  const file = new Uint8Array(AROUND.length + value.length + AFTER.length);
  file.set(AROUND);
  file.set(value, AROUND.length);
  file.set(AFTER, AROUND.length + value.length);
  return file;
}

/** tokensInto's answer for the value read within a file, written after others' tokens (stars) in a shared array. */
function inPlace(value: Uint8Array, rfc: boolean): { tokens: Uint16Array; anchored: boolean; priority: number } {
  const before = 3;
  const out = new Uint16Array(before + 3 * value.length + 3).fill(STAR);
  tokensInto(inFile(value), AROUND.length, AROUND.length + value.length, rfc, out, before);
  return { tokens: out.slice(before, before + written.length), anchored: written.anchored, priority: written.priority };
}

/** What differs between the two for the value, or undefined. */
function difference(value: Uint8Array): string | undefined {
  for (const rfc of [true, false]) {
    const want = (rfc ? rfcPattern : googlePattern)(escapePattern(value));
    for (const [how, got] of [['', ruleTokens(value, rfc)], [' in place', inPlace(value, rfc)]] as const) {
      const tokens = got.tokens.length === want.tokens.length && got.tokens.every((t, i) => t === want.tokens[i]);
      if (!tokens || got.anchored !== want.anchored || got.priority !== want.priority) {
        return `${rfc ? 'rfc' : 'google'}${how} ${JSON.stringify(Buffer.from(value).toString('latin1'))}: ${JSON.stringify([[...got.tokens], got.anchored, got.priority])} for ${JSON.stringify([[...want.tokens], want.anchored, want.priority])}`;
      }
    }
  }
  return undefined;
}

function same(value: Uint8Array): void {
  expect(difference(value)).toBeUndefined();
}

const piece = fc.oneof(
  fc.constantFrom('/', 'a', '*', '**', '$', '%', '%4', '%41', '%61', '%2a', '%2A', '%24', '%2f', '%7e', '%C3%A9', '%zz', ' ', '"', '~', '.', '?', '#'),
  fc.integer({ min: 0, max: 255 }).map((c) => String.fromCharCode(c)),
);
const value = fc.array(piece, { maxLength: 10 }).map((p) => Uint8Array.from(p.join(''), (c) => c.charCodeAt(0)));

describe('audit rule tokens', () => {
  it('equal the engine patterns on random values', () => {
    same(new Uint8Array(0));
    fc.assert(fc.property(value, same), { numRuns: 5000 });
  });

  // Reading 4,241 files on a busy machine: a hang guard only.
  it.skipIf(!HAVE_SHARED)('equal the engine patterns on every rule of the corpus', { timeout: 300_000 }, async () => {
    const dir = path.join(SHARED, 'corpus', 'robots');
    let rules = 0;
    const differences: string[] = [];
    for (const [n, f] of readdirSync(dir).sort().entries()) {
      // (The event loop turns now and then: vitest's RPC with the worker must not wait.)
      if (n % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
      const records = readRecords(readFileSync(path.join(dir, f)).subarray(0, 512_000), 'google');
      for (const g of records.groups) {
        for (const r of g.rules) {
          const d = difference(records.body.subarray(r.start, r.end));
          if (d !== undefined) differences.push(`${f}: ${d}`);
          rules++;
        }
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
    expect(rules).toBeGreaterThan(100_000);
  });
});
