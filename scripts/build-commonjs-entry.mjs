// The package's CommonJS entry, dist/index.cjs, in parts: require() of the
// package loads the engine's part (src/exports/engine.ts: what a first verdict
// needs), the other parts of the surface (src/exports/operators.ts, crawler.ts,
// lint.ts) when one of their exports is first read, and the usage layer
// (src/engine/usage-layer.ts) when RobotsTxt first calls it, so that a fresh
// process compiles the JavaScript it uses and not the rest (V8's compile of the
// whole bundle was most of a cold start's import). The parts are an ES build
// split into chunks (the modules two parts share are in one chunk: one core,
// one RobotsTxt class), each file then made CommonJS: the engine's part is
// dist/index.cjs, the rest in dist/cjs/; the lazy parts' exports are getters on
// dist/index.cjs's, as an esbuild CommonJS bundle's exports are.
import { build, transform } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

/** The public surface's parts (src/index.ts exports them all). */
const PARTS = { engine: 'src/exports/engine.ts', operators: 'src/exports/operators.ts', crawler: 'src/exports/crawler.ts', lint: 'src/exports/lint.ts' };
/** The part require() loads with the package (as dist/index.cjs); the others load on first use. */
const EAGER = 'engine';
/** The usage layer, which src/engine/usage-layer-loader.ts requires here on first call. */
const USAGE_LAYER = { 'usage-layer': 'src/engine/usage-layer.ts' };
const OUT = 'dist/cjs';

/** In usage-layer-loader.ts's place: the layer required on first call. module.require, not require, which
 * esbuild would bundle; made relative to the CommonJS file the call lands in, below. */
const lazyUsageLayer = {
  name: 'lazy-usage-layer',
  setup(b) {
    b.onResolve({ filter: /\/usage-layer-loader\.js$/ }, () => ({ path: 'usage-layer-loader', namespace: 'lazy-usage-layer' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-usage-layer' }, () => ({
      contents: `let layer;\nexport const usageLayer = () => (layer ??= module.require("./usage-layer.js"));\n`,
    }));
  },
};

/** Writes dist/index.cjs and dist/cjs/; `options`: the library's esbuild options (platform, target, loaders, plugins). */
export async function buildCommonJsEntry(options) {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const result = await build({ ...options, format: 'esm', entryPoints: { ...PARTS, ...USAGE_LAYER }, outdir: OUT, splitting: true, chunkNames: 'chunk-[hash]', write: false, metafile: true, plugins: [...(options.plugins ?? []), lazyUsageLayer], logOverride: { 'commonjs-variable-in-esm': 'silent' } });
  /** Each export's part: { name: part }. */
  const partOf = {};
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    const part = Object.keys(PARTS).find((p) => out === `${OUT}/${p}.js`);
    if (part) for (const name of meta.exports) partOf[name] = part;
  }
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const eager = name === `${EAGER}.js`;
    const { code } = await transform(file.text, { sourcefile: name, format: 'cjs', platform: options.platform, target: options.target, logLevel: 'warning' });
    // The files' requires of one another (imports, and the usage layer's loader), made
    // requires of their CommonJS copies (from dist/ for the entry).
    const cjs = ownExports(code, name).replace(/require\("\.\/([^"]+)\.js"\)/g, (_, f) => `require("./${eager ? 'cjs/' : ''}${f}.cjs")`);
    if (eager) writeFileSync('dist/index.cjs', `${cjs}${lazyExports(partOf)}`);
    else writeFileSync(`${OUT}/${name.replace(/\.js$/, '.cjs')}`, cjs);
  }
}

/** A file's exports object is the one its exports' getters were put on, not esbuild's copy of it
 * (__toCommonJS, a getter over each getter): one getter a read, and no copy made at require(). */
function ownExports(code, file) {
  const exportsObject = /^module\.exports = __toCommonJS\((\w+)\);$/m;
  if (!exportsObject.test(code)) throw new Error(`${file}: esbuild's CommonJS exports line not found`);
  return code.replace(exportsObject, 'module.exports = __defProp($1, "__esModule", { value: true });');
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
