// lint, the public surface's (src/index.ts) checker of a robots.txt. Loaded by
// require() when it is first read (scripts/build-commonjs-entry.mjs).
export { lint } from '../engine/lint.js';
export type { LintReport, Finding, LintCode, LintOptions } from '../engine/lint.js';
