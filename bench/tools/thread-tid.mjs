// Preloaded (--import) by thread-cpu.mjs into `robots classify`: each worker
// thread writes its OS thread id to $THREAD_CPU_TIDS, so that the per-thread
// CPU read from /proc can tell the classification threads from V8's own.
import { appendFileSync, readlinkSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

if (!isMainThread && process.env.THREAD_CPU_TIDS) {
  appendFileSync(process.env.THREAD_CPU_TIDS, `${readlinkSync('/proc/thread-self').split('/').pop()}\n`);
}
