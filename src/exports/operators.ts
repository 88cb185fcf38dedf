// The operators' part of the public surface (src/index.ts): who crawls for
// which purpose, and the control tokens. Loaded by require() when one of these
// is first read (scripts/build-commonjs-entry.mjs).
export { OPERATORS, CONTROL_TOKENS, operatorById, controlTokenOf, operatorOfToken, TRAINING_PREFERENCE_DRAFT } from '../data/operators.js';
export type { Operator, OperatorCrawler, ControlToken, OperatorControlToken, OperatorPurpose, RobotsStance, Confidence, Source } from '../data/operators.js';
