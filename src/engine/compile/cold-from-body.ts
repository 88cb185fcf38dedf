// A cold matcher's table straight from the body, the core selecting and
// compiling its rules in one call: a first verdict's compile (RobotsTxt's
// compile() and isAllowed() before any records are read). Apart from
// compile.ts, whose hot compile a first verdict never runs: require() of the
// package loads this with the engine and compile.ts on first use
// (scripts/build-commonjs-entry.mjs, docs/benchmarks.md's cold start).
import { core, type Core } from '../wasm/core.js';
import { COLD_COMPILE_BLOCK, COLD_COMPILE_LIST, COLD_COMPILE_POSITIVE, COLD_COMPILE_RESULT, COLD_COMPILE_TOKENS, COLD_COMPILE_VALUE_OCTETS } from '../wasm/layout.js';
import { encodedNames } from '../parse/rule-selection.js';
import { traitsOf, type Profile } from '../parse/profile.js';
import { ColdListBlock, CompiledRuleTable, NO_POSITIONS, NO_TOKENS, type RuleTable } from './rule-table.js';

/**
 * A cold matcher's table for the crawler (its product tokens, lower-cased:
 * agentTokens) straight from the body: the core selects its rules and compiles
 * them in one call (assembly/compile/select-compile.ts), as selectRules() and
 * compileRules(..., true) do in several.
 */
export function compileColdFromBody(body: Uint8Array, names: readonly string[], profile: Profile): RuleTable {
  const { normalises, indexHtmAllowsDirectory, contentUsageIsRule } = traitsOf(profile);
  const c = core();
  const encoded = encodedNames(names);
  const at = c.selectorBuffers(body.length, encoded.length, COLD_COMPILE_RESULT);
  c.putBody(body, at.body);
  c.putNames(encoded, at.names);
  const done = c.exports.selectCompileCold(at.body, body.length, at.names, contentUsageIsRule, normalises, indexHtmAllowsDirectory, at.out);
  const table = coldTable(c, done, at.out);
  c.releaseLargeAreas();
  return table;
}

/** The table the core's cold compiler wrote the results of at out (COLD_COMPILE_*), its rules done. */
export function coldTable(c: Core, done: number, out: number): RuleTable {
  if (c.u8.length === 0) c.refresh(); // (its allocations may have grown the core's memory)
  const o = out >>> 2;
  const u32 = c.u32;
  const list = new ColdListBlock(u32[o + (COLD_COMPILE_LIST >>> 2)], u32[o + (COLD_COMPILE_TOKENS >>> 2)]);
  return new CompiledRuleTable(done, u32[o + (COLD_COMPILE_BLOCK >>> 2)], u32[o + (COLD_COMPILE_VALUE_OCTETS >>> 2)], u32[o + (COLD_COMPILE_POSITIVE >>> 2)], NO_TOKENS, NO_POSITIONS, list);
}
