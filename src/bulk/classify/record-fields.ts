// Bulk classification's line and run records (the core's splitLines writes
// them: src/engine/wasm/layout.ts gives their fields in octets) as indices
// into the core's u32/i32 views, for the readers on this side: the host
// router, the origin canonicalisation. Defined once, so no reader keeps a copy.
import {
  LINE_HOST_LENGTH, LINE_LENGTH, LINE_RECORD, LINE_START, RUN_FIRST_LINE, RUN_HOST_HASH1, RUN_HOST_HASH2, RUN_ORIGIN_HASH, RUN_RECORD,
} from '../../engine/wasm/layout.js';

export const LINE_U32 = LINE_RECORD >>> 2;
export const LINE_AT = LINE_START >>> 2;
export const LINE_LEN = LINE_LENGTH >>> 2;
export const LINE_HOST_LEN = LINE_HOST_LENGTH >>> 2;
export const RUN_U32 = RUN_RECORD >>> 2;
export const RUN_FIRST = RUN_FIRST_LINE >>> 2;
export const RUN_H1 = RUN_HOST_HASH1 >>> 2;
export const RUN_H2 = RUN_HOST_HASH2 >>> 2;
export const RUN_ORIGIN = RUN_ORIGIN_HASH >>> 2;
