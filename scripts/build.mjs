// Bundles src/ into dist/index.js (ESM), the `robots` command into dist/cli.js
// (with its worker thread, dist/classify-worker.js), writes the type
// declarations, and ships the WASM core beside the bundles.
import { build } from 'esbuild';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const bundlesOnly = process.argv.includes('--bundles-only');
if (!bundlesOnly) rmSync('dist', { recursive: true, force: true }); // (a bench build leaves the declarations be)
mkdirSync('dist', { recursive: true });
const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' };
await build({ ...common, entryPoints: ['src/index.ts'], outfile: 'dist/index.js' });
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
await build({
  ...common,
  entryPoints: { cli: 'src/cli/main.ts', 'classify-worker': 'src/cli/classify-worker.ts' },
  outdir: 'dist',
  banner: { js: '#!/usr/bin/env node' },
  define: { VERSION: JSON.stringify(version) },
});
chmodSync('dist/cli.js', 0o755);
copyFileSync('build/robots.wasm', 'dist/robots.wasm');
// Type declarations (and the type check), unless only the bundles are wanted (npm run bench).
if (!bundlesOnly) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
}
