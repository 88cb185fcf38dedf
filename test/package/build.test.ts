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
 * vitest's RPC with it time out. */
async function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(cmd, args, { cwd: clone, encoding: 'utf8', timeout: 290_000, maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } });
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
});
afterAll(() => rmSync(clone, { recursive: true, force: true }));

describe('the build from a clone', () => {
  it('npm pack in a clone without dist/ builds it first (prepare) and packs the library, its types and the command', { timeout: 300_000 }, async () => {
    const packed = JSON.parse((await run('npm', ['pack', '--dry-run', '--json'])).stdout) as { files: { path: string }[] }[];
    const files = packed[0].files.map((f) => f.path);
    for (const f of ['dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/compat.js', 'dist/cli.js', 'dist/web/index.html']) expect(files).toContain(f);
    expect(files).not.toContain('dist/.build-stamp');
  });

  it('builds again only when a source differs from what dist/ was built from', { timeout: 300_000 }, async () => {
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
