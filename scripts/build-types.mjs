// The public types of the package's entries, one file each (dist/<entry>.d.ts,
// and .d.cts for require), the internals left out (tsconfig.types.json strips
// @internal): dts-bundle-generator's API, all entries from one compilation of
// src/, then checked as its command line checks them (the libraries' types
// checked too), all in one program. Its command line, run once an entry,
// compiled src/ and the libraries' types five times and checked five times:
// most of a build's time.
import { copyFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const { generateDtsBundle } = require('dts-bundle-generator');
const { getCompilerOptions } = require('dts-bundle-generator/dist/get-compiler-options.js');

const CONFIG = 'tsconfig.types.json';

/** Writes dist/<name>.d.ts and .d.cts for each entry ({ name: source }); exits 1 on a type error in them. */
export function buildTypes(entries) {
  const names = Object.keys(entries);
  const outFiles = names.map((name) => `dist/${name}.d.ts`);
  const bundles = generateDtsBundle(Object.values(entries).map((filePath) => ({ filePath, output: { noBanner: true } })), { preferredConfigPath: CONFIG });
  bundles.forEach((text, k) => writeFileSync(outFiles[k], text));
  const options = { ...getCompilerOptions(outFiles, CONFIG), skipLibCheck: false, declaration: true };
  const diagnostics = ts.getPreEmitDiagnostics(ts.createProgram(outFiles, options));
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: ts.sys.getCurrentDirectory, getNewLine: () => ts.sys.newLine };
    console.error(ts.formatDiagnostics(diagnostics, host).trim());
    process.exit(1);
  }
  for (const name of names) copyFileSync(`dist/${name}.d.ts`, `dist/${name}.d.cts`);
}
