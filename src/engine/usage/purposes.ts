// The purposes a use preference speaks to, in their order: the engine's export
// (src/exports/engine.ts) apart from vocabulary.ts, whose readers (and their
// RFC 9651 parser, structured-field.ts) only the usage layer runs, so that
// require() of the package compiles none of them (docs/benchmarks.md, cold start).

/** The purposes a use preference speaks to: draft-ietf-aipref-vocab-08's labels. */
export type Purpose = 'search' | 'train-ai' | 'ai-use';
export const PURPOSES: readonly Purpose[] = Object.freeze(['search', 'train-ai', 'ai-use']);
