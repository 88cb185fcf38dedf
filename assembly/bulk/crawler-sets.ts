// robots audit's choice of groups for all of a site's crawlers in one call: the
// file's user-agent lines written by the host once (src/bulk/audit/crawler-sets.ts),
// then group-choice.ts's groupsApplying asked for each crawler in turn over them
// (the one decision of which groups apply: none is made here), and the crawlers
// whose groups are the same given one set. The host calls the core once a site,
// not once a crawler, and compares no lists of groups itself.
import { groupsApplying } from "../parse/group-choice";
import { AGENT_CHOICE_NAMED } from "../../src/engine/wasm/layout";

/**
 * groupsApplying for each of `crawlers` crawlers over the count user-agent lines
 * at entries (their values at values), the crawlers' names one after the other
 * at names (each as groupsApplying takes one crawler's: a count, then each name
 * as its length and its octets). Writes at out an i32 a crawler: the index of
 * its set (with AGENT_CHOICE_NAMED when the set's groups name it), the sets
 * numbered as the crawlers first meet them; after those, each set as a count and
 * its owners' indices, ascending. Returns how many sets.
 */
export function crawlerSets(values: usize, entries: usize, count: i32, names: usize, crawlers: i32, out: usize): i32 {
  const setsAt = out + (<usize>crawlers << 2);
  // Each crawler's owners are written where the next set would go, and kept there only if no set before has them.
  let end = setsAt;
  let sets = 0;
  let at = names;
  for (let k = 0; k < crawlers; k++) {
    const chosen = groupsApplying(values, entries, count, at, false, false, end + 4);
    const n = chosen & ~AGENT_CHOICE_NAMED;
    store<i32>(end, n);
    let id = 0;
    let s = setsAt;
    while (s < end) {
      const m = load<i32>(s);
      if (m == n && memory.compare(s + 4, end + 4, <usize>n << 2) == 0) break;
      s += <usize>(m + 1) << 2;
      id++;
    }
    if (s == end) {
      end += <usize>(n + 1) << 2;
      sets++;
    }
    store<i32>(out + (<usize>k << 2), id | (chosen & AGENT_CHOICE_NAMED));
    // (The next crawler's names: past this one's count and names.)
    const namesCount = load<i32>(at);
    at += 4;
    for (let i = 0; i < namesCount; i++) at += 4 + <usize>load<i32>(at);
  }
  return sets;
}
