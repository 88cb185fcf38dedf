// The host cache of `robots classify --robots-dir` (HostMatchers, a MatcherLru
// of entries): least recently used host out first, never the one just used,
// an evicted host's matcher disposed, and its loads and evictions counted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HostMatchers } from '../../src/bulk/classify/host-matchers.js';
import type { Matcher } from '../../src/engine/match/matcher.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-host-matchers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HOSTS = ['a.example', 'b.example', 'c.example'];
for (const host of HOSTS) writeFileSync(path.join(dir, host), `User-agent: *\n${Array.from({ length: 50 }, (_, i) => `Disallow: /${host}/${i}\n`).join('')}`);

const options = { dir, agents: ['FooBot'], profile: 'rfc' as const, maxOctets: 1 << 20 };
const origin = (i: number) => () => ({ host: HOSTS[i], scheme: 'https', port: '' });

describe('HostMatchers', () => {
  it('evicts the least recently used host past cacheBytes, disposing its matcher; a host used again is not loaded again', () => {
    const probe = new HostMatchers({ ...options, cacheBytes: 1 << 24 });
    probe.get(0, origin(0));
    const weight = probe.bytes;
    // Room for two hosts, not three.
    const hosts = new HostMatchers({ ...options, cacheBytes: Math.floor(2.5 * weight) });
    const a = hosts.get(0, origin(0)) as Matcher;
    const b = hosts.get(1, origin(1)) as Matcher;
    expect(hosts.get(0, origin(0))).toBe(a); // a is now the most recent
    hosts.get(2, origin(2)); // b goes
    expect(b.disposed).toBe(true);
    expect(a.disposed).toBe(false);
    expect(hosts).toMatchObject({ loads: 3, evictions: 1, size: 2 });
    expect(hosts.get(0, origin(0))).toBe(a);
    expect(hosts.loads).toBe(3);
    expect(hosts.get(1, origin(1))).not.toBe(b); // loaded again: c, the least recent, goes
    expect(hosts).toMatchObject({ loads: 4, evictions: 2, size: 2 });
    expect(a.isAllowed('/a.example/1')).toBe(false);
  });

  it('never evicts the host just used, even alone past cacheBytes', () => {
    const hosts = new HostMatchers({ ...options, cacheBytes: 1 });
    const a = hosts.get(0, origin(0)) as Matcher;
    expect(a.disposed).toBe(false);
    const b = hosts.get(1, origin(1)) as Matcher;
    expect(a.disposed).toBe(true);
    expect(b.isAllowed('/b.example/7')).toBe(false);
    expect(hosts).toMatchObject({ loads: 2, evictions: 1, size: 1 });
  });
});
