// `robots shard`: each URL line labelled with its host's shard, by the very
// hash --shard and robots index take (the core's splitLines, spellings of a
// host canonicalised as in classify: origin-runs.ts), so that a batch engine
// can cut the input into partitions that `classify --shard P/N` keeps whole.
import { core, type Core } from '../../engine/wasm/core.js';
import { LINE_RECORD, RUN_RECORD } from '../../engine/wasm/layout.js';
import { CoreInput } from './core-input.js';
import { canonicaliseRuns } from './origin-runs.js';
import { LINE_AT, LINE_LEN, LINE_U32, RUN_FIRST, RUN_H1, RUN_U32 } from './record-fields.js';
import { shardOf } from '../hosts/shard.js';

const MAX_RECORDS = 1 << 15;

export class LineSharder {
  private readonly core: Core;
  private readonly input: CoreInput;
  private readonly recs: number;
  private readonly runs: number;

  constructor(private readonly shards: number) {
    this.core = core();
    this.input = new CoreInput(this.core);
    this.recs = this.core.alloc(MAX_RECORDS * LINE_RECORD);
    this.runs = this.core.alloc(MAX_RECORDS * RUN_RECORD);
  }

  /** `shard<TAB>line<LF>` for each line of the block (whole lines; blank ones skipped, as classify does). */
  label(input: readonly Uint8Array[]): Buffer {
    const c = this.core;
    const x = c.exports;
    const length = this.input.stage(input);
    const out: Buffer[] = [];
    for (let pos = 0; pos < length; ) {
      const buf = this.input.ptr + pos;
      const count = x.splitLines(buf, length - pos, this.recs, this.runs, MAX_RECORDS);
      const nruns = x.lastRunCount();
      canonicaliseRuns(c, buf, this.recs, this.runs, nruns);
      pos += x.lastSplitEnd();
      for (let r = 0; r < nruns; r++) {
        const q = (this.runs >>> 2) + r * RUN_U32;
        const first = c.i32[q + RUN_FIRST];
        const end = r + 1 < nruns ? c.i32[q + RUN_U32 + RUN_FIRST] : count;
        const label = `${shardOf(c.u32[q + RUN_H1], this.shards)}\t`;
        for (let i = first; i < end; i++) {
          const rec = (this.recs >>> 2) + i * LINE_U32;
          const at = buf + c.i32[rec + LINE_AT];
          out.push(Buffer.from(label, 'latin1'), Buffer.from(c.u8.subarray(at, at + c.i32[rec + LINE_LEN])), NEWLINE);
        }
      }
    }
    return Buffer.concat(out);
  }
}

const NEWLINE = Buffer.from('\n');
