// The captures of a WARC index in shared memory (what the worker threads read):
// each capture as the Map had it, and no capture where the Map had none.
import { describe, expect, it } from 'vitest';
import { shareCaptures, SharedCaptureMap } from '../../src/bulk/threads/shared-captures.js';
import type { WarcCapture } from '../../src/bulk/sources/warc/warc-index.js';
import { propertySeed } from '../helpers/seed.js';

function captures(n: number): Map<string, WarcCapture> {
  const map = new Map<string, WarcCapture>();
  let seed = propertySeed();
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  for (let i = 0; i < n; i++) {
    const k = next();
    const url = `${k % 2 === 0 ? 'https' : 'http'}://h${i}.example${k % 5 === 0 ? ':8080' : ''}/robots.txt`;
    const c: WarcCapture = { date: k % 7 === 0 ? Number.NaN : 1.7e12 + k, status: [200, 301, 404, 503, 0][k % 5], location: null, bodyAt: i * 2 ** 33 + k, bodyLength: k % 600_000 };
    if (c.status === 301) c.location = `https://ünï${i}.example/robots.txt?q=${'x'.repeat(k % 300)}`;
    if (k % 11 === 0) c.damaged = `the capture of ${url} is cut short (record ${i})`;
    if (k % 13 === 0) c.unavailable = `unreachable since ${i} (over 30 days, so taken as unavailable): http 503`;
    map.set(url, c);
  }
  // Keys beyond ASCII, empty and long.
  map.set('https://bücher.example/robots.txt', { date: 0, status: 200, location: null, bodyAt: 0, bodyLength: 0 });
  map.set('', { date: 1, status: 302, location: '', bodyAt: 0, bodyLength: 0 });
  map.set(`https://long.example/${'a'.repeat(5000)}`, { date: 2, status: 200, location: null, bodyAt: 7, bodyLength: 9 });
  return map;
}

describe('shared captures', () => {
  const map = captures(20_000);
  const shared = shareCaptures({ spill: '/tmp/bodies', captures: map });

  it('gives every capture as the Map has it, and none for a URL it has not', () => {
    const view = new SharedCaptureMap(shared);
    expect(view.size).toBe(map.size);
    for (const [url, c] of map) expect(view.get(url)).toStrictEqual(c);
    for (const url of ['https://h0.example:8080/robots.txt', 'https://nowhere.example/robots.txt', 'https://h1.example/robots.tx', 'x']) {
      expect(view.has(url)).toBe(map.has(url));
      expect(view.get(url)).toStrictEqual(map.get(url));
    }
    expect(() => view.set()).toThrow(/read-only/);
  });
});
