// The records and the hot compile (records-layer.ts) as RobotsTxt reaches them.
// The ES build imports them with the engine; for require(), the build
// (scripts/build-commonjs-entry.mjs) puts in this module's place one that
// requires them on first call, so that a fresh process's first verdict (a cold
// compile from the body) compiles none of them.
import { compactRecords, compileRules, diagnosticsOf, readRecords, recordsBytes, sizeLimitDiagnostic } from './records-layer.js';

// An object of the names, not `import * as` (as usage-layer-loader.ts, for the same reason).
const layer = { compactRecords, compileRules, diagnosticsOf, readRecords, recordsBytes, sizeLimitDiagnostic };

export type RecordsLayer = typeof layer;

export const recordsLayer = (): RecordsLayer => layer;
