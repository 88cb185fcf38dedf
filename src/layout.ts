// Byte layout of a compiled matcher in WASM linear memory. Shared by the
// TypeScript compiler (src/) and the AssemblyScript core (assembly/), so the
// two sides can never disagree: both import these plain numeric constants.

/** Offsets (bytes) of the u32 fields of a matcher header. */
export const H_FLAGS = 0; // FLAG_* bits below
export const H_NCLASSES = 4; // number of byte classes (row width of the transition table)
export const H_CLASSMAP = 8; // ptr: 256 bytes, byte -> class
export const H_TRANS = 12; // ptr: u16[states * nclasses], entry = state | ENTRY_* bits, 0 = not built
export const H_INFO = 16; // ptr: per state INFO_SIZE bytes (see INFO_*)
export const H_START = 20; // start state entry (state | ENTRY_* bits)
export const H_PRIO = 24; // ptr: i32 priority per rule id
export const H_OUT_ALLOW = 28; // out: best allow rule id of the last match (NO_RULE if none)
export const H_OUT_DISALLOW = 32; // out: best disallow rule id of the last match
export const H_LINES = 36; // ptr: u32 robots.txt line per rule id
export const HEADER_SIZE = 64;

/** Header flags. */
export const FLAG_RFC = 1; // normalise the path (RFC 3986) and always allow /robots.txt
export const FLAG_GOOGLE = 2; // Google's path quirks: the path ends at the first NUL

/** Per-state accept data: four u32 rule ids (NO_RULE when none). */
export const INFO_STICKY_ALLOW = 0; // best allow rule completed on entering the state
export const INFO_STICKY_DISALLOW = 4;
export const INFO_END_ALLOW = 8; // best end-anchored allow rule, if the path ends here
export const INFO_END_DISALLOW = 12;
export const INFO_SIZE = 16;

/** Transition entries are u16 (small rows stay in cache); the low 14 bits hold the target state (>= 1). */
export const ENTRY_SPECIAL = 0x8000; // target has sticky accepts: read its info
export const ENTRY_DEAD = 0x4000; // target can never change the verdict: stop walking
export const ENTRY_STATE_MASK = 0x3fff;
/** States per matcher before its tables are cleared. */
export const MAX_STATES = 0x3fff;

export const NO_RULE = 0xffffffff;
