// The package ships bench/ beside dist/ (`robots bench` runs its harness): every module a
// shipped file names by a relative path must be shipped too, or an installed harness loses
// engines quietly (an adapter whose import fails is skipped as "not installed").
// Checked on `npm pack --dry-run`'s list, no install: what the `files` field takes.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Relative specifiers written whole: imports, re-exports, dynamic imports, require(), new URL(…, import.meta.url). */
const RELATIVE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bnew URL\(\s*)(['"])(\.{1,2}\/[^'"]*)\1/g;
/** A line that is only a comment. */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*).*$/gm;

async function packedFiles(): Promise<Set<string>> {
  // --ignore-scripts: the list is the `files` field's, over the dist/ this run built.
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, maxBuffer: 64 << 20 });
  const [{ files }] = JSON.parse(stdout) as [{ files: { path: string }[] }];
  return new Set(files.map((f) => f.path));
}

describe('the packed package', () => {
  it('ships every module its shipped bench files name by a relative path', async () => {
    const packed = await packedFiles();
    const shipped = [...packed].filter((f) => f.startsWith('bench/') && /\.(mjs|cjs|js)$/.test(f));
    expect(shipped).toContain('bench/user.mjs');
    const missing: string[] = [];
    for (const file of shipped) {
      const text = readFileSync(path.join(ROOT, file), 'utf8').replace(COMMENT_LINE, '');
      for (const m of text.matchAll(RELATIVE)) {
        const target = path.relative(ROOT, path.resolve(ROOT, path.dirname(file), m[2]));
        // Outside the package (../shared's data) or a folder (`new URL('.', …)`): not a module to ship.
        if (target.startsWith('..') || m[2].endsWith('/') || m[2] === '.' || !existsSync(path.join(ROOT, target))) continue;
        if (!packed.has(target)) missing.push(`${file} names ${target}`);
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);
});
