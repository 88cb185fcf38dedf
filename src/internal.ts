// Internals for this package's tests, benchmarks and command: not part of the
// public surface (the package exports only ./index). Built as its own entry
// that shares its modules with dist/index.js (one core in a process).
export * from './index.js';
export { referenceVerdict, pathParamsQuery, normalizePath } from './engine/reference.js';
export { escapePattern } from './engine/pattern.js';
export { requestedPath } from './engine/from-path.js';
export { corePath, coreMemoryBytes, coreAllocatedBytes, coreIsUtf8 } from './engine/core.js';
export { dfaTuning } from './engine/dfa.js';
export { ownMatcherStats, compileOctets } from './engine/robots-txt.js';
export { LineClassifier, MAX_COUNTED_HOSTS, UNREACHABLE, LABEL_MAX, MAX_CRAWLERS, shardOf } from './node/line-classifier.js';
export type { OutputFormat, MatcherSource, Origin, BlockResult, OutputBuffers, OutputWriter, LabelledMatcher, CrawlerMatchers, CrawlerSource, Shard } from './node/line-classifier.js';
export { BufferPool } from './node/buffer-pool.js';
