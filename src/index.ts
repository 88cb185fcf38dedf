// The public surface of robots-wasm: the engine (parse, RobotsTxt, Matcher) and
// the crawler's parts (robotsUrl, fetchRobots, RobotsCache). Internals: internal.ts.
export { parse, RobotsTxt, DEFAULT_MAX_OCTETS, DEFAULT_MAX_BYTES, OWN_MATCHERS_BYTES } from './engine/robots-txt.js';
export type { ParseOptions } from './engine/robots-txt.js';
export type { Explanation } from './engine/explanation.js';
export type { Usage, UsageSignal, UsageOptions, UsageHeaders, Purpose, Purposes, Preference, UsageField } from './engine/usage/usage.js';
export { PURPOSES } from './engine/usage/vocabulary.js';
export type { OperatorUsage, PurposeAnswer, CrawlerFetch, UsageAnswer } from './engine/usage/operator-usage.js';
export { OPERATORS, CONTROL_TOKENS, operatorById, controlTokenOf, operatorOfToken, TRAINING_PREFERENCE_DRAFT } from './data/operators.js';
export type { Operator, OperatorCrawler, ControlToken, OperatorControlToken, OperatorPurpose, RobotsStance, Confidence, Source } from './data/operators.js';
export { Matcher, DisposedError } from './engine/match/matcher.js';
export type { Verdict, MatcherOptions } from './engine/match/matcher.js';
export type { Diagnostic, DiagnosticCode, RuleKind } from './engine/parse/records.js';
export type { Profile } from './engine/parse/profile.js';
export { agentNotes, isProductToken, isValidAgent, productToken } from './engine/parse/agents.js';
export { robotsUrl } from './engine/robots-url.js';
export { fromPath } from './engine/from-path.js';
export { RobotsCache, UNREACHABLE_GIVE_UP_MS } from './crawler/robots-cache.js';
export { MemoryStore } from './crawler/memory-store.js';
export type { MemoryStoreOptions } from './crawler/memory-store.js';
export type { RobotsStore, RobotsRecord, FetchState, StoreEvent } from './crawler/robots-store.js';
export type { RobotsCacheOptions, RobotsEntry, RobotsCacheStats, RobotsPolicy, CacheUsageOptions } from './crawler/robots-cache.js';
export { fetchRobots, MAX_REDIRECTS, responseStep } from './crawler/fetch-robots.js';
export type { FetchFunction, FetchOutcome, FetchRobotsOptions, RobotsStatus, ResponseStep } from './crawler/fetch-robots.js';
export { lint } from './engine/lint.js';
export type { LintReport, Finding, LintCode, LintOptions } from './engine/lint.js';
