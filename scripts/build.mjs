// Bundles src/ into dist/index.js (ESM) and dist/index.cjs (CommonJS), the
// `robots` command into dist/cli.js (with its worker thread,
// dist/classify-worker.js), and writes the type declarations. The WASM core is
// embedded in each bundle (a .wasm import is its octets).
import { build } from 'esbuild';
import { chmodSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const bundlesOnly = process.argv.includes('--bundles-only');
if (!bundlesOnly) rmSync('dist', { recursive: true, force: true }); // (a bench build leaves the declarations be)
mkdirSync('dist', { recursive: true });
const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning', loader: { '.wasm': 'binary' } };
await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
// For require(): the same library, a module instance (and WASM core) of its own.
await build({ ...common, format: 'cjs', entryPoints: ['src/index.ts'], outfile: 'dist/index.cjs' });
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts', 'classify-worker': 'src/cli/classify-worker.ts' },
  outdir: 'dist',
  banner: { js: '#!/usr/bin/env node' },
  define: { VERSION: JSON.stringify(version) },
});
chmodSync('dist/cli.js', 0o755);
// Type declarations (and the type check), unless only the bundles are wanted (npm run bench).
if (!bundlesOnly) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
}
