// A hot matcher's transition tables in the core's memory: one row per DFA
// state, in the layout the core walks (src/engine/wasm/layout.ts: the state's
// accept data, then a transition entry per byte class).
//
// In: state ids and their accepts, transitions found by the determiniser.
// Out: the rows, and the header fields that publish them to the core (H_TRANS,
// H_ROWS_USED, FLAG_WIDE). Invariants: H_ROWS_USED is the octets of the rows
// that hold states, never past the table (what checkMany touches first:
// assembly/match/touch.ts); entries are u16 until the matcher widens, and a matcher
// that widened stays wide; an entry of 0 means "not built yet".
import type { Core } from '../wasm/core.js';
import {
  ENTRY_DEAD, ENTRY_SPECIAL, FLAG_WIDE, H_FLAGS, H_ROWS_USED, H_TRANS, INFO_SIZE, ROW_ALIGN, WIDE_DEAD, WIDE_SPECIAL,
} from '../wasm/layout.js';

export class DfaTables {
  /** Address of the rows (0: none). */
  private at = 0;
  /** Rows there is room for. */
  capacity = 0;
  /** u32 transition entries (the rows outgrew what u16 entries address). */
  wide = false;
  /** Octets of a row: its accept data, then an entry per class, ROW_ALIGN-aligned. */
  rowBytes: number;

  constructor(
    private readonly core: Core,
    private readonly header: number,
    private readonly nclasses: number,
  ) {
    this.rowBytes = this.rowBytesOf();
  }

  /** Octets of the table. */
  get bytes(): number {
    return this.capacity * this.rowBytes;
  }

  /** Empties the tables, with room for `capacity` states. */
  clear(capacity: number): void {
    if (this.at) this.core.free(this.at);
    this.capacity = capacity;
    this.at = this.core.alloc(capacity * this.rowBytes);
    this.core.u8.fill(0, this.at, this.at + capacity * this.rowBytes);
    this.publish();
  }

  /** Doubles the room, the rows kept. */
  grow(): void {
    const old = this.at;
    const used = this.capacity * this.rowBytes;
    this.capacity *= 2;
    this.at = this.core.alloc(this.capacity * this.rowBytes);
    const u8 = this.core.u8;
    u8.copyWithin(this.at, old, old + used);
    u8.fill(0, this.at + used, this.at + this.capacity * this.rowBytes);
    this.core.free(old);
    this.publish();
  }

  /** u32 entries from now on (for the next clear: the rows change size). */
  widen(): void {
    this.wide = true;
    this.rowBytes = this.rowBytesOf();
    this.core.u32[(this.header + H_FLAGS) >>> 2] |= FLAG_WIDE;
  }

  /** Frees the tables for good (rule mode). */
  free(): void {
    this.core.free(this.at);
    this.at = 0;
    this.capacity = 0;
    this.publish();
  }

  /** States 0 to states - 1 hold rows now (see H_ROWS_USED). */
  setRowsUsed(states: number): void {
    this.core.u32[(this.header + H_ROWS_USED) >>> 2] = states * this.rowBytes;
  }

  /** Writes state s's accept data (layout.ts INFO_*). */
  setInfo(s: number, allow: number, disallow: number, endAllow: number, endDisallow: number): void {
    const info = (this.at + s * this.rowBytes) >>> 2;
    const u32 = this.core.u32;
    u32[info] = allow;
    u32[info + 1] = disallow;
    u32[info + 2] = endAllow;
    u32[info + 3] = endDisallow;
  }

  /** Writes the entry of the row at octet `row` for class cls. */
  setEntry(row: number, cls: number, entry: number): void {
    const at = this.at + row + INFO_SIZE;
    if (this.wide) this.core.u32[(at >>> 2) + cls] = entry;
    else this.core.u16[(at >>> 1) + cls] = entry;
  }

  /** The transition entry that leads to state s (layout.ts). */
  entry(s: number, special: boolean, dead: boolean): number {
    const units = (s * this.rowBytes) / ROW_ALIGN;
    if (this.wide) return (units | (special ? WIDE_SPECIAL : 0) | (dead ? WIDE_DEAD : 0)) >>> 0;
    return units | (special ? ENTRY_SPECIAL : 0) | (dead ? ENTRY_DEAD : 0);
  }

  /** @internal For tests: the octets of rows in use as the header tells the core, as `states` states take them, and of the table. */
  rowsInUse(states: number): { header: number; states: number; table: number } {
    const header = this.core.u32[(this.header + H_ROWS_USED) >>> 2];
    return { header, states: this.at === 0 ? 0 : states * this.rowBytes, table: this.capacity * this.rowBytes };
  }

  private publish(): void {
    this.core.u32[(this.header + H_TRANS) >>> 2] = this.at;
    this.core.u32[(this.header + H_ROWS_USED) >>> 2] = 0; // (until the next state is added)
  }

  private rowBytesOf(): number {
    const octets = INFO_SIZE + this.nclasses * (this.wide ? 4 : 2);
    return Math.ceil(octets / ROW_ALIGN) * ROW_ALIGN;
  }
}
