// The public surface of robots-wasm: the engine (parse, RobotsTxt, Matcher) and
// the crawler's parts (robotsUrl, fetchRobots, RobotsCache), in parts that the
// CommonJS entry loads apart (all but the engine's on first use). Internals: internal.ts.
export * from './exports/engine.js';
export * from './exports/operators.js';
export * from './exports/crawler.js';
export * from './exports/lint.js';
