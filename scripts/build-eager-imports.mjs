// Webpack's `/* webpackMode: "eager" */` before a dynamic import's specifier (src/crawler/crawler-modules.ts: the
// crawler's modules, which webpack then puts in the app's bundle, not in chunks of their own), kept in the
// library's minified bundles: esbuild's minifier drops every comment. Each such import's specifier is made a
// placeholder as long as the comment and the specifier together (an external path, which esbuild prints as it is),
// and the placeholder is then put back as the comment and the specifier: no character of the file moves, so its
// source map stays true.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const COMMENT = '/* webpackMode: "eager" */';
const PREFIX = 'robots-wasm-eager:';
/** The specifier esbuild prints in place of `"name"`: `"robots-wasm-eager:name___…"`, as long as `COMMENT"name"`. */
const placeholder = (name) => `${PREFIX}${name}`.padEnd(COMMENT.length + name.length, '_');
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** esbuild's plugin: a bare dynamic import written with the comment before its specifier is resolved to its placeholder. */
export const eagerImports = {
  name: 'eager-imports',
  setup(b) {
    const sources = new Map();
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      if (!sources.has(args.importer)) sources.set(args.importer, readFileSync(args.importer, 'utf8'));
      const written = new RegExp(`import\\(\\s*${escape(COMMENT)}\\s*(['"])${escape(args.path)}\\1\\s*\\)`);
      return written.test(sources.get(args.importer)) ? { path: placeholder(args.path), external: true } : undefined;
    });
  },
};

/** A bundle's text with each placeholder put back as the comment and its specifier (the same length). */
export function restoreEagerImports(text) {
  return text.replace(new RegExp(`"${escape(PREFIX)}([^"]+?)_*"`, 'g'), (whole, name) => {
    const restored = `${COMMENT}${JSON.stringify(name)}`;
    if (restored.length !== whole.length || whole.slice(1, -1) !== placeholder(name)) throw new Error(`${whole}: not a placeholder of build-eager-imports.mjs`);
    return restored;
  });
}

/** Writes a build's output files (esbuild's `write: false`), the bundles' placeholders put back. */
export function writeOutputs(result) {
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(file.path, /\.c?js$/.test(file.path) ? restoreEagerImports(file.text) : file.contents);
  }
}
