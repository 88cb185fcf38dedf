// The hot automaton (automaton.ts) as LazyDfa reaches it. The ES build imports
// it with the engine; for require(), the build (scripts/build-commonjs-entry.mjs)
// puts in this module's place one that requires it on first call, so that a
// fresh process's first verdict (a cold walk) compiles none of it.
import { buildTrie, Determiniser, DfaStates, DfaTables, ruleModeBlocksOfTrie, stateOctets, T_END_ALLOW, T_END_DISALLOW, trieBytes } from './automaton.js';

// An object of the names, not `import * as` (as usage-layer-loader.ts, for the same reason).
const parts = { buildTrie, Determiniser, DfaStates, DfaTables, ruleModeBlocksOfTrie, stateOctets, T_END_ALLOW, T_END_DISALLOW, trieBytes };

export type Automaton = typeof parts;

export const automaton = (): Automaton => parts;
