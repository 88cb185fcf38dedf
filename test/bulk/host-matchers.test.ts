// The host cache of `robots classify --robots-dir` (HostMatchers): a segmented
// LRU. A host's first load waits among the hosts seen once (a tenth of the
// bytes); used again from a later run, or loaded again after it was let go, it
// is held among the hosts used again. Least recently used out first in each,
// never the one just used; a host let go has its matcher disposed; loads and the
// evictions of hosts used again counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HostMatchers } from '../../src/bulk/classify/host-matchers.js';
import type { Matcher } from '../../src/engine/match/matcher.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-host-matchers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HOSTS = ['a.example', 'b.example', 'c.example', 'd.example', 'e.example', 'f.example'];
for (const host of HOSTS) writeFileSync(path.join(dir, host), `User-agent: *\n${Array.from({ length: 50 }, (_, i) => `Disallow: /${host}/${i}\n`).join('')}`);

const options = { dir, agents: ['FooBot'], profile: 'rfc' as const, maxOctets: 1 << 20 };
const origin = (i: number) => () => ({ host: HOSTS[i], scheme: 'https', port: '' });
const [A, B, C, D, E, F] = [0, 1, 2, 3, 4, 5];

/** One host's entry's bytes (the hosts' files are the same length). */
function weight(): number {
  const probe = new HostMatchers({ ...options, cacheBytes: 1 << 24 });
  probe.get(A, origin(A));
  return probe.bytes;
}

/** A cache whose hosts seen once hold two entries (a tenth of the bytes), and hosts used again 22. */
function cache(): HostMatchers {
  return new HostMatchers({ ...options, cacheBytes: Math.ceil(2.5 * weight() * 10) });
}

describe('HostMatchers', () => {
  it('holds the hosts seen once in their share, least recently used out first, disposed, not counted as evictions', () => {
    const hosts = cache();
    const a = hosts.get(A, origin(A)) as Matcher;
    const b = hosts.get(B, origin(B)) as Matcher;
    hosts.get(C, origin(C)); // a goes
    expect(a.disposed).toBe(true);
    expect(b.disposed).toBe(false);
    expect(hosts).toMatchObject({ loads: 3, evictions: 0, size: 2 });
  });

  it('moves a host seen once that is used again from a later run among the hosts used again, without loading it', () => {
    const hosts = cache();
    const a = hosts.get(A, origin(A)) as Matcher;
    hosts.get(B, origin(B));
    expect(hosts.get(A, origin(A))).toBe(a); // used again: moved
    for (const h of [C, D, E]) hosts.get(h, origin(h)); // b goes, with c
    expect(hosts.get(A, origin(A))).toBe(a);
    expect(a.disposed).toBe(false);
    expect(hosts).toMatchObject({ loads: 5, evictions: 0, size: 3 });
    expect(a.isAllowed('/a.example/1')).toBe(false);
  });

  it('loads a host let go at its first sight again when it comes back, and holds it among the hosts used again', () => {
    const hosts = cache();
    const a = hosts.get(A, origin(A)) as Matcher;
    hosts.get(B, origin(B));
    hosts.get(C, origin(C)); // a goes
    const again = hosts.get(A, origin(A)) as Matcher;
    expect(again).not.toBe(a);
    expect(hosts.loads).toBe(4);
    for (const h of [D, E, F]) hosts.get(h, origin(h));
    expect(hosts.get(A, origin(A))).toBe(again);
    expect(hosts).toMatchObject({ loads: 7, evictions: 0 });
  });

  it('takes the same host in consecutive runs as one run, not as a use again', () => {
    const hosts = cache();
    const a = hosts.get(A, origin(A)) as Matcher;
    expect(hosts.get(A, origin(A))).toBe(a); // the run goes on (across two blocks, say)
    hosts.get(B, origin(B));
    hosts.get(C, origin(C)); // a, still seen once, goes
    expect(a.disposed).toBe(true);
    expect(hosts.loads).toBe(3);
  });

  it('evicts the least recently used host used again past its share, disposing it, and counts it', () => {
    // Two hosts used again; the first sight's tenth holds only its newest.
    const hosts = new HostMatchers({ ...options, cacheBytes: Math.ceil((2.5 * weight()) / 0.9) });
    hosts.get(A, origin(A));
    hosts.get(B, origin(B)); // a goes (the first sight's share holds only the newest)
    const a = hosts.get(A, origin(A)) as Matcher; // loaded again: used again
    const b = hosts.get(B, origin(B)) as Matcher; // b, newest of the first sight, used again: moved
    hosts.get(C, origin(C));
    expect(hosts.get(A, origin(A))).toBe(a);
    hosts.get(C, origin(C)); // c used again: moved, and b, the least recent, goes
    expect(b.disposed).toBe(true);
    expect(a.disposed).toBe(false);
    expect(hosts).toMatchObject({ loads: 4, evictions: 1, size: 2 });
  });

  it('never lets go of the host just used, even alone past cacheBytes', () => {
    const hosts = new HostMatchers({ ...options, cacheBytes: 1 });
    const a = hosts.get(A, origin(A)) as Matcher;
    expect(a.disposed).toBe(false);
    const b = hosts.get(B, origin(B)) as Matcher;
    expect(a.disposed).toBe(true);
    expect(b.isAllowed('/b.example/7')).toBe(false);
    const a2 = hosts.get(A, origin(A)) as Matcher; // loaded again, among the hosts used again
    expect(a2.isAllowed('/a.example/7')).toBe(false);
    hosts.get(B, origin(B)); // b, the first sight's newest, used again: moved, and a2 goes
    expect(a2.disposed).toBe(true);
    expect(hosts).toMatchObject({ loads: 3, evictions: 1, size: 1 });
  });
});
