// The three sets of suites, drawn from what each one reaches, not from a list:
// - build: the suites that use the built package. A suite is one when it, or a
//   module of the repository it reaches (imports, dynamic imports, and files it
//   names with `new URL('…', import.meta.url)`, such as a worker it spawns),
//   names a path into dist/ in a string outside a comment line
//   (`'../../dist/index.js'`, `'dist/cli.js'`, `path.join(ROOT, 'dist')`) or
//   packs the package (`npm pack`, whose files are dist/). The CLI's suites
//   reach dist/cli.js through test/helpers/cli-run.ts.
// - slow: the other suites that give a test or hook longer than the default
//   timeout (`{ timeout: 60_000 }`, or `60_000` as the call's last argument):
//   a test that needs over 15 s on a loaded machine is not a fast one (the
//   corpus soak of RobotsCache, lifetimes' loops, the seed's own check).
// - fast: every other suite. They import src/ directly (vitest.config.ts loads
//   the .wasm core for them), so they run without a build: `npm run test:fast`.
// `npm test` runs all three. A new suite joins a set by what it imports and the
// time it asks for; nothing to keep in step by hand.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A string literal that names dist/ (a path segment, not "distinct"), or npm's `pack` argument. */
const USES_BUILD = /(['"`])(?:[^'"`\n]*\/)?dist(?:\/[^'"`\n]*)?\1|['"]pack['"]/;
/** A line that is only a comment (what it names is not used). */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*).*$/gm;
/** A timeout a suite gives a test or hook: `timeout: N` in its options, or N as the call's last argument. */
const TIMEOUT = /\btimeout:\s*([\d_]+)|\},\s*([\d_]+)\s*\)/g;
/** Relative specifiers: static and dynamic imports, re-exports, and `new URL('…', import.meta.url)`. */
const LOCAL_REFERENCE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bnew URL\(\s*)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** The file a relative specifier names: as written, or its .ts source for a .js specifier. */
function resolveLocal(from: string, specifier: string): string | undefined {
  const file = path.resolve(path.dirname(from), specifier);
  for (const candidate of [file, file.replace(/\.js$/, '.ts')]) if (existsSync(candidate) && /\.(m?[jt]s)$/.test(candidate)) return candidate;
  return undefined;
}

/** Whether `file`, or a module of the repository it reaches, uses the build. */
function reachesBuild(file: string, memo: Map<string, boolean>): boolean {
  const known = memo.get(file);
  if (known !== undefined) return known;
  memo.set(file, false); // a cycle adds nothing
  const text = readFileSync(file, 'utf8');
  let uses = USES_BUILD.test(text.replace(COMMENT_LINE, ''));
  for (const m of text.matchAll(LOCAL_REFERENCE)) {
    if (uses) break;
    const next = resolveLocal(file, m[2]);
    if (next && !next.includes(`${path.sep}node_modules${path.sep}`)) uses = reachesBuild(next, memo);
  }
  memo.set(file, uses);
  return uses;
}

function suitesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/** Whether a suite gives any test or hook more than `defaultMs`. */
function asksLonger(file: string, defaultMs: number): boolean {
  for (const m of readFileSync(file, 'utf8').replace(COMMENT_LINE, '').matchAll(TIMEOUT)) if (Number((m[1] ?? m[2]).replaceAll('_', '')) > defaultMs) return true;
  return false;
}

/** The suites under root/test by set (paths relative to root); `defaultTimeoutMs` is the config's testTimeout. */
export function suiteSets(root: string, defaultTimeoutMs: number): { build: string[]; slow: string[]; fast: string[] } {
  const memo = new Map<string, boolean>();
  const sets = { build: [] as string[], slow: [] as string[], fast: [] as string[] };
  for (const suite of suitesUnder(path.join(root, 'test'))) {
    const set = reachesBuild(suite, memo) ? sets.build : asksLonger(suite, defaultTimeoutMs) ? sets.slow : sets.fast;
    set.push(path.relative(root, suite));
  }
  return sets;
}
