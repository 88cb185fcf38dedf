// The pages hold together: every relative link of README.md and docs/*.md names
// a file or folder of the repository (and a heading of it, for a #fragment), no
// table cell is a wall of text, the README quotes `npm start` as package.json has
// it, and docs/testing.md names every folder of test/ that holds suites.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { docPages, ROOT } from './doc-blocks.js';

const read = (page: string) => readFileSync(path.join(ROOT, page), 'utf8');

/** A page's text outside fenced code blocks (a link in a code block is code, not a link). */
function prose(page: string): string[] {
  let fence: string | null = null;
  return read(page)
    .split('\n')
    .map((line) => {
      const m = line.match(/^\s*(`{3,})/);
      if (m && (fence === null || m[1].length >= fence.length)) {
        fence = fence === null ? m[1] : null;
        return '';
      }
      return fence === null ? line : '';
    });
}

/** Markdown inline links and images: [text](target) and ![alt](target), targets without spaces. */
function links(page: string): { line: number; target: string }[] {
  return prose(page).flatMap((text, i) => [...text.replace(/`[^`]*`/g, (c) => (c.includes('](') ? c : '')).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => ({ line: i + 1, target: m[1] })));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as '-'. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

function anchors(file: string): Set<string> {
  return new Set(prose(file).flatMap((l) => (l.match(/^#{1,6}\s+(.*)$/) ? [anchor(l.replace(/^#+\s+/, ''))] : [])));
}

const PAGES = docPages();

describe('the pages link to what exists', () => {
  it('finds the pages and their links', () => {
    expect(PAGES).toContain('README.md');
    expect(PAGES.length).toBeGreaterThanOrEqual(9);
    expect(PAGES.flatMap(links).length).toBeGreaterThan(50);
  });

  it.each(PAGES)('every relative link of %s names a file or folder of the repository, and a heading of it', (page) => {
    const broken: string[] = [];
    for (const { line, target } of links(page)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      const [file, fragment] = target.split('#');
      const resolved = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURIComponent(file));
      const where = `${page}:${line}: ${target}`;
      if (!resolved.startsWith(ROOT + path.sep) && resolved !== ROOT) broken.push(`${where} (outside the repository)`);
      else if (!existsSync(resolved)) broken.push(`${where} (no such file)`);
      else if (fragment !== undefined && resolved.endsWith('.md') && statSync(resolved).isFile() && !anchors(path.relative(ROOT, resolved)).has(fragment)) broken.push(`${where} (no such heading)`);
    }
    expect(broken).toEqual([]);
  });
});

describe('the pages read well', () => {
  it.each(PAGES)('no table cell of %s is over 400 characters', (page) => {
    const long = prose(page)
      .filter((l) => /^\s*\|.*\|\s*$/.test(l))
      .flatMap((l) => l.trim().slice(1, -1).split(/(?<!\\)\|/))
      .filter((cell) => cell.trim().length > 400)
      .map((cell) => `${cell.trim().slice(0, 60)}… (${cell.trim().length})`);
    expect(long).toEqual([]);
  });

  it("the README quotes npm start's command as package.json has it", () => {
    const start = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts.start;
    expect(read('README.md')).toContain(`\`${start}\``);
  });

  it('docs/testing.md names every folder of test/ that holds suites', () => {
    const folders = readdirSync(path.join(ROOT, 'test'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.test.ts'))
      .map((f) => `test/${path.dirname(f).split(path.sep).join('/')}/`);
    const testing = read('docs/testing.md');
    expect([...new Set(folders)].filter((f) => !testing.includes(`[\`${f}\`]`)).sort()).toEqual([]);
  });
});
