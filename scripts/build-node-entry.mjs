// Node's ES entry, dist/index.node.js: `import 'robots-wasm'` on Node (the
// package's `node` condition under `import`) gives require()'s build,
// dist/index.cjs, so that a Node process that imports and requires the package
// has one core and one RobotsTxt class, and an import loads the parts as
// require() does, on first use, where the ES build compiles its whole graph at
// import (docs/benchmarks.md, "Node's import over the CommonJS build"). Bundlers
// take the ES build (their `module` condition), which they bundle whole.
// An ES module's exports are bound at import, so each export of a part that
// require() loads on first use is, by its value here at build time:
// - a part's data (an object, an array): the part is read at import;
// - a primitive (MAX_REDIRECTS): its value, written into the entry;
// - a function or a class: a stand-in that loads its part on first use
//   (src/exports/stand-ins.ts).
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import path from 'node:path';

const ENTRY = 'dist/index.node.js';

/** Writes dist/index.node.js (and its source map); `options`: the library's esbuild options; `parts`: what
 * buildCommonJsEntry returned (each export's part, the part loaded with dist/index.cjs). */
export async function buildNodeEntry(options, { partOf, eager }) {
  const lib = createRequire(import.meta.url)(path.resolve('dist/index.cjs'));
  const names = Object.keys(partOf).sort();
  const isData = (v) => v !== null && typeof v === 'object';
  /** The parts read at import: the engine's (loaded with the file) and any part that exports data. */
  const atImport = new Set([eager, ...names.filter((n) => isData(lib[n])).map((n) => partOf[n])]);
  const lines = [];
  for (const name of names) {
    const value = lib[name];
    if (atImport.has(partOf[name])) lines.push(`export const ${name} = lib.${name};`);
    else if (typeof value === 'function') {
      const isClass = /^class\b/.test(Function.prototype.toString.call(value));
      lines.push(`export const ${name} = ${isClass ? 'standInClass' : 'standInFunction'}(${JSON.stringify(name)}, () => lib.${name});`);
    } else if (['number', 'string', 'boolean'].includes(typeof value)) lines.push(`export const ${name} = ${JSON.stringify(value)};`);
    else throw new Error(`${name}: an export of the ${partOf[name]} part that Node's ES entry cannot stand in for (${typeof value})`);
  }
  const contents = `import { createRequire } from 'node:module';
import { standInClass, standInFunction } from './src/exports/stand-ins.ts';
const lib = createRequire(import.meta.url)('./index.cjs');
${lines.join('\n')}
`;
  await build({
    ...options,
    plugins: [],
    stdin: { contents, resolveDir: process.cwd(), sourcefile: 'index.node.js', loader: 'js' },
    outfile: ENTRY,
    splitting: false,
  });
}
