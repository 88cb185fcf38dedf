// The cold walk: a matcher's first URLs are decided rule by rule (rules.ts),
// best first, from the rule list the compiler wrote (H_RULES). A DFA state costs a host call
// and a row of tables, and the trie it is built from costs more than a few
// dozen URLs do; for a crawler that checks a few dozen URLs of a host and moves
// on, most of that would never be used. A rule list costs at most a pass over
// the path per rule tried (most fail at their first octets). The cold budget
// (H_COLD, octets of paths) bounds the cold phase to rules times octets in all;
// past it the matcher is hot (index.ts). (Weighing octets by the rules, so that
// large files turned hot sooner, measured slower on the corpus's crawler mix:
// their trie and first states cost more than a hundred URLs walked cold.)
import { H_COLD } from "../src/engine/wasm/layout";
import { walkRules } from "./rules";

/** Walks p[0, n) cold for matcher m, storing the best allow and disallow rule ids
 * in its header (H_OUT_*). Returns false, having decided nothing, when the path
 * does not fit in what is left of the cold budget: the matcher is hot then. */
export function walkCold(m: usize, p: usize, n: i32): bool {
  const cold = load<u32>(m, H_COLD);
  if (<u32>n >= cold) {
    // Hot from now on: the DFA's first state takes the tokens back (dfa.ts, takeColdList).
    store<u32>(m, 0, H_COLD);
    return false;
  }
  store<u32>(m, cold - <u32>n, H_COLD);
  walkRules(m, p, n);
  return true;
}
