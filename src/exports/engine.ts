// The engine's part of the public surface (src/index.ts): what a first verdict
// needs (parse, compile, RobotsTxt, Matcher and the core under them) and the agent and
// URL helpers. require() loads it with the package; the other parts (the
// operators', the crawler's, lint) load when one of their exports is first
// read, and the usage layer on first call (scripts/build-commonjs-entry.mjs).
export { parse, RobotsTxt, DEFAULT_MAX_OCTETS, DEFAULT_MAX_BYTES, OWN_MATCHERS_BYTES } from '../engine/robots-txt.js';
export type { ParseOptions } from '../engine/robots-txt.js';
export { compile } from '../engine/compile-body.js';
export type { CompileOptions } from '../engine/compile-body.js';
export type { Explanation } from '../engine/explanation.js';
export type { Usage, UsageSignal, UsageOptions, UsageHeaders, Purpose, Purposes, Preference, UsageField } from '../engine/usage/usage.js';
export { PURPOSES } from '../engine/usage/purposes.js';
export type { OperatorUsage, PurposeAnswer, CrawlerFetch, UsageAnswer } from '../engine/usage/operator-usage.js';
export { Matcher, DisposedError } from '../engine/match/matcher.js';
export type { Verdict, MatcherOptions } from '../engine/match/matcher.js';
export type { Diagnostic, DiagnosticCode, RuleKind } from '../engine/parse/records.js';
export type { Profile } from '../engine/parse/profile.js';
export { agentNotes, isProductToken, isValidAgent, productToken } from '../engine/parse/agents.js';
export { robotsUrl } from '../engine/robots-url.js';
export { fromPath } from '../engine/from-path.js';
