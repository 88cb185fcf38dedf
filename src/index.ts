export { parse, RobotsTxt, DEFAULT_MAX_BYTES } from './robots-txt.js';
export type { ParseOptions } from './robots-txt.js';
export { Matcher } from './matcher.js';
export type { Verdict, MatcherOptions } from './matcher.js';
export type { Diagnostic, DiagnosticCode, RuleKind } from './records.js';
export type { Profile } from './pattern.js';
export { isValidAgent } from './agents.js';

// Internals for tests and tools: not part of the stable surface.
export { referenceVerdict, pathParamsQuery, normalizePath } from './reference.js';
export { escapePattern } from './pattern.js';
export { corePath } from './core.js';
export { LineClassifier, MAX_COUNTED_HOSTS } from './line-classifier.js';
export type { OutputFormat, MatcherSource, BlockResult, OutputBuffers } from './line-classifier.js';
export { BufferPool } from './buffer-pool.js';
