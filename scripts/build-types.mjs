// The type check of src/ and the public types of the package's entries, one
// file each (dist/<entry>.d.ts, and .d.cts for require), the internals left out
// (tsconfig.types.json strips @internal), from one compilation of src/: its
// diagnostics are the build's type check, and the declarations it emits
// (build/types/) are what dts-bundle-generator bundles an entry at a time, from
// declaration files alone. The bundles are then checked as its command line
// checks them (the libraries' types checked too), all in one program. (The check
// and the declarations were two compilations of src/, tsc's and the generator's:
// a third of a build's time.)
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const { generateDtsBundle } = require('dts-bundle-generator');
const { getCompilerOptions } = require('dts-bundle-generator/dist/get-compiler-options.js');
const { TypesUsageEvaluator } = require('dts-bundle-generator/dist/types-usage-evaluator.js');

// The generator keeps a declaration when an entry's export uses it: a search of its usage graph from the
// declaration, once for each of the entry's exports, that caches what it finds but not what it does not (a symbol
// left for being visited already may still reach the export), so the same parts of the graph were walked again and
// again: 7 CPU-s of a build's 45. A search that ends without finding has walked every symbol its start reaches, and
// none of them reaches the export either: cached so, its answers are the same and most searches stop at once.
const usedBy = TypesUsageEvaluator.prototype.isSymbolUsedBySymbolImpl;
TypesUsageEvaluator.prototype.isSymbolUsedBySymbol = function isSymbolUsedBySymbol(symbol, by) {
  const to = this.getActualSymbol(by);
  const visited = new Set();
  const used = usedBy.call(this, this.getActualSymbol(symbol), to, visited);
  if (!used) for (const s of visited) this.setUsageCacheValue(s, to, false);
  return used;
};

const CONFIG = 'tsconfig.types.json';
/** Where the compilation's declaration files go (src/'s tree), for the bundler to read. */
const DECLARATIONS = 'build/types';

const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };

/** Exits 1 with the diagnostics said, if there are any. */
function failOn(diagnostics) {
  if (diagnostics.length === 0) return;
  console.error(ts.formatDiagnostics(diagnostics, host).trim());
  process.exit(1);
}

/** Type-checks src/ and writes dist/<name>.d.ts and .d.cts for each entry ({ name: source }); exits 1 on a type error. */
export function buildTypes(entries) {
  const config = ts.getParsedCommandLineOfConfigFile(CONFIG, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => failOn([d]) });
  failOn(config.errors);
  const program = ts.createProgram(config.fileNames, config.options);
  failOn(ts.getPreEmitDiagnostics(program));
  rmSync(DECLARATIONS, { recursive: true, force: true });
  const src = path.resolve(config.options.rootDir);
  const emitted = program.emit(undefined, (file, text) => {
    const to = path.join(DECLARATIONS, path.relative(src, file));
    mkdirSync(path.dirname(to), { recursive: true });
    writeFileSync(to, text);
  }, undefined, true);
  failOn(emitted.diagnostics);
  const declarationOf = (source) => path.join(DECLARATIONS, path.relative('src', source)).replace(/\.ts$/, '.d.ts');
  const names = Object.keys(entries);
  const outFiles = names.map((name) => `dist/${name}.d.ts`);
  const bundles = generateDtsBundle(Object.values(entries).map((source) => ({ filePath: declarationOf(source), output: { noBanner: true } })), { preferredConfigPath: CONFIG });
  bundles.forEach((text, k) => writeFileSync(outFiles[k], text));
  const options = { ...getCompilerOptions(outFiles, CONFIG), skipLibCheck: false, declaration: true };
  failOn(ts.getPreEmitDiagnostics(ts.createProgram(outFiles, options)));
  for (const name of names) copyFileSync(`dist/${name}.d.ts`, `dist/${name}.d.cts`);
}
