// A reading thread of robots index: stretches of WARC files gzipped per
// record in (../index/index-pool.ts), each inflated, parsed and encoded as shard records
// here (../index/warc-chunk-read.ts), one at a time; the records go back whole, their
// buffers transferred, for the main thread to route into the shard files.
import { parentPort, workerData } from 'node:worker_threads';

import { WarcChunkReader, type ChunkRead, type ChunkTask } from '../index/warc-chunk-read.js';
import { reason } from '../base/errors.js';
import type { IndexWorkerData } from '../index/index-pool.js';

const port = parentPort!;
const { shards, maxOctets } = workerData as IndexWorkerData;
const reader = new WarcChunkReader(shards, maxOctets);
/** The stretches in the order they came (a stream-read one awaits: the next waits for it, so memory holds one). */
let turn = Promise.resolve();

port.on('message', (task: ChunkTask | { spare: ArrayBuffer }) => {
  if ('spare' in task) return reader.spare(task.spare);
  turn = turn.then(async () => {
    let read: ChunkRead;
    try {
      read = await reader.read(task);
    } catch (e) {
      read = { seq: task.seq, error: reason(e), length: 0, counts: { records: 0, responses: 0 }, records: new Uint8Array(0), meta: new Float64Array(0), captures: 0, notes: [] };
    }
    port.postMessage(read, [read.records.buffer as ArrayBuffer, read.meta.buffer as ArrayBuffer]);
  });
});
