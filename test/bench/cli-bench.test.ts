// `robots bench` where tinybench is not installed (an optional peer: a plain
// `npm install robots-wasm` leaves it out): the command's dist/ and bench/
// copied to a temp folder with no node_modules above it, so the import of
// tinybench really fails to resolve, as in a project that lacks it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

describe('robots bench without tinybench', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'robots-no-tinybench-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says to npm install tinybench, in one line, exit 2', () => {
    cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
    cpSync(path.join(ROOT, 'bench'), path.join(dir, 'bench'), { recursive: true, filter: (f) => !f.includes(`${path.sep}results`) });
    // Nothing above the temp folder resolves tinybench (the test is void if something does).
    for (let d = dir; d !== path.dirname(d); d = path.dirname(d)) expect(existsSync(path.join(d, 'node_modules', 'tinybench')), d).toBe(false);
    writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /a\n');
    writeFileSync(path.join(dir, 'urls.txt'), 'https://example.com/a\nhttps://example.com/b\n');
    const r = spawnSync(process.execPath, [path.join(dir, 'dist', 'cli.js'), 'bench', 'robots.txt', 'urls.txt'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('robots: robots bench needs tinybench, an optional peer dependency that is not installed: npm install tinybench\n');
    expect(r.status).toBe(2);
  });
});
