// The cold list's tokens (assembly/parse/tokenize.ts tokenizeColdRules): a rule
// whose octets stand for themselves, its `*`s alone and not last included, is not
// tokenized (its tokens are its value's octets, its priority their count), the
// others are; values of 0 to 70 octets (two loads up to 32, 16 at a time past that), a
// `*`, `**`, `$`, `%` or octet >= 0x80 anywhere in them, before and after the 16th
// and the 32nd, a `*` or `*$` last. Each entry (flags, head, signature, tokens, by
// rank) against compile.ts's own tokenizer and ranking, both profiles.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileRules } from '../../src/engine/compile/compile.js';
import { selectRules } from '../../src/engine/parse/rule-selection.js';
import { core } from '../../src/engine/wasm/core.js';
import { coldEntriesAt, coldEntriesOf } from '../helpers/host-references.js';

const octet = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('a', 'b', '/', '.', '?', '=') },
  { weight: 3, arbitrary: fc.constant('*') },
  { weight: 1, arbitrary: fc.constantFrom('**', '$', '%', '%41', '%2a', 'é', '~', '{', ' ') },
);
const value = fc
  .tuple(fc.integer({ min: 0, max: 70 }).chain((n) => fc.array(octet, { minLength: n, maxLength: n })), fc.constantFrom('', '', '*', '$', '*$', '**'))
  .map(([octets, last]) => octets.join('') + last);
const file = fc
  .array(fc.tuple(fc.constantFrom('Allow', 'Disallow'), value), { minLength: 1, maxLength: 20 })
  .map((rules) => ['User-agent: *', ...rules.map(([kind, v]) => `${kind}: ${v}`)].join('\n'));

describe('the cold list\'s tokens', () => {
  it('are compile.ts\'s own for values up to 70 octets with `*`, `**`, `$`, `%` and high octets anywhere, both profiles', () => {
    let plain = 0;
    let starred = 0;
    fc.assert(
      fc.property(file, fc.constantFrom<'google' | 'rfc'>('google', 'rfc'), (text, profile) => {
        const body = new TextEncoder().encode(text);
        const inCore = compileRules(body, selectRules(body, ['foobot'], profile), profile, true);
        const hot = compileRules(body, selectRules(body, ['foobot'], profile), profile, false);
        const entries = coldEntriesAt(core(), inCore.cold!.block);
        expect(entries).toEqual(coldEntriesOf(hot));
        for (const e of entries) {
          if (e.tokens.includes('42')) starred++;
          else plain++;
        }
        core().free(inCore.cold!.block);
        core().free(inCore.block);
      }),
      { numRuns: 3000 },
    );
    // (Both kinds of rule were met, many times: lengths are drawn evenly, not mostly short.)
    expect(plain).toBeGreaterThan(1000);
    expect(starred).toBeGreaterThan(1000);
  });
});
