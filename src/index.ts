export { parse, RobotsTxt, DEFAULT_MAX_BYTES, OWN_MATCHERS_BYTES } from './robots-txt.js';
export type { ParseOptions } from './robots-txt.js';
export { Matcher, DisposedError } from './matcher.js';
export type { Verdict, MatcherOptions } from './matcher.js';
export type { Diagnostic, DiagnosticCode, RuleKind } from './records.js';
export type { Profile } from './pattern.js';
export { isValidAgent, productToken } from './agents.js';
export { robotsUrl } from './robots-url.js';
export { RobotsCache, UNREACHABLE_GIVE_UP_MS } from './robots-cache.js';
export type { RobotsCacheOptions, RobotsEntry, RobotsCacheStats } from './robots-cache.js';
export { fetchRobots, MAX_REDIRECTS } from './fetch-robots.js';
export type { FetchFunction, FetchOutcome, FetchRobotsOptions, RobotsStatus } from './fetch-robots.js';

// Internals for tests and tools: not part of the stable surface.
export { referenceVerdict, pathParamsQuery, normalizePath } from './reference.js';
export { escapePattern } from './pattern.js';
export { corePath, coreMemoryBytes } from './core.js';
export { dfaTuning } from './dfa.js';
export { ownMatcherStats } from './robots-txt.js';
export { LineClassifier, MAX_COUNTED_HOSTS } from './line-classifier.js';
export type { OutputFormat, MatcherSource, BlockResult, OutputBuffers, OutputWriter } from './line-classifier.js';
export { BufferPool } from './buffer-pool.js';
