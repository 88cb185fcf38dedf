// What the core asks of its host (src/engine/match/dfa.ts), in one place.

/** Build the transition on byte class `cls` of the state whose row is at octet
 * `row` of matcher m's tables (row 0: build the start state); returns the transition entry. It may move
 * the tables, so callers reload them. */
@external("robots", "buildTransition")
export declare function buildTransition(m: usize, row: u32, cls: u32): u32;
