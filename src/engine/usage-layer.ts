// What RobotsTxt asks of the usage layer (its usage, operator and explain
// answers), in one module: no verdict needs it, so require() of the package
// loads it on first use (usage-layer-loader.ts).
export { explainRecords } from './explanation.js';
export { crawlerUsage } from './usage/usage.js';
export { UsageAnswers } from './usage/usage-answers.js';
export { controlStatementsOf, operatorOf } from './usage/control-tokens.js';
export { usagesOf } from './usage/usages.js';
export { operatorUsageOf } from './usage/operator-usage.js';
