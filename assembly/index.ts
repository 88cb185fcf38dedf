// The WASM core: walks a lazily built DFA over the octets of a URL's path and
// returns the longest-match verdict. States are built on demand by the host
// (src/engine/match/dfa.ts) through the imported `buildTransition`; once built, a
// transition costs one table load per octet. JavaScript never loops over rules.
import { FLAG_GOOGLE, H_FLAGS, PATH_END, PATH_SLASH, PATH_START } from "../src/engine/wasm/layout";
import { extractPath, pathStart, pathEnd, pathSlash } from "./parse/path";
import { normalizeInto } from "./parse/normalize";
import { firstDotSegment, removeDotSegments } from "./parse/dot-segments";
import { decide } from "./match/decide";

export { alloc, free, allocatedBytes, heapAllocations } from "./base/alloc";

/** Decides the URL u[0, n) for matcher m: 1 allowed, 0 disallowed. The rule
 * ids behind the verdict are left in the header (H_OUT_*). */
export function check(m: usize, u: usize, n: i32): i32 {
  const flags = load<u32>(m, H_FLAGS);
  extractPath(u, n, (flags & FLAG_GOOGLE) != 0);
  return decide(m, u, flags, false);
}

/** Path extraction alone, for tests: writes (start, end, slash) as i32s to out. */
export function pathOf(u: usize, n: i32, stopAtNul: bool, out: usize): void {
  extractPath(u, n, stopAtNul);
  store<i32>(out, pathStart, PATH_START);
  store<i32>(out, pathEnd, PATH_END);
  store<i32>(out, pathSlash ? 1 : 0, PATH_SLASH);
}

/** RFC 3986 path normalisation alone, for tests: returns the length written to dst. */
export function normalize(src: usize, n: i32, dst: usize): i32 {
  return normalizeInto(src, n, dst);
}

/** Dot-segment removal alone, in place on a normalised path, for tests: returns the new length. */
export function dropDotSegments(p: usize, n: i32): i32 {
  const dot = firstDotSegment(p, n);
  return dot < 0 ? n : removeDotSegments(p, n, dot, p);
}

export { decide } from "./match/decide";
export { checkBatch } from "./match/batch";
export { lexBegin, lexRun, lexDone, lexLines } from "./parse/lexer";
export { tokenizeRules, gatherRuns } from "./parse/tokenize";
export { compileColdRules } from "./compile/cold-list";
export { selectCompileCold } from "./compile/select-compile";
export { splitLines, classifyLines, classifyLinesMulti, lastSplitEnd, lastRunCount, lastOutEnd, lastAllowedCount } from "./bulk/classify";
export { isUtf8 } from "./base/utf8";
export { buildLiteralHeads } from "./compile/literal-trie";
export { planStarRuleList, lastStarPlanOctets, lastStarPlanTried } from "./compile/star-plan";
export { starHeavyRules, lastGramHeavyRules } from "./match/rule-mode";
// Exported only to keep it a function of its own: with one caller (cold.ts) it
// would be inlined into decide(), whose DFA loop it crowds.
export { walkRules } from "./match/rules";
export { selectBegin, selectRun, selectDone, selectWanted, selectKeep } from "./parse/select";
export { groupsApplying, agentNameIndex } from "./parse/group-choice";
export { auditWitnesses } from "./bulk/audit-witness";
export { lexRunGroupKeys } from "./bulk/audit-lines";
export { groupsApplyingEach } from "./bulk/audit-group-choice";
