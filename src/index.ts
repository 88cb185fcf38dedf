// The public surface of robots-wasm: the engine (parse, RobotsTxt, Matcher) and
// the crawler's parts (robotsUrl, fetchRobots, RobotsCache), in three parts that
// the CommonJS entry loads apart (the crawler's and lint on first use). Internals: internal.ts.
export * from './exports/engine.js';
export * from './exports/crawler.js';
export * from './exports/lint.js';
