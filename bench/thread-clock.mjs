// This thread's CPU time in ms, exact to a few µs, for timing short passes (rounds.mjs).
//
// Linux's /proc/thread-self/schedstat gives the thread's run time in ns, but the kernel brings
// a running thread's sum up to date only at its scheduler tick (every 4 ms on a 250 Hz
// kernel, this machine's), when the thread stops running, or when the process asks for its
// own CPU time (getrusage: the kernel updates the calling thread's sum first), not when the
// file is read. Read as it is, a parse pass of ~22 ms measured 20 or 24, and the median of
// pooled passes snapped to a multiple of the tick: the engine's parse row moved by a sixth
// from run to run where the native drivers' (clock_gettime, exact) did not. So each reading
// asks for the process's CPU time first (process.cpuUsage(), a getrusage), then reads the file.
import { readFileSync } from 'node:fs';

const SCHEDSTAT = '/proc/thread-self/schedstat';

/** The process's CPU time (all its threads), exact: where no thread clock can be read. */
export const processCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** The thread's CPU time as the file says it (ms). */
const schedstatMs = () => Number(readFileSync(SCHEDSTAT, 'utf8').split(' ', 1)[0]) / 1e6;

/** The thread's CPU time, brought up to date first (Linux; threadCpuClock checks that it is exact). */
export const threadCpuMs = () => {
  process.cpuUsage();
  return schedstatMs();
};

/**
 * A clock of this thread's CPU time in ms, or of the process's where the file cannot be read
 * or is not brought up to date (`kind` says which: checked once, on a millisecond of work).
 * @returns {{ now: () => number, kind: 'thread' | 'process' }}
 */
export function threadCpuClock() {
  return exact() ? { now: threadCpuMs, kind: 'thread' } : { now: processCpuMs, kind: 'process' };
}

/**
 * Whether threadCpuMs is exact: read over a millisecond of the thread's work, it advances read after read in steps of
 * a few µs, where a sum brought up to date only at the scheduler's tick stays put and then jumps by the tick.
 * (Comparing it with the process's clock, as this did, failed whenever other threads ran meanwhile: in a process that
 * has just started, V8's compiler threads; such a process was then timed in the process's clock, its other threads'
 * time in it. Waiting on the thread's own time, not the wall clock's, holds on a busy machine too.)
 */
function exact() {
  try {
    const w0 = performance.now();
    const t0 = threadCpuMs();
    let last = t0;
    let steps = 0;
    let largest = 0;
    while (last - t0 < 1 && performance.now() - w0 < 200) {
      const t = threadCpuMs();
      if (t !== last) {
        steps++;
        largest = Math.max(largest, t - last);
        last = t;
      }
    }
    return steps >= 10 && largest < 0.5;
  } catch {
    return false;
  }
}
