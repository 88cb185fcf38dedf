// The cold walk: a matcher's first URLs are decided rule by rule (rules.ts),
// best first, straight from the rules' tokens. A DFA state costs a host call
// and a row of tables, and the trie it is built from costs more than a few
// dozen URLs do; for a crawler that checks a few dozen URLs of a host and moves
// on, most of that would never be used. A rule list costs one pass over the
// path per rule tried (most fail at their first octets), so the cold budget
// (H_COLD) is spent in octets times a weight that grows with the rules: a
// large file soon turns hot, where its automaton pays off (index.ts).
import { H_COLD, H_RULES, RM_COUNT, BUILD_COLD_ROW } from "../src/engine/layout";
import { buildTransition } from "./host";
import { walkRules } from "./rules";

/** Rules a cold octet pays for: past it, an octet of path weighs one more. */
const RULES_PER_OCTET: u32 = 1024;

/** Walks p[0, n) cold for matcher m, storing the best allow and disallow rule ids
 * in its header (H_OUT_*). Returns false, having decided nothing, when the path
 * does not fit in what is left of the cold budget: the matcher is hot then. */
export function walkCold(m: usize, p: usize, n: i32): bool {
  let list = load<usize>(m, H_RULES);
  if (list == 0) {
    buildTransition(m, BUILD_COLD_ROW, 0);
    list = load<usize>(m, H_RULES);
  }
  const cold = load<u32>(m, H_COLD);
  const cost = <u64>n * <u64>(1 + load<u32>(list, RM_COUNT) / RULES_PER_OCTET);
  if (cost >= <u64>cold) {
    // Hot from now on: the DFA's first state takes the rules back (dfa.ts, restoreRules).
    store<u32>(m, 0, H_COLD);
    return false;
  }
  store<u32>(m, cold - <u32>cost, H_COLD);
  walkRules(m, p, n);
  return true;
}
