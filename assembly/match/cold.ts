// The cold walk: a matcher's first URLs are decided from the rule list the
// compiler wrote (H_RULES), best first, and nothing is built for them: a DFA
// state costs a host call and a row of tables, and the trie it is built from
// costs more than a few dozen URLs do; for a crawler that checks a few dozen
// URLs of a host and moves on, most of that would never be used. The list is
// walked rule by rule (rules.ts) until the host indexes it by the rules'
// literal heads (cold-index.ts): then a path meets only the rules it can match.
//
// The walks count their work (entries visited, heads compared) against the
// list's RM_WORK; when it is spent the host reviews the matcher
// (buildTransition with COLD_REVIEW_ROW: src/engine/match/cold-review.ts): it
// may index the list, turn the matcher hot, or let it walk on. The cold budget
// (H_COLD, octets of paths) bounds the cold phase as MatcherOptions.coldOctets
// says; past it the matcher is hot (index.ts).
import { H_COLD, H_RULES, RM_INDEX, RM_URLS, RM_WORK, COLD_REVIEW_ROW, COLD_INDEX_NOW } from "../../src/engine/wasm/layout";
import { walkRules } from "./rules";
import { indexColdList, walkIndexed } from "./cold-index";
import { buildTransition } from "../host";

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
  if (cold != <u32>-1) store<u32>(m, cold - <u32>n, H_COLD); // (all ones: no budget, the host decides)
  const list = load<usize>(m, H_RULES);
  const index = load<usize>(list, RM_INDEX);
  const work = <u32>(index != 0 ? walkIndexed(m, list, index, p, n) : walkRules(m, p, n));
  const left = load<u32>(list, RM_WORK);
  if (left == 0) return true; // (no reviews)
  const urls = load<u32>(list, RM_URLS) + 1;
  if (work < left) {
    store<u32>(list, left - work, RM_WORK);
    store<u32>(list, urls, RM_URLS);
    return true;
  }
  store<u32>(list, 0, RM_URLS);
  store<u32>(list, 0, RM_WORK); // (the review sets the next allowance, or none)
  // (after this URL's verdict is stored: the review may only index the list or end the cold phase)
  if (buildTransition(m, COLD_REVIEW_ROW, urls) == COLD_INDEX_NOW) indexColdList(list);
  return true;
}
