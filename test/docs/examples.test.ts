// The examples the documentation shows, run (docs/testing.md says how a block is
// marked): each `js run` block as an ES module in a folder of its own where
// `robots-wasm` is this package (its dist/, through package.json's exports, as an
// installed copy resolves it), each `sh run` block in bash with `robots` on PATH
// (node dist/cli.js) and the bundled corpus/ copied beside it. A block must end
// with the exit status it is marked with (0 unless said) and, where the page shows
// its output, print exactly that.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docPages, ROOT, runBlocks, type RunBlock } from './doc-blocks.js';

const BLOCKS = docPages().flatMap(runBlocks);
let work: string;

beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'robots-wasm-docs-'));
  // `robots` as the package's bin runs it.
  mkdirSync(path.join(work, 'bin'));
  writeFileSync(path.join(work, 'bin/robots'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(ROOT, 'dist/cli.js')}" "$@"\n`);
  chmodSync(path.join(work, 'bin/robots'), 0o755);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A folder of the block's own: corpus/ copied, node_modules/robots-wasm linked to this package. */
function folderFor(block: RunBlock): string {
  const dir = path.join(work, `${block.page.replace(/\W/g, '_')}-${block.line}`);
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, path.join(dir, 'node_modules/robots-wasm'), 'dir');
  cpSync(path.join(ROOT, 'corpus'), path.join(dir, 'corpus'), { recursive: true });
  return dir;
}

function run(block: RunBlock): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const cwd = folderFor(block);
  let argv: string[];
  if (block.lang === 'js') {
    writeFileSync(path.join(cwd, 'example.mjs'), block.code);
    argv = [process.execPath, 'example.mjs'];
  } else {
    argv = ['bash', '-o', 'pipefail', '-c', block.code];
  }
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), {
      cwd,
      env: { ...process.env, PATH: `${path.join(work, 'bin')}:${process.env.PATH}`, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      // A block that hangs is killed short of the test's own guard (the build set's 60 s); a busy machine's slow one is not.
      timeout: 50_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Output compared line by line, trailing spaces and final blank lines aside. */
const lines = (s: string) => s.replace(/\s+$/, '').split('\n').map((l) => l.trimEnd());

describe('the examples in README.md and docs/*.md run as shown', () => {
  it('the pages mark examples to run, in the README and in docs/', () => {
    // (so that a change of the convention cannot leave this suite checking nothing)
    expect(BLOCKS.filter((b) => b.page === 'README.md').length).toBeGreaterThanOrEqual(3);
    expect(new Set(BLOCKS.map((b) => b.page)).size).toBeGreaterThanOrEqual(5);
    expect(BLOCKS.filter((b) => b.output !== undefined).length).toBeGreaterThanOrEqual(10);
  });

  it('the README says how a clone runs `robots` (not on its PATH) before its first example that calls it', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const first = BLOCKS.find((b) => b.page === 'README.md' && b.lang === 'sh' && /(^|[|;&]\s*)robots /m.test(b.code));
    expect(first).toBeDefined();
    const before = readme.split('\n').slice(0, first!.line - 1).join('\n');
    expect(before).toMatch(/`npx robots`/);
    expect(before).toMatch(/`node dist\/cli\.js`/);
  });

  it.concurrent.each(BLOCKS.map((b) => [`${b.page}:${b.line} (${b.lang})`, b] as const))('%s', async (_name, block) => {
    const r = await run(block);
    const where = `${block.page}:${block.line}\nstderr: ${r.stderr}`;
    expect(r.status, where).toBe(block.exit);
    if (block.output !== undefined) expect(lines(r.stdout), where).toEqual(lines(block.output));
  });
});
