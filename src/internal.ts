// Internals for this package's tests, benchmarks and command: not part of the
// public surface (the package exports only ./index). Built as a file of its
// own, dist/internal.js, with the library in it (a process that imports it and
// dist/index.js has two cores: import one of them). Nothing Node-only: bulk
// classification's tests import src/bulk/ themselves.
export * from './index.js';
export { referenceVerdict, pathParamsQuery, normalizePath, comparedPath } from './engine/reference.js';
export { escapePattern } from './engine/parse/pattern.js';
export { requestedPath } from './engine/from-path.js';
export { coreMemoryBytes, coreAllocatedBytes, coreHeapAllocations, coreIsUtf8 } from './engine/wasm/core.js';
export { corePath } from './engine/match/core-path.js';
export { backstopRegistrations } from './engine/match/backstop.js';
export { ownMatcherStats, compileOctets, robotsInternals } from './engine/robots-txt.js';
