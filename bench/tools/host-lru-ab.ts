// The host cache's own work, MatcherLru against HostLru (src/bulk/classify/host-lru.ts), in one process, alternating
// round by round: the sequence of the probes ×30 (127,230 new hosts, each a miss, a set, then got again by its run;
// 1.5-3.9 KB a value under a 256 MiB bound: ~95,000 held), CPU ms per pass (medians of 12).
//   npx vite-node bench/tools/host-lru-ab.ts
import { HostLru } from '../../src/bulk/classify/host-lru.js';
import { MatcherLru } from '../../src/engine/match/matcher-lru.js';
const HOSTS = 127_230;
let x = 12345;
const rnd = () => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x);
const keys = Array.from({ length: HOSTS }, () => (rnd() >>> 0) * 0x200000 + (rnd() >>> 11));
const weights = Array.from({ length: HOSTS }, () => 1500 + (rnd() % 2400));
class V {
  constructor(
    public bytes: number,
    public matcher: object | null,
  ) {}
}
function pass(kind: 'map' | 'flat'): number {
  const opts = { maxBytes: 256 * 2 ** 20, weigh: (v: V) => v.bytes, release: (v: V) => { v.matcher = null; } };
  const lru: { get(k: number): V | undefined; set(k: number, v: V): void; clear(): void } = kind === 'map' ? new MatcherLru<number, V>({ ...opts, keepNewest: true }) : new HostLru<V>(opts);
  const t = process.cpuUsage();
  let hits = 0;
  for (let i = 0; i < HOSTS; i++) {
    const k = keys[i];
    if (lru.get(k) === undefined) lru.set(k, new V(weights[i], {}));
    for (let j = 0; j < 3; j++) if (lru.get(k) !== undefined) hits++;
  }
  lru.clear();
  const u = process.cpuUsage(t);
  if (hits !== 3 * HOSTS) throw new Error('hits');
  return (u.user + u.system) / 1000;
}
const rows: Record<string, number[]> = { map: [], flat: [] };
const orders: ('map' | 'flat')[][] = [['map', 'flat'], ['flat', 'map']];
for (let r = 0; r < 12; r++) for (const k of orders[r % 2]) rows[k].push(pass(k));
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const k of ['map', 'flat']) console.log(k, `median ${med(rows[k]).toFixed(1)} CPU ms [${rows[k].map((v) => v.toFixed(0)).join(' ')}]`);
