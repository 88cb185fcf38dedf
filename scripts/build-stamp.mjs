// What a build was made from: a hash of the contents of every file the build
// reads (not their times: a fresh clone or checkout gives every file a new
// mtime, and an edit undone must not force a build). `npm run build` writes it
// to dist/.build-stamp when it finishes; scripts/build-if-stale.mjs compares.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';

export const STAMP = 'dist/.build-stamp';
const TREES = ['assembly', 'src', 'web', 'scripts'];
const FILES = ['package.json', 'package-lock.json', 'asconfig.json', 'tsconfig.json', 'tsconfig.types.json'];

function filesOf(dir) {
  return readdirSync(dir, { recursive: true })
    .map((f) => `${dir}/${f}`)
    .filter((f) => statSync(f).isFile());
}

export function inputsHash() {
  const hash = createHash('sha256');
  const files = [...TREES.flatMap(filesOf), ...FILES.filter((f) => existsSync(f))].sort();
  for (const f of files) {
    hash.update(f).update('\0').update(readFileSync(f)).update('\0');
  }
  return hash.digest('hex');
}

export function stampIsCurrent() {
  try {
    return readFileSync(STAMP, 'utf8').trim() === inputsHash();
  } catch {
    return false;
  }
}
