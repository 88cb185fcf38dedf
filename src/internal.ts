// Internals for this package's tests, benchmarks and command: not part of the
// public surface (the package exports only ./index). Built as its own entry
// that shares its modules with dist/index.js (one core in a process).
export * from './index.js';
export { referenceVerdict, pathParamsQuery, normalizePath } from './reference.js';
export { escapePattern } from './pattern.js';
export { corePath, coreMemoryBytes, coreIsUtf8 } from './core.js';
export { dfaTuning } from './dfa.js';
export { ownMatcherStats } from './robots-txt.js';
export { LineClassifier, MAX_COUNTED_HOSTS, UNREACHABLE, LABEL_MAX, MAX_CRAWLERS, shardOf } from './line-classifier.js';
export type { OutputFormat, MatcherSource, Origin, BlockResult, OutputBuffers, OutputWriter, LabelledMatcher, CrawlerMatchers, CrawlerSource, Shard } from './line-classifier.js';
export { BufferPool } from './buffer-pool.js';
