// The house, measured (issue 32): the tree is the pipeline and imports only
// run down it. Read from the sources themselves, so a new file is held to it
// the day it is added.
//
// Layers, lowest first: a file may import its own layer and those below.
//   engine/wasm (the core and the boundary layout), engine/parse, engine/compile,
//   engine/match, the engine's root (the API over the stages), then crawler and
//   compat, then the library's doors (index.ts, internal.ts), then bulk, then cli.
// assembly/ imports only itself and the shared boundary (src/engine/wasm/layout.ts).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const rel = (f: string) => path.relative(ROOT, f).split(path.sep).join('/');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => `${dir}/${f.split(path.sep).join('/')}`);
}

/** A file's static imports and re-exports (type-only ones too: a circle of types is still a circle). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const specs = [...text.matchAll(/^\s*(?:import|export)\b[^;'"]*?\bfrom\s+['"]([^'"]+)['"]/gm), ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  return specs;
}

/** The repository file a relative specifier names (.js written for .ts, or no extension). */
function resolve(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const t = rel(path.resolve(ROOT, path.dirname(from), spec));
  if (t.endsWith('.js')) return t.replace(/\.js$/, '.ts');
  if (/\.(wasm|json|mjs)$/.test(t)) return t;
  return `${t}.ts`;
}

const FILES = [...sources('src'), ...sources('assembly')];
const GRAPH = new Map(FILES.map((f) => [f, importsOf(f).map((s) => resolve(f, s)).filter((t): t is string => t !== null)]));

function layer(file: string): number {
  const order: [RegExp, number][] = [
    [/^src\/data\//, 0],
    [/^src\/engine\/wasm\//, 1],
    [/^src\/engine\/parse\//, 2],
    [/^src\/engine\/compile\//, 3],
    [/^src\/engine\/match\//, 4],
    [/^src\/engine\/[^/]+$/, 5],
    [/^src\/(crawler|compat)\//, 6],
    [/^src\/(index|internal)\.ts$/, 7],
    [/^src\/bulk\//, 8],
    [/^src\/cli\//, 9],
  ];
  for (const [re, n] of order) if (re.test(file)) return n;
  throw new Error(`${file}: in no layer of the house (add it to test/house/structure.test.ts)`);
}

describe('the house: imports run down the pipeline', () => {
  it('no import circle in src/ or assembly/', () => {
    // Tarjan's strongly connected components: any of more than one file is a circle.
    let index = 0;
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const on = new Set<string>();
    const circles: string[][] = [];
    const visit = (v: string) => {
      idx.set(v, index);
      low.set(v, index++);
      stack.push(v);
      on.add(v);
      for (const w of GRAPH.get(v) ?? []) {
        if (!GRAPH.has(w)) continue;
        if (!idx.has(w)) {
          visit(w);
          low.set(v, Math.min(low.get(v)!, low.get(w)!));
        } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
      }
      if (low.get(v) === idx.get(v)) {
        const scc: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          on.delete(w);
          scc.push(w);
        } while (w !== v);
        if (scc.length > 1 || (GRAPH.get(v) ?? []).includes(v)) circles.push(scc.sort());
      }
    };
    for (const f of FILES) if (!idx.has(f)) visit(f);
    expect(circles).toEqual([]);
  });

  it('every import in src/ resolves to a file of the repository', () => {
    const missing = [...GRAPH].flatMap(([f, ts]) => ts.filter((t) => !t.endsWith('.wasm') && !FILES.includes(t)).map((t) => `${f} -> ${t}`));
    expect(missing).toEqual([]);
  });

  it('no import runs back up: a file imports its own layer or those below', () => {
    const upward = [...GRAPH]
      .filter(([f]) => f.startsWith('src/'))
      .flatMap(([f, ts]) => ts.filter((t) => t.startsWith('src/') && !t.endsWith('.wasm') && layer(t) > layer(f)).map((t) => `${f} -> ${t}`));
    expect(upward).toEqual([]);
  });

  it('assembly/ imports only itself and the shared boundary layout', () => {
    const outside = [...GRAPH]
      .filter(([f]) => f.startsWith('assembly/'))
      .flatMap(([f, ts]) => ts.filter((t) => !t.startsWith('assembly/') && t !== 'src/engine/wasm/layout.ts').map((t) => `${f} -> ${t}`));
    expect(outside).toEqual([]);
  });

  it("the library's doors (index.ts, internal.ts) reach nothing Node-only: no node: module, no bulk/ or cli/ file", () => {
    for (const door of ['src/index.ts', 'src/internal.ts']) {
      const seen = new Set<string>();
      const walk = (f: string) => {
        if (seen.has(f) || !GRAPH.has(f)) return;
        seen.add(f);
        for (const t of GRAPH.get(f)!) walk(t);
      };
      walk(door);
      const reached = [...seen];
      expect(reached.filter((f) => /^src\/(bulk|cli)\//.test(f)), door).toEqual([]);
      const nodeOnly = reached.filter((f) => importsOf(f).some((s) => s.startsWith('node:')));
      expect(nodeOnly, door).toEqual([]);
    }
  });
});

/** Each class's name and its length in lines (from its `class` line to the brace that closes it). */
function classSizes(file: string): { name: string; lines: number }[] {
  const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const found: { name: string; lines: number }[] = [];
  lines.forEach((line, i) => {
    const m = line.match(/^(\s*)(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+(\w+)/);
    if (!m) return;
    const end = lines.findIndex((l, j) => j > i && l === `${m[1]}}`);
    found.push({ name: `${file}: ${m[2]}`, lines: (end < 0 ? lines.length : end) - i + 1 });
  });
  return found;
}

describe('the house: sizes', () => {
  it('no class over 300 lines (src/, assembly/, web/)', () => {
    const all = [...FILES, ...sources('web')].flatMap(classSizes);
    expect(all.length).toBeGreaterThan(10); // (the scan finds the classes there are)
    expect(all.filter((c) => c.lines > 300).map((c) => `${c.name}: ${c.lines} lines`)).toEqual([]);
  });

  it('the README is short (at most 250 lines); the rest is in docs/', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(readme).toBeLessThanOrEqual(250);
  });
});
