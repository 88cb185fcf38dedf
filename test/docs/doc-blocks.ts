// The pages of the documentation (README.md and docs/*.md) and the fenced code
// blocks they mark to be run. The convention (docs/testing.md): an info string of
// `js run` (an ES module), `sh run` (bash, with `robots` on PATH) and, optionally,
// `exit=N` (the status the block must end with; 0 unless said); a block marked
// `output` right after one (blank lines between allowed) is what it must print on stdout.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** README.md and every page of docs/, as paths relative to the repository. */
export function docPages(): string[] {
  const pages = readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...pages];
}

export interface RunBlock {
  page: string;
  /** The line of the block's opening fence (1-based), to name it. */
  line: number;
  lang: 'js' | 'sh';
  code: string;
  exit: number;
  /** What it must print on stdout, when the page shows it. */
  output?: string;
}

interface Fence {
  /** The lines of its opening and closing fences (1-based and 0-based: the body is between). */
  line: number;
  end: number;
  info: string[];
  code: string;
}

function fences(text: string): Fence[] {
  const lines = text.split('\n');
  const found: Fence[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(\s*)(`{3,})(.*)$/);
    if (!open) continue;
    const [, indent, ticks, info] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^\\s*${ticks}\\s*$`).test(lines[j])) body.push(lines[j++].slice(indent.length));
    found.push({ line: i + 1, end: j, info: info.trim().split(/\s+/).filter(Boolean), code: body.join('\n') });
    i = j;
  }
  return found;
}

/** The blocks of a page marked to be run, each with the output block after it, if any. */
export function runBlocks(page: string): RunBlock[] {
  const text = readFileSync(path.join(ROOT, page), 'utf8');
  const lines = text.split('\n');
  const all = fences(text);
  const blocks: RunBlock[] = [];
  all.forEach((f, k) => {
    if (f.info[1] !== 'run') return;
    if (f.info[0] !== 'js' && f.info[0] !== 'sh') throw new Error(`${page}:${f.line}: a run block is js or sh, not ${f.info[0]}`);
    const exit = f.info.find((w) => w.startsWith('exit='));
    const next = all[k + 1];
    const between = next ? lines.slice(f.end + 1, next.line - 1) : [];
    const output = next && next.info[0] === 'output' && between.every((l) => l.trim() === '') ? next.code : undefined;
    blocks.push({ page, line: f.line, lang: f.info[0], code: f.code, exit: exit ? Number(exit.slice(5)) : 0, output });
  });
  return blocks;
}
