// The house, measured (issue 32): the tree is the pipeline and imports only
// run down it. Read from the sources themselves, so a new file is held to it
// the day it is added.
//
// Layers, lowest first: a file may import its own layer and those below.
//   data and text (plain data, plain string helpers), engine/wasm (the core and
//   the boundary layout), engine/parse, engine/compile, engine/match, engine/usage
//   (use preferences, over the compiled matcher), the engine's root (the API over
//   the stages), then crawler and compat, then the library's doors (index.ts,
//   internal.ts), then bulk, then cli.
// bulk's folders are layers too (src/bulk/README.md): base, hosts, formats,
// sources, index, classify, audit, threads, then its front door (bulk's own
// files, the API over the folders, as the engine's root is over its stages).
// assembly/ imports only itself and the shared boundary (src/engine/wasm/layout.ts),
// and its stages too run down (assembly/README.md): base, parse, compile, match,
// bulk, then index.ts (the exports); host.ts (the imports) sits with base, and
// the vendored runtime/ stands apart.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import typescript from 'typescript';
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
    [/^src\/(data|text)\//, 0],
    [/^src\/engine\/wasm\//, 1],
    [/^src\/engine\/parse\//, 2],
    [/^src\/engine\/compile\//, 3],
    [/^src\/engine\/match\//, 4],
    [/^src\/engine\/usage\//, 5],
    [/^src\/engine\/[^/]+$/, 6],
    [/^src\/(crawler|compat)\//, 7],
    [/^src\/(index|internal)\.ts$/, 8],
    [/^src\/exports\//, 8], // (the door's parts: index.ts re-exports them)
    [/^src\/bulk\//, 9],
    [/^src\/cli\//, 10],
  ];
  for (const [re, n] of order) if (re.test(file)) return n;
  throw new Error(`${file}: in no layer of the house (add it to test/house/structure.test.ts)`);
}

/** bulk's layer of a file of src/bulk/, lowest first. */
function bulkLayer(file: string): number {
  const order: [RegExp, number][] = [
    [/^src\/bulk\/base\//, 0],
    [/^src\/bulk\/hosts\//, 1],
    [/^src\/bulk\/formats\//, 2],
    [/^src\/bulk\/sources\//, 3],
    [/^src\/bulk\/index\//, 4],
    [/^src\/bulk\/classify\//, 5],
    [/^src\/bulk\/audit\//, 6],
    [/^src\/bulk\/threads\//, 7],
    [/^src\/bulk\/[^/]+\.ts$/, 8],
  ];
  for (const [re, n] of order) if (re.test(file)) return n;
  throw new Error(`${file}: in no layer of bulk (add it to src/bulk/README.md and test/house/structure.test.ts)`);
}

/** Tarjan's strongly connected components of a graph: those of more than one node (or a node that reaches itself) are circles. */
function circlesOf(graph: Map<string, string[]>): string[][] {
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
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
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
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) circles.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return circles;
}

/** The core's stage of a file of assembly/ outside its vendored runtime, lowest first. */
function coreLayer(file: string): number {
  const order: [RegExp, number][] = [
    [/^assembly\/base\//, 0],
    [/^assembly\/host\.ts$/, 0], // what the core imports from the host: a declaration, called from any stage
    [/^assembly\/parse\//, 1],
    [/^assembly\/compile\//, 2],
    [/^assembly\/match\//, 3],
    [/^assembly\/bulk\//, 4],
    [/^assembly\/index\.ts$/, 5],
  ];
  for (const [re, n] of order) if (re.test(file)) return n;
  throw new Error(`${file}: in no stage of the core (add it to assembly/README.md and test/house/structure.test.ts)`);
}

describe('the house: imports run down the pipeline', () => {
  it('no import circle in src/ or assembly/', () => {
    expect(circlesOf(GRAPH)).toEqual([]);
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

  it("no circle among bulk's folders: a folder's files never import, through another folder, back into it", () => {
    const folders = new Map<string, string[]>();
    for (const [f, ts] of GRAPH) {
      if (!f.startsWith('src/bulk/')) continue;
      const from = path.posix.dirname(f);
      const to = ts.filter((t) => t.startsWith('src/bulk/')).map((t) => path.posix.dirname(t)).filter((d) => d !== from);
      folders.set(from, [...new Set([...(folders.get(from) ?? []), ...to])]);
    }
    expect(folders.size).toBeGreaterThan(8); // (the scan finds bulk's folders)
    expect(circlesOf(folders)).toEqual([]);
  });

  it("bulk's folders run down: base, hosts, formats, sources, index, classify, audit, threads, then the front door", () => {
    const upward = [...GRAPH]
      .filter(([f]) => f.startsWith('src/bulk/'))
      .flatMap(([f, ts]) => ts.filter((t) => t.startsWith('src/bulk/') && bulkLayer(t) > bulkLayer(f)).map((t) => `${f} -> ${t}`));
    expect(upward).toEqual([]);
  });

  it("robots classify reaches bulk by its front door, and the other commands' agent names are the engine's to check", () => {
    const bulk = (f: string) => (GRAPH.get(f) ?? []).filter((t) => t.startsWith('src/bulk/'));
    expect(bulk('src/cli/classify.ts').filter((t) => !/^src\/bulk\/(classify\.ts|base\/)/.test(t))).toEqual([]);
    for (const command of ['check', 'explain', 'fetch', 'bench']) expect(bulk(`src/cli/${command}.ts`), command).toEqual([]);
  });

  it('assembly/ imports only itself and the shared boundary layout', () => {
    const outside = [...GRAPH]
      .filter(([f]) => f.startsWith('assembly/'))
      .flatMap(([f, ts]) => ts.filter((t) => !t.startsWith('assembly/') && t !== 'src/engine/wasm/layout.ts').map((t) => `${f} -> ${t}`));
    expect(outside).toEqual([]);
  });

  it("assembly/'s stages run down: base, parse, compile, match, bulk, index.ts; the vendored runtime apart", () => {
    const core = [...GRAPH].filter(([f]) => f.startsWith('assembly/'));
    const runtime = (f: string) => f.startsWith('assembly/runtime/');
    expect(core.filter(([f]) => !runtime(f)).length).toBeGreaterThan(20); // (the scan finds the core's files)
    const upward = core
      .filter(([f]) => !runtime(f))
      .flatMap(([f, ts]) => ts.filter((t) => t.startsWith('assembly/') && !runtime(t) && coreLayer(t) > coreLayer(f)).map((t) => `${f} -> ${t}`));
    expect(upward).toEqual([]);
    // The runtime is AssemblyScript's allocator as the config names it (asconfig.json): no stage imports it, and it imports none.
    const crossing = core.flatMap(([f, ts]) => ts.filter((t) => t.startsWith('assembly/') && runtime(t) !== runtime(f)).map((t) => `${f} -> ${t}`));
    expect(crossing).toEqual([]);
  });

  it('a preference has one number: the boundary layout\'s PREFERENCE_* (the core, bulk and the page import them)', () => {
    // A table of words to numbers (or numbers to words) anywhere else is a second definition the two sides may drift from.
    const table = /\bunknown\s*:\s*0\b[^}]*\ballowed\s*:\s*1\b[^}]*\bdisallowed\s*:\s*2\b|\[\s*'unknown'\s*,\s*'allowed'\s*,\s*'disallowed'\s*\]/;
    const defining = [...FILES, ...sources('web')].filter((f) => table.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(defining).toEqual([]);
    const users = ['assembly/bulk/crawler-columns.ts', 'src/bulk/classify/purpose-codes.ts', 'src/bulk/classify/control-codes.ts', 'src/engine/usage/preference-codes.ts'];
    const unnumbered = users.filter((f) => !existsSync(path.join(ROOT, f)) || !/\bPREFERENCE_(UNKNOWN|ALLOWED|DISALLOWED|CODE|OF)\b/.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(unnumbered).toEqual([]);
    expect(readFileSync(path.join(ROOT, 'web/protocol.ts'), 'utf8')).toMatch(/from '\.\.\/src\/engine\/usage\/preference-codes\.js'/);
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

const K = typescript.SyntaxKind;
/** Tokens after which a `/` divides; after any other it starts a regular expression. */
const ENDS_OPERAND = new Set([K.Identifier, K.NumericLiteral, K.BigIntLiteral, K.StringLiteral, K.NoSubstitutionTemplateLiteral, K.TemplateTail, K.RegularExpressionLiteral, K.CloseParenToken, K.CloseBracketToken, K.CloseBraceToken, K.ThisKeyword, K.SuperKeyword, K.TrueKeyword, K.FalseKeyword, K.NullKeyword, K.PlusPlusToken, K.MinusMinusToken]);

/**
 * The comments of a source file, read by TypeScript's scanner (so a `//` in a string, a template or a regular
 * expression is none). The scanner, not the parser: the parser's nodes miss comments that no node leads (one
 * after a list's last comma, one inside an expression) and take several times as long.
 */
function commentsOf(text: string): string[] {
  const scanner = typescript.createScanner(typescript.ScriptTarget.Latest, false, typescript.LanguageVariant.Standard, text);
  const found: string[] = [];
  const braces: typescript.SyntaxKind[] = []; // what each open `{` is: a block's or a template's `${`
  let last = K.Unknown;
  for (let k = scanner.scan(); k !== K.EndOfFileToken; k = scanner.scan()) {
    if (k === K.SingleLineCommentTrivia || k === K.MultiLineCommentTrivia) found.push(scanner.getTokenText());
    if (k === K.SingleLineCommentTrivia || k === K.MultiLineCommentTrivia || k === K.WhitespaceTrivia || k === K.NewLineTrivia || k === K.ShebangTrivia) continue;
    if ((k === K.SlashToken || k === K.SlashEqualsToken) && !ENDS_OPERAND.has(last)) k = scanner.reScanSlashToken();
    else if (k === K.OpenBraceToken || k === K.TemplateHead) braces.push(k);
    else if (k === K.CloseBraceToken && braces.pop() === K.TemplateHead) {
      k = scanner.reScanTemplateToken(false);
      if (k === K.TemplateMiddle) braces.push(K.TemplateHead);
    }
    last = k;
  }
  return found;
}

/**
 * The relative paths a comment names that name no file or folder: `something/file.ext`, a folder's `a/b/` (two
 * folders at least), or any path from `./` or `../`.
 * A path from `./` or `../` is read from the file's folder or the repository's root (`../shared`, the test
 * data beside the project); any other from the file's folder or a folder above it, or from `../shared`, and
 * only when its first folder is there: so a path in another repository (`Lib/test/x.py`), a placeholder
 * (`DIR/index.json`) or a host (`example.com/robots.txt`) is not read as one of this repository's, and a path
 * from `/` (a URL's path) is none. A `.js` name stands for its `.ts` source, as imports write it; the build's
 * outputs (`dist/`, `build/`) are not in a checkout; a path followed by `at <commit>` is another repository's.
 */
function missingPathsIn(file: string, comment: string): string[] {
  const shared = path.resolve(ROOT, '../shared');
  const dirs: string[] = [];
  for (let d = path.join(ROOT, path.dirname(file)); ; d = path.dirname(d)) {
    dirs.push(d);
    if (d === ROOT) break;
  }
  const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();
  const exists = (p: string) => existsSync(p) || (p.endsWith('.js') && existsSync(p.replace(/\.js$/, '.ts')));
  const generated = (p: string) => /^(dist|build)(\/|$)/.test(rel(p));
  const missing: string[] = [];
  for (const m of comment.matchAll(/(?<![\w.\/@:~$%*+-])((?:(?:\.\.?\/)+(?:[\w@-][\w.@-]*\/)*|(?:[\w@-][\w.@-]*\/)+)[\w-][\w.-]*\.[A-Za-z0-9]+|(?:\.\.?\/)*(?:[\w@-][\w.@-]*\/){2,})(?![\w\/*-])/g)) {
    const named = m[1];
    if (/^,?\s*at [0-9a-f]{7,40}\b/.test(comment.slice(m.index + named.length))) continue;
    const first = named.split('/')[0];
    const bases = named.startsWith('.') ? [dirs[0], ROOT] : [...dirs, shared].filter((d) => isDir(path.join(d, first)));
    const places = bases.map((d) => path.join(d, named));
    if (places.length === 0 || places.some(generated) || places.some(exists)) continue;
    missing.push(`${file}: ${named}`);
  }
  return missing;
}

/** The repository's scripts and sources, in the folders that hold code. */
function codeFiles(): string[] {
  return ['src', 'web', 'assembly', 'bench', 'scripts', 'test'].flatMap((dir) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .map((f) => `${dir}/${f.split(path.sep).join('/')}`)
      .filter((f) => /\.([mc]?ts|[mc]?js)$/.test(f) && !f.startsWith('bench/results/')),
  );
}

// Named in comments of files that are being rewritten elsewhere: fix the comment, then drop its entry
// (an entry that no longer fails fails the test, so the list only shrinks).
const NOT_YET_FIXED: string[] = [];

/** The names a file imports from a specifier, each as written in the file it comes from (`a as b`: `a`). */
function namesImported(file: string): { spec: string; names: string[] }[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/^\s*import\s+(?:type\s+)?\{([^}]*)\}\s*from\s+['"]([^'"]+)['"]/gm)].map((m) => ({
    spec: m[2],
    names: m[1].split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]).filter((n) => n !== ''),
  }));
}

/** The names the public door (src/index.ts) exports, values and types (its own, and its parts' in src/exports/). */
function apiNames(): Set<string> {
  const door = readFileSync(path.join(ROOT, 'src/index.ts'), 'utf8');
  const parts = [...door.matchAll(/^export\s+\*\s+from\s+['"]([^'"]+)['"]/gm)].map((m) => readFileSync(path.join(ROOT, resolve('src/index.ts', m[1])!), 'utf8'));
  const text = [door, ...parts].join('\n');
  const names = [...text.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm)].flatMap((m) => m[1].split(',').map((n) => n.trim().replace(/^type\s+/, '').split(/\s+as\s+/).pop()!));
  return new Set(names.filter((n) => n !== ''));
}

describe('the house: the API is the door', () => {
  it("no file above the library's doors (bulk/, cli/, web/) reads from the engine's files a name the API exports", () => {
    // Below the doors (crawler/, compat/) a file cannot import them: it reads the engine's files.
    const api = apiNames();
    expect(api.has('parse') && api.has('PURPOSES')).toBe(true); // (the scan reads the door; the purposes list is on it)
    const above = [...sources('src').filter((f) => /^src\/(bulk|cli)\//.test(f)), ...sources('web')];
    const through = above.flatMap((f) =>
      namesImported(f)
        .filter(({ spec }) => (resolve(f, spec) ?? '').startsWith('src/engine/'))
        .flatMap(({ spec, names }) => names.filter((n) => api.has(n)).map((n) => `${f}: ${n} from ${spec}`)),
    );
    expect(through).toEqual([]);
  });
});

/** The public members of a class (not private nor protected) that its doc comment marks `@internal`. */
function internalPublicMembers(file: string, className: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const source = typescript.createSourceFile(file, text, typescript.ScriptTarget.Latest, true);
  const found: string[] = [];
  source.forEachChild((node) => {
    if (!typescript.isClassDeclaration(node) || node.name?.text !== className) return;
    for (const member of node.members) {
      const hidden = typescript.getCombinedModifierFlags(member as typescript.Declaration) & (typescript.ModifierFlags.Private | typescript.ModifierFlags.Protected);
      if (hidden || member.name === undefined || typescript.isPrivateIdentifier(member.name)) continue;
      if (typescript.getJSDocTags(member).some((t) => t.tagName.text === 'internal')) found.push(member.name.getText(source));
    }
  });
  return found;
}

describe("the house: a public class is the API alone", () => {
  it("RobotsTxt has no public member for the engine's own parts (they read its internals through robotsInternals())", () => {
    expect(readFileSync(path.join(ROOT, 'src/engine/robots-txt.ts'), 'utf8')).toMatch(/export class RobotsTxt\b/); // (the scan reads the class)
    expect(internalPublicMembers('src/engine/robots-txt.ts', 'RobotsTxt')).toEqual([]);
  });
});

describe('the house: one of each', () => {
  it("one asciiLower of a string (src/text/ascii.ts): a copy elsewhere would drift from it", () => {
    // The octet version (parse/records.ts, a number in, a number out) is another function.
    const defined = [...FILES, ...sources('web')]
      .filter((f) => !f.startsWith('assembly/'))
      .filter((f) => /(?:function\s+asciiLower\s*\(\s*\w+\s*:\s*string|\basciiLower\s*=\s*\()/.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(defined).toEqual(['src/text/ascii.ts']);
  });
  it("one decision of which groups apply, the core's (assembly/parse/group-choice.ts): no other file of assembly/, src/ or web/ names a user-agent line's flags for the crawler (the boundary layout defines them)", () => {
    // The selector (the body) and the host's records (agents.ts groupsThatApply) both ask it: a second decision would have to set these flags.
    const deciding = [...FILES, ...sources('web')]
      .filter((f) => f !== 'assembly/parse/group-choice.ts' && f !== 'src/engine/wasm/layout.ts')
      .filter((f) => /\bSELECT_(?:NAMES_CRAWLER|GLOBAL)\b/.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(deciding).toEqual([]);
  });
  it("a user-agent line is tested against a crawler's names by the core alone: no file of src/ or web/ compares a line's product token with names, and only records.ts (their own reading, for messages) calls isGlobalAgent or leadingToken", () => {
    const testing = [...sources('src'), ...sources('web')]
      .filter((f) => !f.startsWith('assembly/'))
      .filter((f) => {
        const text = readFileSync(path.join(ROOT, f), 'utf8');
        return /\.(?:includes|has)\(\s*\w+\.lower\s*\)/.test(text) || (f !== 'src/engine/parse/records.ts' && /\b(?:isGlobalAgent|leadingToken)\b/.test(text));
      });
    expect(testing).toEqual([]);
  });
  it('one reading of which groups apply on the host (src/engine/parse/agents.ts groupsThatApply, over the core\'s answer): no other file of src/ tests a line against the crawler or falls back to the `*` groups itself', () => {
    // The shapes such a second reading took: the line test called, the `*` groups asked for by naming no crawler, a fallback filter.
    const readings = [
      /\blineNamesAgent\b/,
      /applicableGroups\([^()]*,\s*\[\]\)/,
      /\?\s*\w+\s*:\s*\w+(?:\.\w+)*\.filter\(\s*\(\w+\)\s*=>\s*\w+\.agents\.some/,
    ];
    const own = sources('src')
      .filter((f) => f !== 'src/engine/parse/agents.ts')
      .filter((f) => readings.some((r) => r.test(readFileSync(path.join(ROOT, f), 'utf8'))));
    expect(own).toEqual([]);
  });
  it("one planner of rule mode's `*` rules, the core's (assembly/compile/star-plan.ts): no file of src/ or web/ hashes grams for its gram index (the host's planner is a reference in test/helpers/)", () => {
    // A planner must place each rule by the layout's gram hashes (GRAM_HASH, GRAM_FILTER_HASH): only the boundary layout, which defines them, names them.
    const hashing = [...FILES, ...sources('web')]
      .filter((f) => !f.startsWith('assembly/') && f !== 'src/engine/wasm/layout.ts')
      .filter((f) => /\bGRAM_(?:FILTER_)?HASH\b/.test(readFileSync(path.join(ROOT, f), 'utf8')));
    expect(hashing).toEqual([]);
  });
});

describe('the house: comments stay true', () => {
  it('every relative path named in a comment exists (src/, web/, assembly/, bench/, scripts/, test/)', () => {
    const files = codeFiles();
    expect(files.length).toBeGreaterThan(300); // (the scan finds the code there is)
    const missing = files.flatMap((f) => {
      const text = readFileSync(path.join(ROOT, f), 'utf8');
      // A file whose text names no missing path has none in its comments: only the others are scanned.
      return missingPathsIn(f, text).length === 0 ? [] : commentsOf(text).flatMap((c) => missingPathsIn(f, c));
    });
    expect(missing.filter((m) => !NOT_YET_FIXED.includes(m))).toEqual([]);
    expect(NOT_YET_FIXED.filter((m) => !missing.includes(m)), 'entries that no longer fail').toEqual([]);
  });

  it('the rule reads paths, not URLs nor examples', () => {
    const file = 'test/house/structure.test.ts';
    const named = (comment: string) => missingPathsIn(file, comment);
    expect(named('// see https://example.com/robots.txt and /a/b.html, Lib/test/x.py, DIR/index.json')).toEqual([]);
    expect(named('// (owner/repo, test/Robots.js, at 0d3116d) build/robots.wasm ../../build/x.wasm ./structure.test.ts house/structure.test.js')).toEqual([]);
    expect(named('// src/engine/compile/cold-index.ts, ./gone.ts, compile/gone.ts')).toEqual([`${file}: src/engine/compile/cold-index.ts`, `${file}: ./gone.ts`]);
    expect(named('/** as assembly/match/gone.ts: writes */')).toEqual([`${file}: assembly/match/gone.ts`]);
    // A folder's path too, from two folders on (`src/engine/`; a lone `dist/` or `warc/` is a word as often as a path).
    expect(named('// src/engine/ and test/compat/peer-cases/, test/peer-cases/: dist/ warc/')).toEqual([`${file}: test/peer-cases/`]);
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
