// The usage layer (usage-layer.ts) as RobotsTxt reaches it. The ES build imports it
// with the engine; for require(), the build (scripts/build-commonjs-entry.mjs)
// puts in this module's place one that requires the layer on first call, so
// that a fresh process's first verdict compiles none of it.
import { controlStatementsOf, crawlerUsage, explainRecords, operatorOf, operatorUsageOf, usagesOf, UsageAnswers } from './usage-layer.js';

// An object of the names, not `import * as`: a namespace object would need esbuild's
// __export helper, which the ES build puts in a chunk of its own, one more module to load.
const layer = { controlStatementsOf, crawlerUsage, explainRecords, operatorOf, operatorUsageOf, usagesOf, UsageAnswers };

export type UsageLayer = typeof layer;

export const usageLayer = (): UsageLayer => layer;
