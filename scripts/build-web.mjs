// Builds the tester page (web/) into dist/web/: the page's script and its
// worker, each with the engine and its WASM core inside, beside the HTML and
// CSS. Static files: `robots serve` serves them, and so can any server.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const typeCheck = !process.argv.includes('--bundles-only');
rmSync('dist/web', { recursive: true, force: true });
mkdirSync('dist/web', { recursive: true });
await build({
  entryPoints: { app: 'web/app.ts', worker: 'web/worker.ts' },
  outdir: 'dist/web',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  loader: { '.wasm': 'binary' },
  logLevel: 'warning',
});
for (const f of ['index.html', 'style.css']) copyFileSync(`web/${f}`, `dist/web/${f}`);
if (typeCheck) execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'web/tsconfig.json'], { stdio: 'inherit' });
