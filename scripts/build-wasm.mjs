// Compiles the WASM core with asc: the whole core (build/robots.wasm, from
// assembly/index.ts), which the command embeds, and the library's
// (build/library/robots.wasm), which the package's bundles embed: the same
// entry without the exports of bulk classification (assembly/bulk/), which only
// the command calls. An app's fresh process then compiles 40% less WebAssembly,
// and the core's start allocates none of classification's tables (three pages
// of memory). With --if-stale, only when a source is newer than the build (npm
// run bench: a warm tree need not wait for asc).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';

const WHOLE = { entry: 'assembly/index.ts', out: 'build/robots.wasm', text: 'build/robots.wat' };
const LIBRARY = { entry: 'build/library/core.ts', out: 'build/library/robots.wasm', text: 'build/library/robots.wat' };
const SOURCES = [...readdirSync('assembly', { recursive: true }).map((f) => `assembly/${f}`), 'src/engine/wasm/layout.ts', 'asconfig.json', 'package-lock.json', 'scripts/build-wasm.mjs'];

function stale() {
  let built;
  try {
    built = Math.min(statSync(WHOLE.out).mtimeMs, statSync(LIBRARY.out).mtimeMs);
  } catch {
    return true;
  }
  return SOURCES.some((f) => statSync(f).mtimeMs > built);
}

/** The library's entry, written from assembly/index.ts (so that the two cores cannot drift apart): its lines but
 * the bulk exports, its paths made relative to build/library/. */
function writeLibraryEntry() {
  const lines = readFileSync(WHOLE.entry, 'utf8').split('\n').filter((line) => !/^export \{[^}]*\} from "\.\/bulk\//.test(line));
  const entry = lines.join('\n').replace(/from "\.\//g, 'from "../../assembly/').replace(/from "\.\.\/(?!\.\.\/assembly\/)/g, 'from "../../');
  if (entry.includes('/bulk/')) throw new Error(`${WHOLE.entry}: a bulk export this script does not recognise (one line each: export { ... } from "./bulk/...")`);
  mkdirSync('build/library', { recursive: true });
  writeFileSync(LIBRARY.entry, `// Written by scripts/build-wasm.mjs from ${WHOLE.entry}: the library's core, without bulk classification.\n${entry}`);
}

if (!process.argv.includes('--if-stale') || stale()) {
  writeLibraryEntry();
  for (const { entry, out, text } of [WHOLE, LIBRARY]) {
    execFileSync(process.execPath, ['node_modules/assemblyscript/bin/asc.js', entry, '--config', 'asconfig.json', '--target', 'release', '--outFile', out, '--textFile', text], { stdio: 'inherit' });
  }
}
