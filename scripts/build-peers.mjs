// node scripts/build-peers.mjs [--force] [--quiet]
//
// Builds the peers the bench compares with from ../shared/peers/google-robotstxt and
// ../shared/peers/nzrsky-robotstxt (read-only) into build/peers/ (ignored): Google's native
// driver (build/peers/native/google-check: g++ and Debian's libabsl-dev; google-check-cpu: the
// same, timing in thread CPU), Google's WASM module (build/peers/wasm/robots_wasm.{js,wasm} and
// robots_wasm_ext.{js,wasm}, whose extra export AllowedLine gives the matching line too:
// Debian's emscripten), and nzrsky/robotstxt's driver (build/peers/native/nzrsky-check and
// nzrsky-check-cpu: g++ alone, C++20, with ada's amalgamation). Each is skipped with one line saying what to apt-get install when its
// toolchain is missing, and left alone when it is newer than its sources (--force rebuilds).
// The steps are those of the shared build.sh, split so that one build can go without the
// other; the abseil file list is read from build.sh itself.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NATIVE_BIN, NATIVE_CPU_BIN, NZRSKY_BIN, NZRSKY_CPU_BIN, PEERS_OUT, WASM_DIR } from '../bench/peers/paths.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const GOOGLE_SRC = path.resolve(ROOT, '../shared/peers/google-robotstxt');
export const NZRSKY_SRC = path.resolve(ROOT, '../shared/peers/nzrsky-robotstxt');

const CXXFLAGS = ['-std=gnu++17', '-O2', '-DNDEBUG', '-DNOMINMAX'];
// Google's BUILD target robots_js (embind, IsAllowed), plus what a Node program loads
// cleanly: MODULARIZE, and memory growth for files up to 1.4 MB (as build.sh).
const GOOGLE_LINKOPTS = ['-lembind', '-sEXPORTED_FUNCTIONS=_IsAllowed', '-sEXPORTED_RUNTIME_METHODS=ccall,cwrap'];
const NODE_LINKOPTS = ['-sMODULARIZE=1', '-sEXPORT_NAME=createRobotsModule', '-sALLOW_MEMORY_GROWTH=1'];

const has = (cmd, args = ['--version']) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** The newest mtime of the sources a build reads (robotstxt, the tools, abseil; nzrsky's: robotstxt, ada, its driver). */
function sourcesTime(src = GOOGLE_SRC) {
  let newest = 0;
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  walk(src);
  newest = Math.max(newest, statSync(fileURLToPath(import.meta.url)).mtimeMs, statSync(path.join(ROOT, 'bench', 'peers', 'thread-cpu-clock.cc')).mtimeMs);
  return newest;
}

const fresh = (files, since) => files.every((f) => existsSync(f) && statSync(f).mtimeMs >= since);

function run(cmd, args, env) {
  execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
}

/** The abseil sources build.sh compiles for the WASM build (the closure of absl::strings + absl::base). */
function abseilSources() {
  const script = readFileSync(path.join(GOOGLE_SRC, 'build.sh'), 'utf8');
  const list = script.match(/ABSL_SRCS="([^"]*)"/)?.[1].split(/\s+/).filter(Boolean);
  if (!list?.length) throw new Error(`no ABSL_SRCS list in ${GOOGLE_SRC}/build.sh`);
  return list;
}

/** Runs jobs (functions returning a child's exit) `width` at a time. */
async function parallel(jobs, width) {
  let next = 0;
  const worker = async () => { while (next < jobs.length) await jobs[next++](); };
  await Promise.all(Array.from({ length: width }, worker));
}

function spawnAsync(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(undefined) : reject(new Error(`${cmd} ${args.at(-1)} exited ${code}`))));
  });
}

/** The smoke test of both shared build.sh scripts: FooBot's group, line numbers included. */
function smokeTest(bin) {
  const dir = path.dirname(bin);
  writeFileSync(path.join(dir, 'example-robots.txt'), 'user-agent: FooBot\ndisallow: /x\nallow: /x/y\n\nuser-agent: *\ndisallow: /\n');
  const got = execFileSync(bin, [path.join(dir, 'example-robots.txt'), 'FooBot', '-'], { input: 'https://a.com/x/z\nhttps://a.com/x/y/1\nhttps://a.com/q\n', encoding: 'utf8' });
  if (got !== 'disallowed\t2\nallowed\t3\nallowed\t0\n') throw new Error(`${path.basename(bin)} smoke test failed: ${JSON.stringify(got)}`);
}

