// The build as a new user meets it: a clone has no dist/, so `npm pack` (and a
// git install, which runs the same `prepare`) must build one; and `npm start` /
// `npm test` build only when a source differs from what dist/ was made from.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const clone = mkdtempSync(path.join(tmpdir(), 'robots-build-'));

const execFileAsync = promisify(execFile);

/** Runs a command in the clone, asynchronously: a build blocking the test worker's event loop for a minute makes
 * vitest's RPC with it time out. A clean build takes ~1 min quiet and over 250 s at load 15: its limits are hang
 * guards, not clocks. */
async function run(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(cmd, args, { cwd: clone, encoding: 'utf8', timeout: 590_000, maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false', ...env } });
  } catch (e) {
    const err = e as { code?: unknown; stderr?: string; stdout?: string };
    throw new Error(`${cmd} ${args.join(' ')} exited ${String(err.code)}: ${err.stderr}${err.stdout}`);
  }
}

beforeAll(() => {
  // The tree as git would clone it (tracked and new files, what .gitignore leaves out left out: no dist/, no build/),
  // with this checkout's installed modules.
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  for (const f of listed.stdout.split('\0').filter(Boolean)) {
    mkdirSync(path.dirname(path.join(clone, f)), { recursive: true });
    try {
      cpSync(path.join(ROOT, f), path.join(clone, f));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; // a file deleted but not yet staged
    }
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
  // The WASM core as this checkout's build left it (build/: asc's output, a stage with its own staleness check by
  // mtime, scripts/build-wasm.mjs), copied after the sources so that it is current: the build of dist/ around it, its
  // types and its stamp are what this suite is about, and asc compiles the same sources to the same octets here.
  for (const f of ['robots.wasm', 'robots.wat', 'library/core.ts', 'library/robots.wasm', 'library/robots.wat']) {
    mkdirSync(path.dirname(path.join(clone, 'build', f)), { recursive: true });
    cpSync(path.join(ROOT, 'build', f), path.join(clone, 'build', f));
  }
});
afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('the build from a clone', () => {
  it('npm pack in a clone without dist/ builds it first (prepare) and packs the library, its types and the command; the build compiles the types of its entries once', { timeout: 600_000 }, async () => {
    // Each read of Node's types (@types/node, which every TypeScript program of the build but the page's loads) and
    // each read of src/index.ts by TypeScript is logged by a module preloaded in every process of the build: a count
    // of the programs made, and of the compilations of src/.
    const reads = path.join(clone, 'node-types-reads.log');
    const sourceReads = path.join(clone, 'source-reads.log');
    const logger = path.join(clone, 'log-node-types-reads.cjs');
    writeFileSync(logger, `const fs = require('node:fs');
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  if (typeof file === 'string' && file.endsWith(${JSON.stringify(path.join('@types', 'node', 'index.d.ts'))})) fs.appendFileSync(${JSON.stringify(reads)}, process.pid + '\\n');
  if (typeof file === 'string' && file.endsWith(${JSON.stringify(path.join('src', 'index.ts'))}) && new Error().stack.includes('typescript')) fs.appendFileSync(${JSON.stringify(sourceReads)}, process.pid + '\\n');
  return read.call(this, file, ...rest);
};
`);
    const options = `${process.env.NODE_OPTIONS ?? ''} --require ${logger}`.trim();
    const packed = JSON.parse((await run('npm', ['pack', '--dry-run', '--json'], { NODE_OPTIONS: options })).stdout) as { files: { path: string }[] }[];
    const files = packed[0].files.map((f) => f.path);
    for (const f of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/compat.js', 'dist/cli.js', 'dist/web/index.html']) expect(files).toContain(f);
    for (const f of ['index', 'compat', 'compat-rfc', 'compat-google', 'redis']) expect(files).toEqual(expect.arrayContaining([`dist/${f}.d.ts`, `dist/${f}.d.cts`]));
    expect(files).not.toContain('dist/.build-stamp');
    // src/ compiled once, for its type check and its declarations (scripts/build-types.mjs), the 5 entries'
    // declarations bundled in one program, and checked in one: 3 programs (an entry at a time, the types' command
    // line made 2 programs an entry: 11). src/index.ts read by TypeScript twice: that compile and the tester page's
    // own check (web/tsconfig.json); tsc's check and the bundler's compile of src/ were two, three in all.
    expect(readFileSync(reads, 'utf8').trimEnd().split('\n')).toHaveLength(3);
    expect(readFileSync(sourceReads, 'utf8').trimEnd().split('\n')).toHaveLength(2);
  });

  it('builds again only when a source differs from what dist/ was built from', { timeout: 600_000 }, async () => {
    const again = await run(process.execPath, ['scripts/build-if-stale.mjs']);
    expect(again.stderr).toContain('dist/ is up to date');
    // An edit to a source makes dist/ stale (the next build-if-stale builds); undone, it is current again.
    const current = async () => (await run(process.execPath, ['--input-type=module', '-e', "import { stampIsCurrent } from './scripts/build-stamp.mjs'; console.log(stampIsCurrent());"])).stdout.trim();
    const file = path.join(clone, 'src/index.ts');
    const source = readFileSync(file, 'utf8');
    writeFileSync(file, `${source}\n// an edit\n`);
    expect(await current()).toBe('false');
    writeFileSync(file, source);
    expect(await current()).toBe('true');
  });
});
