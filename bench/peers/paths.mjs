// Where scripts/build-peers.mjs puts Google's builds (build/peers/, ignored), and the
// one-line reason an engine is missing, with what gets it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const PEERS_OUT = path.join(ROOT, 'build', 'peers');
export const NATIVE_BIN = path.join(PEERS_OUT, 'native', 'google-check');
/** The same driver with its clock read as the thread's CPU time (peers/thread-cpu-clock.cc). */
export const NATIVE_CPU_BIN = path.join(PEERS_OUT, 'native', 'google-check-cpu');
export const WASM_DIR = path.join(PEERS_OUT, 'wasm');
/** nzrsky/robotstxt's driver (google-check's interface), and the same timing in thread CPU time. */
export const NZRSKY_BIN = path.join(PEERS_OUT, 'native', 'nzrsky-check');
export const NZRSKY_CPU_BIN = path.join(PEERS_OUT, 'native', 'nzrsky-check-cpu');

/** An engine that is not built or not installed; loadAdapters reports its message as the reason it is skipped. */
export class PeerMissing extends Error {}

export const HOW_TO_BUILD = {
  native: 'not built: apt-get install -y g++ pkg-config libabsl-dev, then npm run build:peers',
  wasm: 'not built: apt-get install -y emscripten, then npm run build:peers',
  nzrsky: 'not built: apt-get install -y g++, then npm run build:peers',
};
