// What a matcher needs once it turns hot (dfa.ts turnHot, and rule mode
// weighed from the trie), in one module: the trie of its rules, the
// determiniser, the states and the tables the core walks. A first verdict
// walks the cold list and needs none of it, so require() of the package loads
// it on first use (automaton-loader.ts).
export { buildTrie, T_END_ALLOW, T_END_DISALLOW, trieBytes } from '../compile/trie.js';
export { ruleModeBlocksOfTrie } from '../compile/trie-rule-list.js';
export { Determiniser } from './determinise.js';
export { DfaStates, stateOctets } from './dfa-states.js';
export { DfaTables } from './dfa-tables.js';
