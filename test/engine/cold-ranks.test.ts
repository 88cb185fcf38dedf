// A cold table's rule ids are ranks (assembly/compile/cold-list.ts rank): the longest
// pattern first, on equal length the allow first, then the first line. Checked against
// that order written plainly, for 1 to 40 rules (the core ranks up to 32 four at a time
// against each key, more by counting) whose lengths tie often.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileColdFromBody } from '../../src/engine/compile/cold-from-body.js';
import { agentTokens } from '../../src/engine/parse/agents.js';
import { core } from '../../src/engine/wasm/core.js';
import { HEADER_SIZE, RULE_VALUE_DISALLOW } from '../../src/engine/wasm/layout.js';

interface Rule {
  disallow: boolean;
  value: string;
}

/** A value whose priority is its length under google: no `%`, no octet above 0x7f, no `**`, no index.htm. */
const value = fc.array(fc.constantFrom('/', 'a', 'b', '*', '.'), { minLength: 0, maxLength: 6 }).map((o) => `/${o.join('').replaceAll('**', '*')}`);
const rule = fc.record({ disallow: fc.boolean(), value: fc.oneof(value, value.map((v) => `${v}$`)) });

/** The lines of the rules (the user-agent line is line 1), in the order their ids should have. */
function expectedLines(rules: readonly Rule[]): { line: number; disallow: boolean }[] {
  return rules
    .map((r, i) => ({ line: i + 2, disallow: r.disallow, length: r.value.length }))
    .sort((x, y) => y.length - x.length || Number(x.disallow) - Number(y.disallow) || x.line - y.line)
    .map(({ line, disallow }) => ({ line, disallow }));
}

/** The lines and kinds of a cold table's rules, by id. */
function linesById(rules: readonly Rule[]): { line: number; disallow: boolean }[] {
  const body = new TextEncoder().encode(['User-agent: *', ...rules.map((r) => `${r.disallow ? 'Disallow' : 'Allow'}: ${r.value}`)].join('\n'));
  const t = compileColdFromBody(body, agentTokens('Googlebot', 'google'), 'google');
  const c = core();
  const lines = (t.block + HEADER_SIZE) >>> 2;
  const seen = Array.from({ length: t.count }, (_, id) => ({ line: c.u32[lines + id], disallow: (c.u32[lines + t.count + id] & RULE_VALUE_DISALLOW) !== 0 }));
  c.free(t.cold!.block);
  c.free(t.block);
  return seen;
}

describe('a cold table\'s rule ids', () => {
  it('are ranks: longest first, allows first, then file order, for 1 to 40 rules with ties', () => {
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 40 }), (rules) => {
        expect(linesById(rules)).toEqual(expectedLines(rules));
      }),
      { numRuns: 600 },
    );
  });

  it('for every count up to 40, all rules of one length (file order decides)', () => {
    for (let n = 1; n <= 40; n++) {
      const rules = Array.from({ length: n }, (_, i) => ({ disallow: i % 3 === 1, value: '/ab' }));
      expect(linesById(rules)).toEqual(expectedLines(rules));
    }
  });
});
