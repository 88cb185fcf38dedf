// The package's CommonJS entry, dist/index.cjs, in parts: require() of the
// package loads the engine's part (src/exports/engine.ts: what a first verdict
// needs), the other parts of the surface (src/exports/operators.ts, crawler.ts,
// lint.ts) when one of their exports is first read, the usage layer
// (src/engine/usage-layer.ts) and the records and hot compile
// (src/engine/records-layer.ts) when RobotsTxt first calls them and the hot
// automaton (src/engine/match/automaton.ts) when a matcher first turns hot, so that a fresh
// process compiles the JavaScript it uses and not the rest (V8's compile of the
// whole bundle was most of a cold start's import). The parts are an ES build
// split into chunks (the modules two parts share are in one chunk: one core,
// one RobotsTxt class), each file then made CommonJS: the engine's part, with
// the chunks it requires, is dist/index.cjs (one file for require() to read:
// each file was a share of a cold start), the rest in dist/cjs/; the lazy
// parts' exports are getters on dist/index.cjs's, as an esbuild CommonJS
// bundle's exports are. Each file minified last (as the ES bundles are, when the
// options say `minify`), with its source map beside it: the maps of each stage
// (the ES build, its CommonJS copy, the files put together, the minified file)
// chained by esbuild, so that a stack trace maps to src/ (node --enable-source-maps).
import { build, transform } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { restoreEagerImports } from './build-eager-imports.mjs';

/** The public surface's parts (src/index.ts exports them all). */
const PARTS = { engine: 'src/exports/engine.ts', operators: 'src/exports/operators.ts', crawler: 'src/exports/crawler.ts', lint: 'src/exports/lint.ts' };
/** The part require() loads with the package (as dist/index.cjs); the others load on first use. */
const EAGER = 'engine';
/** The engine's modules that require() loads on first call, each through its loader (src/engine/usage-layer-loader.ts,
 * src/engine/records-layer-loader.ts, src/engine/match/automaton-loader.ts): the usage layer, the records and the hot
 * compile, and the hot automaton. { name: [module, its loader's export] } */
const LAZY = {
  'usage-layer': ['src/engine/usage-layer.ts', 'usageLayer'],
  'records-layer': ['src/engine/records-layer.ts', 'recordsLayer'],
  automaton: ['src/engine/match/automaton.ts', 'automaton'],
};
const OUT = 'dist/cjs';

/** In each loader's place (<name>-loader.js): the module required on first call. module.require, not require, which
 * esbuild would bundle; made relative to the CommonJS file the call lands in, below. */
const lazyModules = {
  name: 'lazy-modules',
  setup(b) {
    for (const [name, [, loader]] of Object.entries(LAZY)) {
      b.onResolve({ filter: new RegExp(`/${name}-loader\\.js$`) }, () => ({ path: name, namespace: 'lazy-modules' }));
      b.onLoad({ filter: new RegExp(`^${name}$`), namespace: 'lazy-modules' }, () => ({
        contents: `let loaded;\nexport const ${loader} = () => (loaded ??= module.require("./${name}.js"));\n`,
      }));
    }
  },
};

/** Writes dist/index.cjs and dist/cjs/ (and their source maps); `options`: the library's esbuild options (platform,
 * target, loaders, plugins, minify). The ES build and its CommonJS copies are not minified: the edits below read
 * esbuild's plain output. Returns each export's part ({ name: part }) and the part loaded with dist/index.cjs. */
