// Compiles the WASM core (build/robots.wasm) with asc. With --if-stale, only
// when a source is newer than the build (npm run bench: a warm tree need not
// wait for asc).
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';

const OUT = 'build/robots.wasm';
const SOURCES = [...readdirSync('assembly', { recursive: true }).map((f) => `assembly/${f}`), 'src/engine/wasm/layout.ts', 'asconfig.json', 'package-lock.json'];

function stale() {
  let built;
  try {
    built = statSync(OUT).mtimeMs;
  } catch {
    return true;
  }
  return SOURCES.some((f) => statSync(f).mtimeMs > built);
}

if (!process.argv.includes('--if-stale') || stale()) {
  execFileSync(process.execPath, ['node_modules/assemblyscript/bin/asc.js', 'assembly/index.ts', '--config', 'asconfig.json', '--target', 'release'], { stdio: 'inherit' });
}
