// The crawler's part of the public surface (src/index.ts): the cache, its
// stores and the fetch of a robots.txt. Loaded by require() when one of these
// is first read (scripts/build-commonjs-entry.mjs).
export { RobotsCache, UNREACHABLE_GIVE_UP_MS } from '../crawler/robots-cache.js';
export { MemoryStore } from '../crawler/memory-store.js';
export type { MemoryStoreOptions } from '../crawler/memory-store.js';
export type { RobotsStore, RobotsRecord, FetchState, StoreEvent } from '../crawler/robots-store.js';
export type { RobotsCacheOptions, RobotsEntry, RobotsCacheStats, RobotsPolicy, CacheUsageOptions } from '../crawler/robots-cache.js';
export { fetchRobots, MAX_REDIRECTS, responseStep } from '../crawler/fetch-robots.js';
export type { FetchFunction, FetchOutcome, FetchRobotsOptions, RobotsStatus, ResponseStep } from '../crawler/fetch-robots.js';
