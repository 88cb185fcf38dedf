// What a minified file of dist/ holds, read through its source map (file.map beside it, as the build writes
// them): the modules of src/ it holds, and the names in src/ of the functions V8's coverage reports in it (the
// minifier renamed them).
import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';

/** The source map beside a built file. */
const mapOf = (file: string) => JSON.parse(readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload;

/** The modules a built file holds, as paths from the repository's root (src/...). */
export function sourcesOf(file: string, root: string): string[] {
  return mapOf(file).sources.map((s) => path.relative(root, path.resolve(path.dirname(file), s)));
}

/** The name a function has in src/, from the line and column its code starts at there: a declaration's
 * (`function name(`), a method's (`name(`), or that of what an arrow function is assigned to (`name = (s) =>`). */
function nameAt(line: string, column: number): string {
  const after = line.slice(column);
  const before = line.slice(0, column);
  return (
    /^(?:export\s+)?(?:async\s+)?function\*?\s*([\w$]+)/.exec(after)?.[1] ??
    /([\w$]+)\s*[=:]\s*(?:async\s*)?\(?\s*$/.exec(before)?.[1] ?? // (an arrow's code may start at its parameter)
    /^(?:(?:static|get|set|async)\s+)*#?([\w$]+)\s*[(<]/.exec(after)?.[1] ??
    ''
  );
}

/** Each function of a built file that ran (V8's precise coverage of it: a function's first range starts where its
 * code does), by its name in src/, with its call count; functions not named there (callbacks, classes' initialisers)
 * left out. */
export function ranByName(file: string, functions: { ranges: { startOffset: number; count: number }[] }[]): Record<string, number> {
  const text = readFileSync(file, 'utf8');
  const map = new SourceMap(mapOf(file));
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const ran: Record<string, number> = Object.create(null);
  const sources: Record<string, string[]> = Object.create(null);
  for (const { ranges } of functions) {
    const { startOffset, count } = ranges[0];
    if (count === 0) continue;
    let line = lineStarts.length - 1;
    while (lineStarts[line] > startOffset) line--;
    const entry = map.findEntry(line, startOffset - lineStarts[line]) as { originalSource?: string; originalLine?: number; originalColumn?: number };
    if (entry.originalSource === undefined) continue;
    // (The maps hold no sources' text: the source is read where the map says it is, in src/.)
    const source = (sources[entry.originalSource] ??= readFileSync(path.resolve(path.dirname(file), entry.originalSource), 'utf8').split('\n'));
    const name = nameAt(source[entry.originalLine!], entry.originalColumn!);
    if (name !== '') ran[name] = (ran[name] ?? 0) + count;
  }
  return ran;
}
