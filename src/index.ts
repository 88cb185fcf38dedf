// The public surface of robots-wasm: the engine (parse, RobotsTxt, Matcher) and
// the crawler's parts (robotsUrl, fetchRobots, RobotsCache). Internals: internal.ts.
export { parse, RobotsTxt, DEFAULT_MAX_BYTES, OWN_MATCHERS_BYTES } from './robots-txt.js';
export type { ParseOptions } from './robots-txt.js';
export { Matcher, DisposedError } from './matcher.js';
export type { Verdict, MatcherOptions } from './matcher.js';
export type { Diagnostic, DiagnosticCode, RuleKind } from './records.js';
export type { Profile } from './pattern.js';
export { isValidAgent, productToken } from './agents.js';
export { robotsUrl } from './robots-url.js';
export { RobotsCache, UNREACHABLE_GIVE_UP_MS } from './robots-cache.js';
export { MemoryStore } from './store/memory-store.js';
export type { MemoryStoreOptions } from './store/memory-store.js';
export type { RobotsStore, RobotsRecord, FetchState, StoreEvent } from './store/robots-store.js';
export type { RobotsCacheOptions, RobotsEntry, RobotsCacheStats } from './robots-cache.js';
export { fetchRobots, MAX_REDIRECTS, responseStep } from './fetch-robots.js';
export type { FetchFunction, FetchOutcome, FetchRobotsOptions, RobotsStatus, ResponseStep } from './fetch-robots.js';
export { lint } from './lint.js';
export type { LintReport, Finding, LintCode } from './lint.js';
