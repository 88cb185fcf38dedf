// Bundles src/ into dist/<entry>.js (ESM) and dist/<entry>.cjs (CommonJS) for
// the package's entries (index, compat, compat-rfc, compat-google, redis), the
// `robots` command into dist/cli.js (with its worker threads,
// dist/classify-worker.js, dist/index-worker.js and dist/audit-worker.js, and
// the chunks they share and the commands import when they run,
// dist/cli-*.js), and writes the public type declarations. The WASM core is
// embedded in each bundle (a .wasm import is its octets as base64, decoded when
// the core is first used), but for workerd's (dist/workerd/).
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inputsHash, STAMP } from './build-stamp.mjs';
import { buildTypes } from './build-types.mjs';
import { buildCommonJsEntry } from './build-commonjs-entry.mjs';
import { buildNodeEntry } from './build-node-entry.mjs';
import { eagerImports, writeOutputs } from './build-eager-imports.mjs';

const bundlesOnly = process.argv.includes('--bundles-only');
const inputs = inputsHash(); // before reading any source: an edit made during the build leaves the stamp stale
if (!bundlesOnly) rmSync('dist', { recursive: true, force: true }); // (a bench build leaves the declarations be)
mkdirSync('dist', { recursive: true });
const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning', loader: { '.wasm': 'base64' } };
// The package's entry points: the library, robots-parser's API on it, the
// Redis store of RobotsCache; and the internals the tests and benchmarks use.
// compat-rfc and compat-google are robots-wasm/compat/rfc and /google (robots-parser's API with that profile by default).
const entries = { index: 'src/index.ts', compat: 'src/compat/robots-parser.ts', 'compat-rfc': 'src/compat/rfc.ts', 'compat-google': 'src/compat/google.ts', redis: 'src/crawler/redis-store.ts' };
const compatEntries = ['compat', 'compat-rfc', 'compat-google'];
// The library runs in any runtime: built for none in particular (so the
// embedded WASM is decoded without Node's Buffer), Node's modules left to the
// runtime (only the Redis entry and the test internals use them).
// Its bundles embed the library's core (build/library/robots.wasm: the core
// without the command's bulk classification, scripts/build-wasm.mjs); the
// command's bundles the whole core.
const libraryCore = {
  name: 'library-core',
  setup(b) {
    b.onResolve({ filter: /\/build\/robots\.wasm$/ }, (args) => ({ path: path.resolve(args.resolveDir, args.path.replace(/robots\.wasm$/, 'library/robots.wasm')) }));
  },
};
// Minified (whitespace, syntax and names: a fresh process compiles less; docs/benchmarks.md, "Minified bundles"),
// each file with its source map beside it (linked: node --enable-source-maps maps a stack trace to src/; Node reads
// no map otherwise), the maps without the sources' text (src/ is not shipped: 1.1 MB of maps, not 4). Webpack's
// comments on the crawler's imports kept (scripts/build-eager-imports.mjs).
const library = { ...common, platform: 'neutral', target: 'es2022', external: ['node:*'], plugins: [libraryCore, eagerImports], minify: true, sourcemap: 'linked', sourcesContent: false };
/** esbuild's build of library bundles, written with webpack's comments put back. */
const buildLibrary = async (options) => writeOutputs(await build({ ...options, write: false }));
// ES modules share their modules (split into dist/chunks/): one core in a process.
await buildLibrary({ ...library, entryPoints: entries, outdir: 'dist', splitting: true, chunkNames: 'chunks/[name]-[hash]' });
// The internals apart, in one file (they export the library too): sharing their modules with index.js put the
// crawler's and lint's in a chunk of their own, a third module for every import of the package to load.
// (Not shipped: left as esbuild writes it.)
await buildLibrary({ ...library, minify: false, sourcemap: false, entryPoints: { internal: 'src/internal.ts' }, outdir: 'dist' });
// For workerd (the package's `workerd` condition), which compiles no WASM from
// octets at run time: the core stays a .wasm import (esbuild's copy loader puts
// robots.wasm in dist/workerd/ and the import's path to it in the chunk), which
// workerd and wrangler give as a WebAssembly.Module.
await buildLibrary({ ...library, loader: { '.wasm': 'copy' }, assetNames: '[name]', entryPoints: { index: entries.index, ...Object.fromEntries(compatEntries.map((c) => [c, entries[c]])) }, outdir: 'dist/workerd', splitting: true, chunkNames: 'chunks/[name]-[hash]' });
// For require(): each entry a bundle, with a module instance (and WASM core) of its own;
// the package's main entry in parts, loaded as they are first used (scripts/build-commonjs-entry.mjs).
// Node's import of the main entry takes that build too (scripts/build-node-entry.mjs).
await buildNodeEntry(library, await buildCommonJsEntry(library));
for (const [name, file] of Object.entries(entries)) {
  if (name === 'index') continue;
  // compat: require() gives the factory itself, as require('robots-parser') does (with .default and .robotsParser on it).
  const footer = compatEntries.includes(name) ? { js: 'module.exports = Object.assign(module.exports.default, module.exports);' } : undefined;
  await buildLibrary({ ...library, format: 'cjs', entryPoints: [file], outfile: `dist/${name}.cjs`, footer });
}
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
// The command carries its own dependencies (argument parsing, the progress bar),
// so a library user does not install them; their require()s of Node's modules
// need a require in an ES module (in each file: a chunk is a module of its own).
// Split: dist/cli.js declares the commands, and each command's code (with the
// Parquet reader and writer, the audit report's page) is a chunk that a run
// imports when it needs it, so a run compiles only that. The chunks sit beside
// the entries, not in a folder: the code finds the workers, the page and the
// bench harness relative to its own file (new URL('./...', import.meta.url)).
for (const f of readdirSync('dist')) if (f.startsWith('cli-') && f.endsWith('.js')) rmSync(`dist/${f}`); // (a bench build's stale chunks)
await build({
  ...common,
  packages: undefined,
  entryPoints: { cli: 'src/cli/main.ts', 'classify-worker': 'src/bulk/threads/classify-worker.ts', 'index-worker': 'src/bulk/threads/index-worker.ts', 'audit-worker': 'src/bulk/threads/audit-worker.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'cli-[name]-[hash]',
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __robotsRequire } from 'node:module';\nconst require = __robotsRequire(import.meta.url);" },
  define: { VERSION: JSON.stringify(version) },
});
chmodSync('dist/cli.js', 0o755);
// The type check of src/, and the public types as one file an entry, for import and for require, from one
// compilation (scripts/build-types.mjs). Not for a bench build (npm run bench).
if (!bundlesOnly) buildTypes(entries);
// The tester page (dist/web/), with its own type check.
await import('./build-web.mjs');
// What this build was made from (a bench build is not a whole build).
if (!bundlesOnly) writeFileSync(STAMP, `${inputs}\n`);
