// Bundles src/ into dist/index.js (ESM), writes the type declarations, and
// ships the WASM core beside the bundle.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

rmSync('dist', { recursive: true, force: true });
mkdirSync('dist');
await build({
  entryPoints: ['src/index.ts'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/index.js',
  packages: 'external',
  logLevel: 'warning',
});
copyFileSync('build/robots.wasm', 'dist/robots.wasm');
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json'], { stdio: 'inherit' });
