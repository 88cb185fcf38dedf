// The built entry dist/redis.js, typed from its source (see compat.d.ts).
export * from '../../../src/crawler/redis-store.js';