export async function buildCommonJsEntry(options) {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const result = await build({ ...options, minify: false, sourcemap: 'external', format: 'esm', entryPoints: { ...PARTS, ...Object.fromEntries(Object.entries(LAZY).map(([name, [file]]) => [name, file])) }, outdir: OUT, splitting: true, chunkNames: 'chunk-[hash]', write: false, metafile: true, plugins: [...(options.plugins ?? []), lazyModules], logOverride: { 'commonjs-variable-in-esm': 'silent' } });
  /** Each output's source map (its sources relative to dist/cjs/), by the output's path. */
  const mapOf = new Map(result.outputFiles.filter((f) => f.path.endsWith('.map')).map((f) => [f.path.slice(0, -'.map'.length), f.text]));
  /** Each export's part: { name: part }. */
  const partOf = {};
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    const part = Object.keys(PARTS).find((p) => out === `${OUT}/${p}.js`);
    if (part) for (const name of meta.exports) partOf[name] = part;
  }
  /** Each output's CommonJS code and its source map, by name (engine, chunk-XXXX, …). */
  const code = new Map();
  const maps = new Map();
  for (const file of result.outputFiles) {
    if (file.path.endsWith('.map')) continue;
    const name = file.path.slice(file.path.lastIndexOf('/') + 1).replace(/\.js$/, '');
    const cjs = await transform(withMap(file.text, mapOf.get(file.path)), { sourcefile: `${name}.js`, format: 'cjs', platform: options.platform, target: options.target, sourcemap: 'external', logLevel: 'warning' });
    code.set(name, sameLines(cjs.code, literalExports(ownExports(cjs.code, name), name, !(name in PARTS)), name));
    maps.set(name, JSON.parse(cjs.map));
    if (cjs.code.includes(CHUNK)) throw new Error(`${name}: ${CHUNK}, the name dist/index.cjs runs its chunks by, is a name of the code`);
  }
  // The chunks the engine's part requires, and those they require: in dist/index.cjs with it.
  const inlined = new Set();
  const visit = (name) => {
    for (const [, chunk] of code.get(name).matchAll(/require\("\.\/(chunk-[^"]+)\.js"\)/g)) {
      if (inlined.has(chunk)) continue;
      inlined.add(chunk);
      visit(chunk);
    }
  };
  visit(EAGER);
  // The files' requires of one another (imports, and the lazy modules' loaders), made
  // requires of their CommonJS copies, or of dist/index.cjs's copy of a chunk it holds.
  const requires = (text, inIndex) => text.replace(/((?:module\.)?require)\("\.\/([^"]+)\.js"\)/g, (_, call, f) => {
    if (!inlined.has(f)) return `${call}("./${inIndex ? 'cjs/' : ''}${f}.cjs")`;
    return inIndex ? `${CHUNK}(${JSON.stringify(f)})` : `require("../index.cjs")[Symbol.for("${CHUNK_KEY}")](${JSON.stringify(f)})`;
  });
  for (const [name, text] of code) {
    if (name !== EAGER && !inlined.has(name)) await writeFile(`${OUT}/${name}.cjs`, sameLines(text, requires(text, false), name), maps.get(name), options);
  }
  const chunks = [...inlined].map((chunk) => ({ name: chunk, text: sameLines(code.get(chunk), requires(code.get(chunk), true), chunk), map: maps.get(chunk) }));
  const engine = { text: sameLines(code.get(EAGER), requires(code.get(EAGER), true), EAGER), map: maps.get(EAGER) };
  // The maps of the parts, each at its line in the file (an index map), their sources made relative to dist/.
  const { text, sections } = engineFile(engine, chunks, partOf);
  const relocated = sections.map(({ line, map }) => ({ offset: { line, column: 0 }, map: { ...map, sources: map.sources.map((s) => path.posix.relative('dist', path.posix.join(OUT, s))) } }));
  await writeFile('dist/index.cjs', text, { version: 3, sections: relocated }, options);
  return { partOf, eager: EAGER };
}

/** Code with its source map inline, for esbuild to chain to the map of what it makes of it. */
function withMap(text, map) {
  return `${text}\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(typeof map === 'string' ? map : JSON.stringify(map)).toString('base64')}\n`;
}

