// What the audit's tools (audit-rate.mjs, audit-instructions.mjs) take from their command line alike: the corpus,
// another checkout to measure against, and the crawlers robots audit asks about by default.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout. */
export const root = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
/** The value after NAME on the command line, or fallback. */
export const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : process.argv[i + 1];
};
/** robots audit's default crawlers (DEFAULT_CRAWLERS, src/cli/audit.ts). */
export const AUDIT_CRAWLERS = ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot'];
/** --corpus DIR: the robots.txt files audited (default: ../shared's corpus). */
export const corpus = arg('--corpus', path.resolve(root, '../shared/corpus/robots'));
/** --against DIR: another checkout, whose src/ is measured beside this one's. */
export const against = arg('--against', undefined);
