// This engine (google profile) measured as the native drivers are: in a process of its own,
// by ../peers/robots-wasm-driver.mjs behind their --bench protocol (../peers/external.mjs), in
// the workloads timed in rounds with them (parse, first-verdict). The robots-wasm rows run in
// the bench's process beside the JavaScript engines; this row is the like-for-like comparison
// with the native parsers, every engine alone in its process (docs/benchmarks.md "This engine
// in its own process").
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { externalAdapter } from '../peers/external.mjs';

const DRIVER = fileURLToPath(new URL('../peers/robots-wasm-driver.mjs', import.meta.url));

export async function load() {
  const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  const adapter = externalAdapter({
    id: 'wasm-google-own',
    label: 'robots-wasm google (own process)',
    library: 'robots-wasm',
    version,
    command: [process.execPath, DRIVER, '--profile', 'google', '--clock', 'wall'],
    cpuCommand: [process.execPath, DRIVER, '--profile', 'google', '--clock', 'thread'],
    note: 'own process, as the native drivers: Node, the package\'s compile(), timed in its main thread\'s CPU time',
  });
  return [{ ...adapter, measures: ['parse', 'first-verdict'] }];
}
