// One crawler process of a fleet (test/crawler/fleet.test.ts, bench/fleet/run.ts): its
// own RobotsCache, on the fleet's Redis or (store 'none') on its own. It reads
// commands from stdin, one JSON a line ({ origins: [[i, origin], ...] }),
// looks up three URLs of each origin in an order of its own with many lookups
// at once, and answers one JSON line: its verdicts, its counters, what the
// cache told of the store, and the run's time.
import { createInterface } from 'node:readline';
import { RobotsCache } from '../../dist/index.js';
import { RedisStore } from '../../dist/redis.js';

const settings = process.env.FLEET_WORKER;
if (settings === undefined) throw new Error('FLEET_WORKER (the worker\'s settings, JSON) is not set');
const { redisUrl, seed, concurrency, timeoutMs, store: kind = 'redis' } = JSON.parse(settings);
const events = [];
process.on('unhandledRejection', (error) => {
  process.stdout.write(JSON.stringify({ fatal: `unhandled rejection: ${error instanceof Error ? error.stack : error}` }) + '\n');
  process.exit(3);
});
const store = kind === 'redis' ? new RedisStore({ url: redisUrl, prefix: 'fleet:' }) : undefined;
const cache = new RobotsCache({
  agent: 'FleetBot',
  userAgentHeader: 'FleetBot/1.0 (+https://fleet.example/bot)',
  store,
  timeoutMs,
  // Nothing expires during the test: any second fetch would be the fleet's fault.
  retryMs: 3_600_000,
  onStoreEvent: (e) => events.push(e.type),
});

let state = seed >>> 0;
const random = () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);

async function run(origins) {
  const order = origins.slice();
  for (let k = order.length - 1; k > 0; k--) {
    const j = Math.floor(random() * (k + 1));
    [order[k], order[j]] = [order[j], order[k]];
  }
  const verdicts = {};
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < order.length) {
      const [i, origin] = order[next++];
      // Three URLs at once: they share one lookup of the origin.
      verdicts[i] = await Promise.all([`/private-${i}/x`, `/private-${i}/open`, '/public'].map((p) => cache.isAllowed(origin + p)));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  return { verdicts, stats: cache.stats, events, ms: performance.now() - started };
}

for await (const line of createInterface({ input: process.stdin })) {
  const command = JSON.parse(line);
  if (command.exit) break;
  process.stdout.write(JSON.stringify(await run(command.origins)) + '\n');
}
await store?.close();
