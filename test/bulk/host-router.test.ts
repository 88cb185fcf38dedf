// HostRouter's shares: each host to one thread, in proportion to the threads'
// weights (the main thread, which also routes, takes less), a long run of one
// host cut into pieces for the threads with the least lines over weight, and a
// thread of weight 0 given no host.
import { describe, expect, it } from 'vitest';
import { HostRouter } from '../../src/bulk/classify/host-router.js';
import { mainThreadWeight } from '../../src/bulk/threads/routed-pool.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Each thread's lines, as routed. */
function linesOf(router: HostRouter, threads: number, lines: string[]): string[][] {
  const routed = router.route(encoder.encode(lines.join('\n') + '\n'));
  return Array.from({ length: threads }, (_, t) => {
    const spans = routed.spans[t];
    const out: string[] = [];
    for (let k = 0; k < spans.length; k += 2) out.push(...decoder.decode(routed.block.subarray(spans[k], spans[k + 1])).split('\n'));
    return out;
  });
}

describe('HostRouter', () => {
  const hosts = Array.from({ length: 20_000 }, (_, i) => `https://h${i}.example/p`);

  it('gives each thread hosts in proportion to its weight, each host to one thread', () => {
    for (const [threads, first] of [[2, 1], [2, 0.5], [4, 0.25], [3, 0]] as const) {
      const per = linesOf(new HostRouter(threads, undefined, first), threads, [...hosts, ...hosts]);
      const total = first + threads - 1;
      per.forEach((lines, t) => {
        const expected = (2 * hosts.length * (t === 0 ? first : 1)) / total;
        expect(Math.abs(lines.length - expected)).toBeLessThanOrEqual(0.05 * hosts.length);
      });
      // A host's two lines went to the same thread.
      const owner = new Map<string, number>();
      let elsewhere = 0;
      per.forEach((lines, t) => {
        for (const l of lines) {
          if ((owner.get(l) ?? t) !== t) elsewhere++;
          owner.set(l, t);
        }
      });
      expect(elsewhere).toBe(0);
      expect(owner.size).toBe(hosts.length);
    }
  });

  it('cuts a long run of one host into pieces, none for a thread of weight 0', () => {
    const run = Array.from({ length: 40_000 }, (_, i) => `https://big.example/${i}`);
    const per = linesOf(new HostRouter(3, undefined, 0), 3, run);
    expect(per[0]).toHaveLength(0);
    expect(per[1].length + per[2].length).toBe(run.length);
    expect(Math.abs(per[1].length - per[2].length)).toBeLessThanOrEqual(4096);
    const half = linesOf(new HostRouter(2, undefined, 0.5), 2, run);
    expect(Math.abs(half[0].length - run.length / 3)).toBeLessThanOrEqual(4096);
  });

  it('the main thread weighs less as threads grow, and nothing from 11', () => {
    expect(mainThreadWeight(2)).toBeCloseTo(0.818, 2);
    expect(mainThreadWeight(4)).toBeLessThan(mainThreadWeight(2));
    expect(mainThreadWeight(11)).toBe(0);
    expect(mainThreadWeight(16)).toBe(0);
  });
});