/** An edit of a file's code that keeps each line where it was (so its source map stays true), or the build fails. */
function sameLines(before, after, file) {
  if (before.split('\n').length !== after.split('\n').length) throw new Error(`${file}: an edit moved its lines (its source map would be wrong)`);
  return after;
}

/** Writes a CommonJS file and its map (file.map, linked from the file): minified if `options.minify`. Node's
 * import of dist/index.cjs reads its exports' names from the line that names them at its end (cjs-module-lexer),
 * which a minifier drops as dead code: it is put back after the minified code. */
async function writeFile(file, text, map, options) {
  const names = [...text.matchAll(/^0 && \(module\.exports = \{[^}]*\}\);$/gm)].pop()?.[0]; // (the file's: its last)
  const out = await transform(withMap(text, map), { sourcefile: path.basename(file), format: 'cjs', platform: options.platform, target: options.target, minify: options.minify, sourcemap: 'external', sourcesContent: options.sourcesContent, logLevel: 'warning' });
  writeFileSync(file, `${restoreEagerImports(out.code)}${names && !out.code.includes(names) ? `${names}\n` : ''}//# sourceMappingURL=${path.basename(file)}.map\n`);
  writeFileSync(`${file}.map`, out.map);
}

/** The name dist/index.cjs runs a chunk it holds by, and the key the other parts find that function at. */
const CHUNK = 'robotsWasmChunk';
const CHUNK_KEY = 'robots-wasm.chunk';

/** dist/index.cjs: the engine's part and the chunks it requires in one file (one file to find, read and compile
 * at require(), not five), each chunk a function run on its first require, as require() runs a file; the other
 * parts' exports as getters. Each chunk's function is in parentheses, which V8 takes as a sign to compile it with
 * the file (every one runs at require()), not to pre-parse it and parse it again when it is first called (esbuild's
 * minifier keeps them). The file's text, and each part's source map with the line the part starts at. */
function engineFile(engine, chunks, partOf) {
  const head = `// The chunks of the engine's part (modules the other parts share with it), each run on its first
// require, once: the other parts (dist/cjs/) require them here, through ${CHUNK_KEY}.
const ${CHUNK}s = new Map();
function ${CHUNK}(name) {
  let chunk = ${CHUNK}s.get(name);
  if (chunk === undefined) {
    chunk = { exports: {}, require: (id) => module.require(id) };
    ${CHUNK}s.set(name, chunk);
    ${CHUNK}Code[name](chunk, chunk.exports);
  }
  return chunk.exports;
}
const ${CHUNK}Code = {
`;
  let text = head;
  const sections = [];
  /** Appends a part's code; its map, at the line the part starts at. */
  const add = (code, map) => {
    sections.push({ line: text.split('\n').length - 1, map });
    text += code;
  };
  for (const chunk of chunks) {
    text += `${JSON.stringify(chunk.name)}: (function (module, exports) {\n`;
    add(chunk.text, chunk.map);
    text += '}),\n';
  }
  text += '};\n';
  add(engine.text, engine.map);
  text += `Object.defineProperty(module.exports, Symbol.for("${CHUNK_KEY}"), { value: ${CHUNK} });\n${lazyExports(partOf)}`;
  return { text, sections };
}

/** A file's exports object is the one its exports' getters were put on, not esbuild's copy of it
 * (__toCommonJS, a getter over each getter): one getter a read, and no copy made at require(). */
function ownExports(code, file) {
  const exportsObject = /^module\.exports = __toCommonJS\((\w+)\);$/m;
  if (!exportsObject.test(code)) throw new Error(`${file}: esbuild's CommonJS exports line not found`);
  return code.replace(exportsObject, 'module.exports = __defProp($1, "__esModule", { value: true });');
}