export function buildNative({ log }) {
  if (!has('g++')) return log('native: skipped: no g++ (apt-get install -y g++ pkg-config libabsl-dev)');
  if (!has('pkg-config', ['--exists', 'absl_strings', 'absl_base'])) return log('native: skipped: no abseil for g++ (apt-get install -y pkg-config libabsl-dev)');
  const libs = execFileSync('pkg-config', ['--libs', 'absl_strings', 'absl_base'], { encoding: 'utf8' }).trim().split(/\s+/).filter(Boolean);
  const R = path.join(GOOGLE_SRC, 'robotstxt');
  mkdirSync(path.dirname(NATIVE_BIN), { recursive: true });
  const sources = [path.join(R, 'robots.cc'), path.join(GOOGLE_SRC, 'tools', 'google-check.cc')];
  run('g++', [...CXXFLAGS, `-I${R}`, '-o', NATIVE_BIN, ...sources, ...libs]);
  // The same driver timing itself in thread CPU time (the bench's rounds: bench/rounds.mjs).
  run('g++', [...CXXFLAGS, `-I${R}`, '-o', NATIVE_CPU_BIN, ...sources, path.join(ROOT, 'bench', 'peers', 'thread-cpu-clock.cc'), ...libs]);
  smokeTest(NATIVE_BIN);
  log(`native: ${path.relative(ROOT, NATIVE_BIN)} (smoke test ok)`);
}

/** nzrsky/robotstxt with its driver, as its shared build.sh builds it (its flags), and the driver again timing in thread CPU. */
export async function buildNzrsky({ log, jobs }) {
  if (!has('g++')) return log('nzrsky: skipped: no g++ (apt-get install -y g++)');
  const R = path.join(NZRSKY_SRC, 'robotstxt');
  const A = path.join(NZRSKY_SRC, 'ada');
  const flags = ['-std=c++20', '-O2', '-DNDEBUG', '-DROBOTS_USE_ADA', '-DROBOTS_SUPPORT_CONTENT_SIGNAL=1', `-I${R}`, `-I${A}`];
  const obj = path.join(PEERS_OUT, 'obj', 'nzrsky');
  mkdirSync(obj, { recursive: true });
  mkdirSync(path.dirname(NZRSKY_BIN), { recursive: true });
  const units = [path.join(A, 'ada.cpp'), path.join(R, 'robots.cc'), path.join(NZRSKY_SRC, 'tools', 'nzrsky-check.cc'), path.join(ROOT, 'bench', 'peers', 'thread-cpu-clock.cc')];
  const objects = units.map((u) => path.join(obj, `${path.basename(u).replace(/\.\w+$/, '')}.o`));
  // ada.cpp takes most of the time: started first.
  await parallel(units.map((u, i) => () => spawnAsync('g++', [...flags, '-c', u, '-o', objects[i]])), jobs);
  const [ada, robots, driver, clock] = objects;
  run('g++', ['-o', NZRSKY_BIN, driver, robots, ada]);
  run('g++', ['-o', NZRSKY_CPU_BIN, driver, robots, ada, clock]);
  smokeTest(NZRSKY_BIN);
  log(`nzrsky: ${path.relative(ROOT, NZRSKY_BIN)} (smoke test ok)`);
}

