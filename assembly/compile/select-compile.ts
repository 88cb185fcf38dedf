// A cold matcher's rules straight from a robots.txt body, in one call from the
// host: the selector (select.ts) run to the end into a block of the core's,
// its rules kept (the groups that apply) and compiled there (cold-list.ts).
// A crawler's first verdict for a host compiles so: the host's calls across
// and its loops over the selector's batches (a large file's, copied out and
// back) were a share of that verdict worth saving.
import { alloc, free } from "../base/alloc";
import { selectBegin, selectRun, selectDone, selectKeep } from "../parse/select";
import { compileColdRules } from "./cold-list";
import { SELECT_FIELDS } from "../../src/engine/wasm/layout";

const RECORD: usize = <usize>(SELECT_FIELDS << 2);
/** Records the block starts with, and past which a large file's block is freed after it. */
const FIRST_RECORDS: i32 = 1024;
const KEPT_RECORDS: i32 = 1 << 14;

let records: usize = 0;
let capacity: i32 = 0;

/** The block, with room for `need` records, holding its first `used`. */
function reserve(need: i32, used: i32): void {
  if (need <= capacity) return;
  const size = max(need, capacity << 1);
  const grown = alloc(<usize>size * RECORD);
  if (records != 0) {
    memory.copy(grown, records, <usize>used * RECORD);
    free(records);
  }
  records = grown;
  capacity = size;
}

/**
 * Selects the rules of the body at b (n octets) for the crawler whose names
 * are at names (select.ts), and compiles them for a cold matcher
 * (compileColdRules: rfc, google, and its results at out). Returns the rules compiled.
 */
export function selectCompileCold(b: usize, n: i32, names: usize, usageRule: bool, rfc: bool, google: bool, out: usize): i32 {
  reserve(FIRST_RECORDS, 0);
  selectBegin(b, n, names, usageRule);
  let count = 0;
  for (;;) {
    count += selectRun(records + <usize>count * RECORD, capacity - count);
    if (selectDone()) break;
    reserve(count + 1, count); // (the selector stopped with its output full)
  }
  const compiled = compileColdRules(b, records, selectKeep(records, count), rfc, google, out);
  if (capacity > KEPT_RECORDS) {
    free(records);
    records = 0;
    capacity = 0;
  }
  return compiled;
}
