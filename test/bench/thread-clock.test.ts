// The rounds' thread clock (bench/thread-clock.mjs): this thread's CPU time exact to a few
// µs, where /proc/thread-self/schedstat read as it is moves by the kernel's tick (4 ms here).
import { describe, expect, it } from 'vitest';
import { processCpuMs, threadCpuClock } from '../../bench/thread-clock.mjs';

/** Spins for about ms of wall time, allocating nothing (no collection on another thread). */
function busy(ms: number): number {
  const end = performance.now() + ms;
  let x = 0;
  while (performance.now() < end) x += 1;
  return x;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

describe('threadCpuClock', () => {
  const clock = threadCpuClock();

  it.runIf(clock.kind === 'thread')('times a few ms of work as the process clock (exact) does, not in ticks', () => {
    const gaps: number[] = [];
    for (let i = 0; i < 15; i++) {
      const p0 = processCpuMs();
      const t0 = clock.now();
      busy(3 + (i % 5) * 0.7); // (not a multiple of a tick)
      const t1 = clock.now();
      const p1 = processCpuMs();
      gaps.push(Math.abs(t1 - t0 - (p1 - p0)));
    }
    // The file as it is read gives 0, 4 or 8 ms for these: a median gap of 1 to 2 ms.
    expect(median(gaps)).toBeLessThan(0.4);
  });

  it('moves forward with the work', () => {
    const t0 = clock.now();
    busy(10);
    expect(clock.now()).toBeGreaterThan(t0);
  });

  it('says which clock it is (the process clock where the thread clock is not exact)', () => {
    expect(['thread', 'process']).toContain(clock.kind);
  });
});
