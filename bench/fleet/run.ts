// npm run bench:fleet (bundled by esbuild into build/, as it imports the
// tests' TypeScript helpers): what sharing robots.txt through Redis buys a crawler
// fleet (the `fleet` note of the README). Needs redis-server on PATH.
//
// 1. A fleet of PROCESSES crawler processes (worker.mjs) looks up ORIGINS
//    origins (real HTTP servers on 127.0.0.1), three URLs each, once with a
//    RobotsCache of its own per process and once on one Redis: robots.txt
//    fetches made, and the fleet's lookups per second, cold and warm.
// 2. In one process: a cache that finds every origin already in the store
//    (fetched by another cache) reads it from a MemoryStore or from Redis:
//    lookups per second, against fetching it over HTTP.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryStore, RobotsCache } from '../../dist/index.js';
import { RedisStore } from '../../dist/redis.js';
import { startServer, type TestServer } from '../../test/helpers/http-servers.ts';
import { startRedis } from '../../test/helpers/redis-server.ts';

const { values: args } = parseArgs({ options: { origins: { type: 'string', default: '1000' }, processes: { type: 'string', default: '4' } } });
const ORIGINS = Number(args.origins);
const PROCESSES = Number(args.processes);
// From the package's folder (this file runs bundled, from build/).
const WORKER = path.resolve('bench/fleet/worker.mjs');
const rulesOf = (i) => `User-agent: *\nDisallow: /private-${i}\nAllow: /private-${i}/open\n${'# a comment line of the kind real files carry\n'.repeat(40)}`;

const servers: TestServer[] = [];
for (let i = 0; i < ORIGINS; i += 100) {
  servers.push(...(await Promise.all(Array.from({ length: Math.min(100, ORIGINS - i) }, (_, k) => startServer((_, res) => res.writeHead(200).end(rulesOf(i + k)), { log: false })))));
}
const origins = servers.map((s, i) => [i, s.origin]);
const redis = await startRedis();
const fmt = (n) => Math.round(n).toLocaleString('en-US');

async function fleet(store) {
  await redis.command('FLUSHALL');
  const workers = Array.from({ length: PROCESSES }, (_, k) => {
    const child = spawn(process.execPath, [WORKER], { env: { ...process.env, FLEET_WORKER: JSON.stringify({ redisUrl: redis.url, seed: 1 + k, concurrency: 50, timeoutMs: 10_000, store }) }, stdio: ['pipe', 'pipe', 'inherit'] });
    return { child, lines: createInterface({ input: child.stdout }) };
  });
  const pass = async () => {
    const started = performance.now();
    const results = await Promise.all(workers.map((w) => {
      const reply = new Promise<string>((resolve, reject) => {
        w.lines.once('line', resolve);
        w.child.once('exit', (code) => reject(new Error(`a fleet process exited (${code})`)));
      });
      w.child.stdin.write(JSON.stringify({ origins }) + '\n');
      return reply.then(JSON.parse);
    }));
    return { ms: performance.now() - started, results };
  };
  const cold = await pass();
  const warm = await pass();
  for (const w of workers) w.child.stdin.end(JSON.stringify({ exit: true }) + '\n');
  const lookups = PROCESSES * ORIGINS * 3;
  return {
    fetches: cold.results.reduce((n, r) => n + r.stats.fetches, 0) - 0,
    coldPerSecond: lookups / (cold.ms / 1000),
    warmPerSecond: lookups / (warm.ms / 1000),
  };
}

async function readers() {
  const opts = { agent: 'FleetBot', userAgentHeader: 'FleetBot/1.0', timeoutMs: 10_000 };
  const lookupAll = async (cache) => {
    const started = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (next < ORIGINS) {
        const [i, o] = origins[next++];
        await Promise.all([`/private-${i}/x`, `/private-${i}/open`, '/public'].map((p) => cache.isAllowed(o + p)));
      }
    }));
    return (ORIGINS * 3) / ((performance.now() - started) / 1000);
  };
  const out: { http: number; memory?: number; redis?: number } = { http: await lookupAll(new RobotsCache(opts)) };
  await redis.command('FLUSHALL');
  for (const [name, store] of [['memory', new MemoryStore()], ['redis', new RedisStore({ url: redis.url })]] as const) {
    await lookupAll(new RobotsCache({ ...opts, store }));
    out[name] = await lookupAll(new RobotsCache({ ...opts, store }));
    if ('close' in store) await store.close();
  }
  return out;
}

const alone = await fleet('none');
const shared = await fleet('redis');
const read = await readers();
console.log(`fleet: ${PROCESSES} processes, ${fmt(ORIGINS)} origins, 3 URLs each (node ${process.version}, ${new Date().toISOString().slice(0, 10)})`);
console.log('| | robots.txt fetches | cold lookups/s (fleet) | warm lookups/s (fleet) |');
console.log('| --- | ---: | ---: | ---: |');
console.log(`| each process on its own | ${fmt(alone.fetches)} | ${fmt(alone.coldPerSecond)} | ${fmt(alone.warmPerSecond)} |`);
console.log(`| one Redis for the fleet | ${fmt(shared.fetches)} (${Math.round(100 * (1 - shared.fetches / alone.fetches))}% saved) | ${fmt(shared.coldPerSecond)} | ${fmt(shared.warmPerSecond)} |`);
console.log('');
console.log(`one process, every origin new to its cache, 50 at once: fetched over HTTP ${fmt(read.http)} lookups/s; read from a MemoryStore ${fmt(read.memory)}; from Redis ${fmt(read.redis)}`);
await Promise.all(servers.map((s) => s.close()));
await redis.stop();
