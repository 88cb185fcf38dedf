// The audit's rules tokenized by the core (core-rule-tokens.ts, the compiler's
// tokenizer over the body the lexer left in the core) against the reference's
// tokens for each value (test/helpers/rule-tokens-reference.ts, which
// audit-rule-tokens.test.ts holds to the engine's plainly stated patterns): tokens, anchor and priority of
// every rule, in file order, both profiles, on random files (escapes, `*`,
// `$`, octets >= 0x80, empty values) and on every file of the corpus; sets
// made one after another in the audit's shared array, values in chunks of the
// core's calls.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { escapePattern, indexHtmDirectory } from '../../src/engine/parse/pattern.js';
import { readRecords } from '../../src/engine/parse/records.js';
import type { Profile } from '../../src/engine/parse/profile.js';
import { ruleTokens } from '../helpers/rule-tokens-reference.js';
import { rulesOf, TokenArena } from '../../src/bulk/audit/path-verdict.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';

const PROFILES: Profile[] = ['rfc', 'google'];

/** What differs between the core's rules of the file and tokensInto's tokens of each of its values, or undefined. */
function difference(body: Uint8Array, profile: Profile, arena: TokenArena): string | undefined {
  const records = readRecords(body, profile);
  arena.start();
  // Each group alone, then all of them: sets one after another in the arena.
  const sets = [...records.groups.map((g) => [g]), records.groups];
  const made = sets.map((groups) => rulesOf(records.body, groups, profile, arena));
  for (const [s, groups] of sets.entries()) {
    const rules = made[s];
    let k = 0;
    for (const g of groups) {
      for (const r of g.rules) {
        const value = records.body.subarray(r.start, r.end);
        const want = ruleTokens(value, profile === 'rfc');
        const got = rules[k++];
        const tokens = got.tokens.subarray(got.at, got.at + got.length);
        if (tokens.length !== want.tokens.length || tokens.some((t, i) => t !== want.tokens[i]) || got.anchored !== want.anchored || got.priority !== want.priority || got.line !== r.line) {
          return `${profile} ${JSON.stringify(Buffer.from(value).toString('latin1'))} (line ${r.line}): ${JSON.stringify([[...tokens], got.anchored, got.priority])} for ${JSON.stringify([[...want.tokens], want.anchored, want.priority])}`;
        }
        // (Google's index.htm rule, an allow of its own after its rule: tokenized apart.)
        if (profile === 'google' && r.kind === 'allow' && indexHtmDirectory(escapePattern(value)) !== null) k++;
      }
    }
    if (k !== rules.length) return `${profile}: ${rules.length} rules for ${k}`;
  }
  return undefined;
}

const piece = fc.oneof(
  fc.constantFrom('/', 'a', '*', '**', '$', '%', '%4', '%41', '%61', '%2a', '%2A', '%24', '%2f', '%7e', '%C3%A9', '%zz', '"', '~', '.', '?', '/index.htm', '/index.html'),
  fc.integer({ min: 0x21, max: 255 }).filter((c) => c !== 0x23).map((c) => String.fromCharCode(c)),
);
const value = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
const line = fc.tuple(fc.constantFrom('Allow', 'Disallow', 'User-agent'), value).map(([k, v]) => `${k}: ${k === 'User-agent' ? (v.length % 2 === 0 ? '*' : 'GPTBot') : v}`);
const file = fc.array(line, { maxLength: 30 }).map((lines) => Uint8Array.from(['User-agent: *', ...lines].join('\n'), (c) => c.charCodeAt(0)));

describe('the core tokenizes the audit\'s rules as tokensInto does', () => {
  it('on random files', () => {
    const arena = new TokenArena();
    fc.assert(fc.property(file, (body) => {
      for (const profile of PROFILES) expect(difference(body, profile, arena)).toBeUndefined();
    }), { numRuns: 1500 });
  });

  it('on a set of more values than one call of the core takes', () => {
    const lines = ['User-agent: *'];
    for (let i = 0; i < 5000; i++) lines.push(`${i % 3 === 0 ? 'Allow' : 'Disallow'}: /${i.toString(36)}/*%41%2f*.html$`);
    const body = new TextEncoder().encode(lines.join('\n'));
    for (const profile of PROFILES) expect(difference(body, profile, new TokenArena())).toBeUndefined();
  });

  // Reading 4,241 files twice on a busy machine: a hang guard only.
  it.skipIf(!HAVE_SHARED)('on every file of the corpus', { timeout: 600_000 }, async () => {
    const dir = path.join(SHARED, 'corpus', 'robots');
    const arena = new TokenArena();
    for (const [n, f] of readdirSync(dir).sort().entries()) {
      // (The event loop turns now and then: vitest's RPC with the worker must not wait.)
      if (n % 200 === 0) await new Promise((resolve) => setImmediate(resolve));
      const body = readFileSync(path.join(dir, f)).subarray(0, 512_000);
      for (const profile of PROFILES) {
        const d = difference(body, profile, arena);
        if (d !== undefined) expect(d, f).toBeUndefined();
      }
    }
  });
});
