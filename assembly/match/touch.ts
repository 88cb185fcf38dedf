// A matcher's tables brought into the caches before a run of its URLs. A
// matcher checked after many others (a warm loop over thousands of hosts) has
// its rows out of the caches, and its walk misses on most rows it meets, one
// after the other: each step's load waits for the one before, since a state's
// row is found in the last. Reading an octet of each cache line first costs
// loads that wait for none: their misses overlap (bench/tools/host-spread.mjs
// measures it). Only checkMany touches, knowing how many URLs will follow:
// check() cannot (touching at the third URL of one matcher in a row gained on
// long runs and lost on runs of exactly 3).
import { H_CLASSMAP, H_ROWS_USED, H_TRANS } from "../../src/engine/wasm/layout";

/** Octets of rows a batch touches per URL, from the table's start: the oldest
 * states, near the start state, that most URLs walk through. A touch of rows
 * in the caches costs little, but not nothing: more per URL cost time on the
 * files with most rules, whose tables are in the caches, and gained nothing on
 * a walk over many hosts. */
export const TOUCH_PER_URL: u32 = 512;

/** What the touches read (kept, so that they are not optimised away). */
let touched: u32 = 0;

/** Reads an octet of each cache line of m's byte classes and of its first `most` octets of rows in use. */
export function touchTables(m: usize, most: u32): void {
  const used = load<u32>(m, H_ROWS_USED); // (0: no tables, cold or in rule mode)
  if (used == 0) return;
  const classes = load<usize>(m, H_CLASSMAP);
  let acc: u32 = load<u8>(classes) | load<u8>(classes, 64) | load<u8>(classes, 128) | load<u8>(classes, 192);
  for (let a = load<usize>(m, H_TRANS), end = a + <usize>min(used, most); a < end; a += 64) acc |= load<u8>(a);
  touched |= acc;
}
