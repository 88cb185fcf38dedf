// The audit's modules bundled from a checkout's src/ (the command bundles them
// into dist/cli.js), for the audit's tools (audit-rate.mjs, audit-instructions.mjs)
// to run this checkout's audit and another's side by side.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/** Bundles the audit's modules of the checkout at `from` into DIR/NAME.mjs (the modules resolved from `root`'s node_modules); gives its path. */
export async function auditBundle(from, dir, name, root) {
  const entry = path.join(dir, `${name}.ts`);
  writeFileSync(entry, [
    `export { readRobotsIndexes } from ${JSON.stringify(path.join(from, 'src/bulk/index/robots-index-reader.ts'))};`,
    `export { captureSites } from ${JSON.stringify(path.join(from, 'src/bulk/audit/audit-sites.ts'))};`,
    `export { SiteAuditor } from ${JSON.stringify(path.join(from, 'src/bulk/audit/site-audit.ts'))};`,
    `export { readAuditRecords } from ${JSON.stringify(path.join(from, 'src/bulk/audit/audit-records.ts'))};`,
    `export { lexBatches } from ${JSON.stringify(path.join(from, 'src/engine/parse/lexer.ts'))};`,
  ].join('\n'));
  const bundle = path.join(dir, `${name}.mjs`);
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', target: 'node20', outfile: bundle, loader: { '.wasm': 'base64' }, logLevel: 'warning', define: { VERSION: '"bench"' }, nodePaths: [path.join(root, 'node_modules')] });
  return bundle;
}
