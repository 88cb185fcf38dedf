// What RobotsTxt asks of the records (parse/records.ts: the file read into
// groups, sitemaps and diagnostics) and of the hot compile (compile/compile.ts),
// reached through records-layer-loader.ts. A first verdict (compile() or
// isAllowed() of a fresh RobotsTxt) reads no records and compiles cold from
// the body (compile/cold-from-body.ts): require() loads this on first use.
export { compactRecords, diagnosticsOf, readRecords, recordsBytes, sizeLimitDiagnostic } from './parse/records.js';
export { compileRules } from './compile/compile.js';
