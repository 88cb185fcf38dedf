// The usage layer (usage-layer.ts) as RobotsTxt reaches it. The ES build imports it
// with the engine; for require(), the build (scripts/build-commonjs-entry.mjs)
// puts in this module's place one that requires the layer on first call, so
// that a fresh process's first verdict compiles none of it.
import * as layer from './usage-layer.js';

export type UsageLayer = typeof layer;

export const usageLayer = (): UsageLayer => layer;
