// `npm start`, `npm test`, `npm pack` and a git install (npm's `prepare`) build
// through this: the whole build (slow: asc, esbuild, the types) only when a
// source differs from what dist/ was built from (scripts/build-stamp.mjs), so a
// second `npm start` is the command alone.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { stampIsCurrent } from './build-stamp.mjs';

if (stampIsCurrent()) {
  console.error('robots-wasm: dist/ is up to date with the sources (npm run build forces a build)');
} else if (!existsSync('node_modules/assemblyscript') && process.env.npm_lifecycle_event === 'prepare') {
  // `npm ci --omit=dev` in a clone: the build tools are not there, and the install must not fail for it.
  console.error('robots-wasm: not built (the dev dependencies are not installed: npm ci, then npm run build)');
} else {
  execFileSync(process.execPath, ['scripts/build-wasm.mjs', '--if-stale'], { stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
}