export async function buildWasm({ log, jobs }) {
  if (!has('em++')) return log('wasm: skipped: no emscripten (apt-get install -y emscripten)');
  // Debian's emcc 3.1.6 runs tools/acorn-optimizer.js, which needs Debian's node-acorn.
  const env = { NODE_PATH: ['/usr/share/nodejs', process.env.NODE_PATH].filter(Boolean).join(':') };
  const R = path.join(GOOGLE_SRC, 'robotstxt');
  const A = path.join(GOOGLE_SRC, 'abseil-cpp');
  const obj = path.join(PEERS_OUT, 'obj', 'wasm');
  mkdirSync(obj, { recursive: true });
  mkdirSync(WASM_DIR, { recursive: true });
  const inc = [`-I${R}`, `-I${A}`];
  const compile = (src, out) => () => spawnAsync('em++', [...CXXFLAGS, ...inc, '-c', src, '-o', out], env);
  const absl = abseilSources().map((f) => ({ src: path.join(A, f), out: path.join(obj, `absl_${f.replaceAll('/', '_')}.o`) }));
  const own = [
    { src: path.join(R, 'robots.cc'), out: path.join(obj, 'robots.o') },
    { src: path.join(R, 'robots_wasm.cc'), out: path.join(obj, 'robots_wasm.o') },
    { src: path.join(GOOGLE_SRC, 'tools', 'robots_wasm_ext.cc'), out: path.join(obj, 'robots_wasm_ext.o') },
  ];
  await parallel([...absl, ...own].map((c) => compile(c.src, c.out)), jobs);
  const lib = path.join(obj, 'libabsl_subset.a');
  rmSync(lib, { force: true });
  run('emar', ['rcs', lib, ...absl.map((c) => c.out)], env);
  const [robots, wasm, ext] = own.map((c) => c.out);
  run('em++', ['-O2', ...GOOGLE_LINKOPTS, ...NODE_LINKOPTS, wasm, robots, lib, '-o', path.join(WASM_DIR, 'robots_wasm.js')], env);
  run('em++', ['-O2', ...GOOGLE_LINKOPTS, ...NODE_LINKOPTS, wasm, ext, robots, lib, '-o', path.join(WASM_DIR, 'robots_wasm_ext.js')], env);
  // The loader is CommonJS in a package whose .js is ESM: a .cjs copy is what Node requires.
  for (const name of ['robots_wasm', 'robots_wasm_ext']) {
    writeFileSync(path.join(WASM_DIR, `${name}.cjs`), readFileSync(path.join(WASM_DIR, `${name}.js`)));
  }
  log(`wasm: ${path.relative(ROOT, WASM_DIR)}/robots_wasm{,_ext}.{cjs,wasm} (em++ ${execFileSync('em++', ['--version'], { encoding: 'utf8', env: { ...process.env, ...env } }).match(/\d+\.\d+\.\d+/)?.[0]})`);
}

/** Builds what is missing or stale; returns what exists after. */
export async function buildPeers({ force = false, log = (/** @type {string} */ l) => console.error(`build-peers: ${l}`) } = {}) {
  if (!existsSync(path.join(GOOGLE_SRC, 'robotstxt', 'robots.cc'))) {
    log(`skipped: no Google sources at ${GOOGLE_SRC}`);
    return { native: false, wasm: false, nzrsky: false };
  }
  const since = force ? Infinity : sourcesTime();
  if (fresh([NATIVE_BIN, NATIVE_CPU_BIN], since)) log(`native: ${path.relative(ROOT, NATIVE_BIN)} up to date`);
  else {
    try { buildNative({ log }); } catch (e) { log(`native: failed: ${e instanceof Error ? e.message.split('\n')[0] : e}`); }
  }
  const wasmFiles = ['robots_wasm.cjs', 'robots_wasm.wasm', 'robots_wasm_ext.cjs', 'robots_wasm_ext.wasm'].map((f) => path.join(WASM_DIR, f));
  if (fresh(wasmFiles, since)) log(`wasm: ${path.relative(ROOT, WASM_DIR)} up to date`);
  else {
    try { await buildWasm({ log, jobs: Math.max(1, Math.min(4, os.availableParallelism())) }); } catch (e) { log(`wasm: failed: ${e instanceof Error ? e.message.split('\n')[0] : e}`); }
  }
  if (!existsSync(path.join(NZRSKY_SRC, 'robotstxt', 'robots.cc'))) log(`nzrsky: skipped: no sources at ${NZRSKY_SRC}`);
  else if (fresh([NZRSKY_BIN, NZRSKY_CPU_BIN], force ? Infinity : sourcesTime(NZRSKY_SRC))) log(`nzrsky: ${path.relative(ROOT, NZRSKY_BIN)} up to date`);
  else {
    try { await buildNzrsky({ log, jobs: Math.max(1, Math.min(4, os.availableParallelism())) }); } catch (e) { log(`nzrsky: failed: ${e instanceof Error ? e.message.split('\n')[0] : e}`); }
  }
  return { native: existsSync(NATIVE_BIN), wasm: wasmFiles.every((f) => existsSync(f)), nzrsky: existsSync(NZRSKY_BIN) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const quiet = args.includes('--quiet');
  await buildPeers({ force: args.includes('--force'), log: (l) => { if (!quiet || /skipped|failed/.test(l)) console.error(`build-peers: ${l}`); } });
}
