// A fresh process that imports robots-wasm pays for what its first verdict
// needs, and no more (bench cold-start): the import loads no other package and
// makes no WebAssembly module; the first compile makes the core, once, the
// library's (without the command's bulk classification); require() reads one
// file of the package; the crawler's modules (fflate, http-cache-semantics)
// come with the first RobotsCache, which then works as before, from ESM and
// from CommonJS.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ranByName, sourcesOf } from '../helpers/dist-sources.js';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const require_ = createRequire(import.meta.url);
/** The whole core (assembly/index.ts), which the command's bundles embed. */
const WHOLE_CORE = fileURLToPath(new URL('../../build/robots.wasm', import.meta.url));
/** What only the command calls: the core's bulk work (assembly/bulk/: classification, the audit's witnesses), read
 * from the lines of assembly/index.ts that scripts/build-wasm.mjs leaves out of the library's core. */
const BULK_EXPORTS = [...readFileSync(fileURLToPath(new URL('../../assembly/index.ts', import.meta.url)), 'utf8').matchAll(/^export \{([^}]*)\} from "\.\/bulk\//gm)]
  .flatMap((m) => m[1].split(',').map((name) => name.trim()))
  .sort();
// (The bundles are minified: a statement may follow another on its line.)
const STATIC_IMPORT = /(?:^|;)\s*(?:import|export)\b[^;"]*?\bfrom\s*"([^"]+)";|(?:^|;)\s*import\s*"([^"]+)";/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*(?:\/\*[^*]*\*\/\s*)?"([^"]+)"\s*\)/g; // (webpack's comment before the specifier)

/** The modules a module loads at import (its static imports, followed through dist/), and the specifiers it imports later. */
function importGraph(entry: string): { loaded: string[]; deferred: string[] } {
  const loaded = new Set<string>();
  const deferred = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(STATIC_IMPORT)) {
      const specifier = m[1] ?? m[2];
      if (specifier.startsWith('.')) visit(path.resolve(path.dirname(file), specifier));
      else loaded.add(specifier);
    }
    for (const m of source.matchAll(DYNAMIC_IMPORT)) deferred.add(m[1]);
  };
  visit(entry);
  return { loaded: [...loaded].map((f) => (path.isAbsolute(f) ? path.relative(DIST, f) : f)).sort(), deferred: [...deferred].sort() };
}

/** V8's precise coverage of the package's files, as a child process reports it: [url, its functions]. */
type Covered = [string, { ranges: { startOffset: number; count: number }[] }[]][];

/** Runs a module in a fresh node process; its last stdout line, as JSON. */
function run(source: string, type: 'module' | 'commonjs'): Record<string, unknown> {
  const out = execFileSync(process.execPath, ['--input-type', type, '-e', source], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop()!);
}

/** Counts the WebAssembly modules made (compiled from octets) in the process, before anything imports the package. */
const COUNT_MODULES = `
const made = { modules: 0, exports: [], pages: [] };
const Module = WebAssembly.Module;
WebAssembly.Module = new Proxy(Module, { construct(target, args) { made.modules++; const m = Reflect.construct(target, args); made.exports = Module.exports(m).map((e) => e.name).sort(); return m; } });
const Instance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(Instance, { construct(target, args) { const i = Reflect.construct(target, args); made.pages.push(i.exports.memory.buffer.byteLength / 65536); return i; } });
`;

/** A RobotsCache on a fetch that serves one robots.txt; its verdicts. */
const CRAWL = `
const served = 'User-agent: *\\nDisallow: /private/\\n';
const cache = new RobotsCache({ agent: 'ExampleBot', userAgentHeader: 'ExampleBot/1.0', fetch: async () => new Response(served, { status: 200, headers: { 'cache-control': 'max-age=60' } }) });
const crawled = [await cache.isAllowed('https://example.com/private/x'), await cache.isAllowed('https://example.com/public')];
const entry = await cache.lookup('https://example.com/');
`;

describe('cold start', () => {
  it('dist/index.js loads only its own chunk at import, the one robots-wasm/compat shares: no other package (fflate and http-cache-semantics are imported later, by the crawler)', () => {
    const { loaded, deferred } = importGraph(path.join(DIST, 'index.js'));
    expect(loaded.filter((m) => !m.startsWith('chunks/') && m !== 'index.js')).toEqual([]);
    // Each ES module is a load of its own: the crawler's and lint's code in index.js, beside it the engine's chunk
    // alone (which robots-wasm/compat shares: one core), no helper's chunk.
    expect(loaded.filter((m) => m.startsWith('chunks/'))).toHaveLength(1);
    const compat = importGraph(path.join(DIST, 'compat.js')).loaded.filter((m) => m.startsWith('chunks/'));
    expect(compat).toContain(loaded.find((m) => m.startsWith('chunks/')));
    expect(deferred).toEqual(['fflate', 'http-cache-semantics']);
  });

  it('the import runs no code of the crawler\'s or lint\'s answers: what they build at their start is built on first use (ESM)', () => {
    const index = pathToFileURL(path.join(DIST, 'index.js')).href;
    const got = run(`
import { Session } from 'node:inspector/promises';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const robots = await import(${JSON.stringify(index)});
/** The package's files' functions, as V8's coverage gives them (their names are read in src/, below). */
const covered = async () => {
  const { result } = await session.post('Profiler.takePreciseCoverage');
  return result.filter((s) => s.url.startsWith(${JSON.stringify(pathToFileURL(DIST).href)})).map((s) => [s.url, s.functions]);
};
const atImport = await covered();
const findings = robots.lint('User-agent: Google_Extended\\nDisallow: /\\n').findings.map((f) => f.code);
const afterLint = await covered();
console.log(JSON.stringify({ atImport, afterLint, misspelt: findings.length > 0 }));
`, 'module') as { atImport: Covered; afterLint: Covered; misspelt: boolean };
    const watched = ['crawlerUsage', 'statusSource', 'letters'];
    /** The watched functions that have run, by their names in src/. */
    const ran = (covered: Covered) => watched.filter((f) => covered.some(([url, functions]) => ranByName(fileURLToPath(url), functions)[f] !== undefined));
    expect({ atImport: ran(got.atImport), afterLint: ran(got.afterLint), misspelt: got.misspelt }).toEqual({ atImport: [], afterLint: ['letters'], misspelt: true });
  });

  it('the import builds no table that only the command reads (octets.ts ESCAPES_RAW, the audit\'s: escapesRaw asked of 256 octets), ESM and CommonJS', () => {
    /** The package's functions run at import, with their call counts (V8's precise coverage). */
    const atImport = (load: string, type: 'module' | 'commonjs') => {
      const { covered } = run(`
const { Session } = ${type === 'module' ? "await import('node:inspector/promises')" : "require('node:inspector/promises')"};
(async () => {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await ${load};
  const { result } = await session.post('Profiler.takePreciseCoverage');
  console.log(JSON.stringify({ covered: result.filter((s) => s.url.includes(${JSON.stringify(DIST)}) || s.url.startsWith(${JSON.stringify(pathToFileURL(DIST).href)})).map((s) => [s.url, s.functions]) }));
})();
`, type) as { covered: Covered };
      return Object.assign({}, ...covered.map(([url, functions]) => ranByName(url.startsWith('file:') ? fileURLToPath(url) : url, functions))) as Record<string, number>;
    };
    const esm = atImport(`import(${JSON.stringify(pathToFileURL(path.join(DIST, 'index.js')).href)})`, 'module');
    const cjs = atImport(`require(${JSON.stringify(path.join(DIST, 'index.cjs'))})`, 'commonjs');
    // (The names are read right: matcherPool, the engine's, is made at import, once.)
    expect({ esm: esm.escapesRaw ?? 0, cjs: cjs.escapesRaw ?? 0, named: [esm.matcherPool, cjs.matcherPool] }).toEqual({ esm: 0, cjs: 0, named: [1, 1] });
  });

  it('the import makes no WebAssembly module; the first compile makes the core, once; a RobotsCache then crawls with its modules loaded (ESM)', () => {
    const index = pathToFileURL(path.join(DIST, 'index.js')).href;
    const got = run(`${COUNT_MODULES}
const { parse, RobotsCache } = await import(${JSON.stringify(index)});
const atImport = made.modules;
const body = 'User-agent: *\\nDisallow: /private/\\n';
const verdict = parse(body).compile('ExampleBot').isAllowed('https://example.com/private/x');
const afterFirst = made.modules;
parse(body, { profile: 'google' }).compile('ExampleBot').isAllowed('https://example.com/');
${CRAWL}
console.log(JSON.stringify({ atImport, afterFirst, afterMore: made.modules, verdict, crawled, status: entry.status, fromCopy: entry.robots.compile('ExampleBot').isAllowed('https://example.com/private/y'), bulk: made.exports.filter((e) => ${JSON.stringify(BULK_EXPORTS)}.includes(e)), pages: made.pages }));
`, 'module');
    // The library's core: no bulk classification (the command's), whose tables its start allocated (three pages more).
    expect(got).toEqual({ atImport: 0, afterFirst: 1, afterMore: 1, verdict: false, crawled: [false, true], status: 'ok', fromCopy: false, bulk: [], pages: [2] });
  });

  it('the library\'s core is the whole core but the command\'s bulk classification: every other export kept (the workerd build\'s robots.wasm, and the core require() makes)', () => {
    const exportsOf = (octets: Uint8Array<ArrayBuffer>) => WebAssembly.Module.exports(new WebAssembly.Module(octets)).map((e) => e.name).sort();
    const whole = exportsOf(readFileSync(WHOLE_CORE));
    expect(BULK_EXPORTS).toEqual(expect.arrayContaining(['auditWitnesses', 'classifyLines', 'lexRunGroupKeys']));
    expect(whole).toEqual(expect.arrayContaining(BULK_EXPORTS));
    const library = whole.filter((e) => !BULK_EXPORTS.includes(e));
    expect(exportsOf(readFileSync(path.join(DIST, 'workerd/robots.wasm')))).toEqual(library);
    const got = run(`${COUNT_MODULES}
const { parse } = require(${JSON.stringify(path.join(DIST, 'index.cjs'))});
parse('User-agent: *\\nDisallow: /x\\n').compile('ExampleBot').isAllowed('https://example.com/x');
console.log(JSON.stringify({ exports: made.exports, pages: made.pages }));
`, 'commonjs');
    expect(got).toEqual({ exports: library, pages: [2] });
  });

  it('require() reads one file of the package (dist/index.cjs, the engine\'s part whole), and a first verdict no other; the parts loaded later find the engine\'s modules there', () => {
    const index = path.join(DIST, 'index.cjs');
    const got = run(`
const robots = require(${JSON.stringify(index)});
const read = () => Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(DIST)})).map((f) => f.slice(${JSON.stringify(DIST)}.length)).sort();
const atImport = read();
const verdict = robots.parse('User-agent: *\\nDisallow: /private/\\n').compile('ExampleBot').isAllowed('https://example.com/private/x');
const own = robots.parse('User-agent: *\\nDisallow: /private/\\n').isAllowed('https://example.com/private/x', 'ExampleBot');
const afterVerdict = read();
const sitemaps = robots.parse('Sitemap: https://example.com/s.xml\\n').sitemaps;
const findings = robots.lint('User-agent: *\\nDisalow: /x\\n').findings.length > 0;
const why = robots.parse('User-agent: *\\nDisallow: /private/\\n').explainAll('https://example.com/private/x', 'ExampleBot').allowed;
console.log(JSON.stringify({ atImport, afterVerdict, verdict, own, sitemaps, findings, why, lintParts: read().filter((f) => !afterVerdict.includes(f)).every((f) => f.startsWith('cjs/')) }));
`, 'commonjs');
    expect(got).toEqual({ atImport: ['index.cjs'], afterVerdict: ['index.cjs'], verdict: false, own: false, sitemaps: ['https://example.com/s.xml'], findings: true, why: false, lintParts: true });
    // What a first verdict never runs is not in it (V8 compiles what a file holds): the records' reader and the hot
    // compile (records-layer.ts), and the RFC 9651 parser of use preferences (usage/structured-field.ts). (The
    // modules a file holds: its source map's.)
    const engine = sourcesOf(index, ROOT);
    expect(engine).toContain('src/engine/robots-txt.ts');
    expect(['src/engine/parse/records.ts', 'src/engine/compile/compile.ts', 'src/engine/usage/structured-field.ts'].filter((module) => engine.includes(module))).toEqual([]);
    // Each chunk the engine's part holds is in dist/index.cjs, not beside it as well: no file of dist/cjs/ repeats one.
    const engineChunks = readdirSync(path.join(DIST, 'cjs')).filter((f) => f.endsWith('.cjs') && sourcesOf(path.join(DIST, 'cjs', f), ROOT).includes('src/engine/wasm/core.ts'));
    expect(engineChunks).toEqual([]);
  });

  it('require() makes each exports object as one object of getters, not by esbuild\'s __export (Object.defineProperty of each export in a loop)', () => {
    const got = run(`
const define = Object.defineProperty;
let arrows = 0;
Object.defineProperty = function (target, key, descriptor) {
  // esbuild's __export defines each export's getter from an arrow function of its object, \`() => name\`.
  if (typeof descriptor?.get === 'function' && /^\\(\\)\\s*=>\\s*[\\w$.]+$/.test(descriptor.get.toString())) arrows++;
  return define(target, key, descriptor);
};
const robots = require(${JSON.stringify(path.join(DIST, 'index.cjs'))});
const afterRequire = arrows;
const verdict = robots.parse('User-agent: *\\nDisallow: /private/\\n').compile('ExampleBot', { coldOctets: 0 }).isAllowed('https://example.com/private/x');
const findings = robots.lint('User-agent: *\\nDisalow: /x\\n').findings.length > 0;
console.log(JSON.stringify({ afterRequire, afterMore: arrows, verdict, findings, names: Object.keys(robots).length, enumerable: Object.getOwnPropertyDescriptor(robots, 'parse').enumerable }));
`, 'commonjs');
    expect(got).toEqual({ afterRequire: 0, afterMore: 0, verdict: false, findings: true, names: Object.keys(require_(path.join(DIST, 'index.cjs'))).length, enumerable: true });
  });

  it('from CommonJS too: the core made on first use, and a RobotsCache loads its modules and crawls', () => {
    const index = path.join(DIST, 'index.cjs');
    const got = run(`${COUNT_MODULES}
const { parse, RobotsCache } = require(${JSON.stringify(index)});
const atImport = made.modules;
(async () => {
  const verdict = parse('User-agent: *\\nDisallow: /private/\\n').compile('ExampleBot').isAllowed('https://example.com/private/x');
  ${CRAWL}
  console.log(JSON.stringify({ atImport, afterFirst: made.modules, verdict, crawled, status: entry.status }));
})();
`, 'commonjs');
    expect(got).toEqual({ atImport: 0, afterFirst: 1, verdict: false, crawled: [false, true], status: 'ok' });
  });

  it('require() compiles the engine alone: the usage layer, the hot automaton, the operators\' data, the crawler\'s and lint\'s code load on first use, and share the engine (one core, one RobotsTxt)', async () => {
    const index = path.join(DIST, 'index.cjs');
    const esmNames = Object.keys(await import(pathToFileURL(path.join(DIST, 'index.js')).href)).sort();
    const got = run(`${COUNT_MODULES}
const { readFileSync } = require('node:fs');
const path = require('node:path');
/** Which parts' code the process has compiled: the modules of src/ that the package's files it has loaded hold (their source maps'). */
const compiled = () => {
  const files = Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(DIST)}));
  const sources = new Set(files.flatMap((f) => JSON.parse(readFileSync(f + '.map', 'utf8')).sources.map((s) => path.relative(${JSON.stringify(ROOT)}, path.resolve(path.dirname(f), s)))));
  return {
    usage: sources.has('src/engine/usage/usage-answers.ts') && sources.has('src/engine/explanation.ts'),
    operators: sources.has('src/data/operators.ts'),
    crawler: sources.has('src/crawler/robots-cache.ts'),
    lint: sources.has('src/engine/lint.ts'),
    automaton: sources.has('src/engine/match/determinise.ts'),
  };
};
const robots = require(${JSON.stringify(index)});
const atImport = compiled();
// An export is read through one getter (the module's own binding), not through a copy of the exports object.
const oneGetter = !Object.getOwnPropertyDescriptor(robots, 'parse').get.toString().includes('[');
const names = Object.keys(robots).sort();
const parsed = robots.parse('User-agent: *\\nDisallow: /private/\\n');
const verdict = parsed.compile('ExampleBot').isAllowed('https://example.com/private/x');
const afterVerdict = compiled();
const why = parsed.explainAll('https://example.com/private/x', 'ExampleBot').allowed;
const afterExplain = compiled();
const gptBot = robots.operatorById('openai').name;
const afterOperators = compiled();
const findings = robots.lint('User-agent: *\\nDisalow: /x\\n').findings.length;
const afterLint = compiled();
// A matcher that starts hot (no cold walk) builds its automaton: the trie, the determiniser, the states and tables.
const hot = parsed.compile('ExampleBot', { coldOctets: 0 });
const hotVerdicts = [hot.isAllowed('https://example.com/private/x'), hot.isAllowed('https://example.com/public')];
const afterHot = compiled();
(async () => {
  const { RobotsCache, RobotsTxt } = robots;
  ${CRAWL}
  console.log(JSON.stringify({ atImport, oneGetter, afterVerdict, why, afterExplain, gptBot, afterOperators, afterLint, hotVerdicts, afterHot, afterCrawl: compiled(), names, verdict, findings: findings > 0, crawled, sharesEngine: entry.robots instanceof RobotsTxt, cores: made.modules, sameExport: robots.RobotsCache === RobotsCache }));
})();
`, 'commonjs');
    expect(got).toEqual({
      atImport: { usage: false, operators: false, crawler: false, lint: false, automaton: false },
      oneGetter: true,
      afterVerdict: { usage: false, operators: false, crawler: false, lint: false, automaton: false },
      why: false,
      afterExplain: { usage: true, operators: true, crawler: false, lint: false, automaton: false },
      gptBot: 'OpenAI',
      afterOperators: { usage: true, operators: true, crawler: false, lint: false, automaton: false },
      afterLint: { usage: true, operators: true, crawler: false, lint: true, automaton: false },
      hotVerdicts: [false, true],
      afterHot: { usage: true, operators: true, crawler: false, lint: true, automaton: true },
      afterCrawl: { usage: true, operators: true, crawler: true, lint: true, automaton: true },
      names: esmNames,
      verdict: false,
      findings: true,
      crawled: [false, true],
      sharesEngine: true,
      cores: 1,
      sameExport: true,
    });
  });

  it('Node\'s import of the package takes require()\'s build (dist/index.node.js): one core and one RobotsTxt with require(), the same exports, the crawler\'s and lint\'s parts loaded on first use through stand-ins', () => {
    const requireNames = Object.keys(require_(path.join(DIST, 'index.cjs'))).sort();
    const got = run(`${COUNT_MODULES}
import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(path.join(ROOT, 'package.json'))});
const loadedParts = () => Object.keys(require.cache).filter((f) => f.startsWith(${JSON.stringify(path.join(DIST, 'cjs'))})).map((f) => f.slice(f.lastIndexOf('/') + 1)).filter((f) => !f.startsWith('chunk-')).sort();
const resolved = import.meta.resolve('robots-wasm');
const robots = await import('robots-wasm');
const cjs = require('robots-wasm');
const atImport = loadedParts();
const names = Object.keys(robots).sort();
const verdict = robots.parse('User-agent: *\\nDisallow: /private/\\n').compile('ExampleBot').isAllowed('https://example.com/private/x');
const afterVerdict = loadedParts();
const findings = robots.lint('User-agent: *\\nDisalow: /x\\n').findings.length === cjs.lint('User-agent: *\\nDisalow: /x\\n').findings.length;
const afterLint = loadedParts();
const { RobotsCache } = robots;
${CRAWL}
class OwnCache extends RobotsCache {}
const own = new OwnCache({ agent: 'ExampleBot', userAgentHeader: 'ExampleBot/1.0', fetch: async () => new Response('', { status: 404 }) });
const afterCrawl = loadedParts();
// Each export is require()'s, or a stand-in for it (a part's function or class), or its value (a primitive).
const same = names.filter((n) => robots[n] === cjs[n]);
console.log(JSON.stringify({
  entry: resolved.slice(resolved.lastIndexOf('/') + 1), names, same, atImport, verdict, afterVerdict, findings, afterLint, crawled, afterCrawl,
  cores: made.modules, oneRobotsTxt: entry.robots instanceof cjs.RobotsTxt && entry.robots instanceof robots.RobotsTxt,
  caches: [cache instanceof cjs.RobotsCache, own instanceof robots.RobotsCache, own instanceof cjs.RobotsCache, await own.isAllowed('https://example.com/x')],
  stores: new robots.MemoryStore() instanceof cjs.MemoryStore,
}));
`, 'module');
    const standIns = ['MemoryStore', 'RobotsCache', 'fetchRobots', 'lint', 'responseStep'];
    expect(got).toEqual({
      entry: 'index.node.js',
      names: requireNames,
      same: requireNames.filter((n) => !standIns.includes(n)),
      atImport: ['operators.cjs'], // (its data is read at import: an ES module's exports are bound then)
      verdict: false,
      afterVerdict: ['operators.cjs'],
      findings: true,
      afterLint: ['lint.cjs', 'operators.cjs'],
      crawled: [false, true],
      afterCrawl: ['crawler.cjs', 'lint.cjs', 'operators.cjs'],
      cores: 1,
      oneRobotsTxt: true,
      caches: [true, true, true, true],
      stores: true,
    });
  });
});