/** A file's exports object made as one object literal of getters (`{ get a() { return a; } }`), not by esbuild's
 * __export, which defines each getter with Object.defineProperty in a loop over an object of arrow functions: the
 * same getters (live bindings, enumerable), made at require() for a fraction of the time (docs/benchmarks.md).
 * In a file that is not a part of the public surface (a chunk, a lazy module: what the parts call across files),
 * a binding that is never assigned after its declaration is a plain property: a function declaration (`{ a: a }`,
 * its value hoisted), a variable whose value is a number (`{ A: 4 }`, the layout's offsets and flags, worked out
 * here when written as an expression of numbers), or any other such variable (a class, a table) once its
 * declaration has run: its getter puts the property in its own place on the first read that finds it set. Through
 * a getter, each read of one in another module was a call, on every call of the engine's modules into one another
 * and every offset read in their loops (docs/benchmarks.md, "Node's import over the CommonJS build"). */
function literalExports(code, file, internal) {
  const exportsCall = /^var (\w+) = \{\};\n__export\(\1, \{\n((?: {2}[\w$]+: \(\) => [\w$.]+,?\n)*)\}\);\n/m;
  /** The property for a binding that is never assigned after its declaration (see above), or undefined (a getter). */
  const fixedProperty = (name, local) => {
    if (!internal || !/^[\w$]+$/.test(local)) return undefined;
    const id = local.replace(/\$/g, '\\$');
    const assignments = code.match(new RegExp(`(?<![\\w$.])${id}\\s*(?:[-+*/%&|^]|\\*\\*|<<|>>>?|&&|\\|\\||\\?\\?)?=(?![=>])`, 'g')) ?? [];
    if (new RegExp(`^(?:async )?function\\*? ${id}\\(`, 'm').test(code)) return assignments.length === 0 ? `  ${name}: ${local}` : undefined;
    const declared = new RegExp(`^var ${id} = (.*);$`, 'm').exec(code);
    if (declared === null || assignments.length !== 1) return undefined; // (1: the declaration's own =)
    // A number, or an expression of numbers alone (`1 << 15`), worked out: its value written in.
    const numbers = /0x[\da-fA-F]+|\d+(?:\.\d+)?(?:e[-+]?\d+)?/g;
    if (numbers.test(declared[1]) && /^[-+*/%&|^~<>()\s]*$/.test(declared[1].replace(numbers, ''))) {
      return `  ${name}: ${JSON.stringify(Function(`return (${declared[1]});`)())}`;
    }
    return `  get ${name}() { if (${local} !== void 0) Object.defineProperty(this, ${JSON.stringify(name)}, { value: ${local}, enumerable: true }); return ${local}; }`;
  };
  const made = code.replace(exportsCall, (_, object, entries) => {
    const getters = entries.trimEnd().split('\n').map((line) => line.replace(/^ {2}([\w$]+): \(\) => ([\w$.]+),?$/, (_, name, local) => fixedProperty(name, local) ?? `  get ${name}() { return ${local}; }`));
    return `var ${object} = {\n\n${getters.join(',\n')}\n};\n`; // (a line left empty: the lines after stay where they were)
  });
  if (/^__export\(/m.test(made)) throw new Error(`${file}: an __export call of a form this script does not make into getters`);
  return made;
}

/** The end of dist/index.cjs: the other parts' exports, each part required when one of them is first read. */
function lazyExports(partOf) {
  const names = Object.keys(partOf).sort();
  const lazy = Object.keys(PARTS).filter((p) => p !== EAGER);
  return `// The ${lazy.join(', ')} parts of the package, required when one of their exports is first read.
${lazy
  .map((p) => `let lazy_${p}_part;
const lazy_${p} = () => (lazy_${p}_part ??= require("./cjs/${p}.cjs"));
for (const name of ${JSON.stringify(names.filter((n) => partOf[n] === p))}) Object.defineProperty(module.exports, name, { enumerable: true, get: () => lazy_${p}()[name] });`)
  .join('\n')}
// Every export's name, for Node's import of this file (cjs-module-lexer reads them here).
0 && (module.exports = { ${names.join(', ')} });
`;
}
