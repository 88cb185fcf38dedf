// robots-wasm/compat/rfc and /google from the packed tarball, and the README's
// recipe for a library that depends on robots-parser (as Crawlee does) and
// calls it with two arguments: an npm `overrides` entry pointing robots-parser
// at a two-file package in the app's folder, which hands out
// robots-wasm/compat/rfc. Installed for real (`npm install --prefer-offline`;
// the registry only for what the npm cache lacks), then the dependant library
// run from CommonJS and ESM.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'robots-compat-entries-'));
const app = path.join(dir, 'app');

/** A child's output, waited for without blocking: an npm install run with spawnSync held the worker's event loop
 * 126 s beside other suites (load 20 on 2 cores), past vitest's one-minute RPC timeout ("Timeout calling
 * onTaskUpdate", an unhandled error that fails the run). */
function run(cmd: string, args: string[], cwd = app): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${cmd} ${args.join(' ')} exited ${String(error.code)}: ${stderr}${stdout}`));
      else resolve(stdout);
    });
  });
}

// "~" is "%7E" under rfc (RFC 3986 normalisation); google and robots-parser compare the octets.
const BODY = 'User-agent: *\\nDisallow: /~joe\\n';
const ASK = `('http://e.com/robots.txt', '${BODY}').isAllowed('http://e.com/%7Ejoe', 'FooBot')`;

let tarball = '';

beforeAll(async () => {
  // (--ignore-scripts: the package is built already; a prepack would build it again.)
  const packed = JSON.parse(await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], ROOT)) as { filename: string }[];
  tarball = path.join(dir, packed[0].filename);
  // A library that depends on robots-parser and calls it with two arguments, from CommonJS and ESM.
  const lib = path.join(dir, 'dep-lib');
  mkdirSync(lib);
  writeFileSync(path.join(lib, 'package.json'), JSON.stringify({ name: 'dep-lib', version: '1.0.0', exports: { require: './index.js', import: './index.mjs' }, dependencies: { 'robots-parser': '^3.0.1' } }));
  writeFileSync(path.join(lib, 'index.js'), `const robotsParser = require('robots-parser');\nmodule.exports = (url, body) => robotsParser(url, body);\n`);
  writeFileSync(path.join(lib, 'index.mjs'), `import robotsParser from 'robots-parser';\nexport default (url, body) => robotsParser(url, body);\n`);
  await run('npm', ['pack', '--pack-destination', dir], lib);
  mkdirSync(app);
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('robots-wasm/compat/rfc and /google', () => {
  // npm install (from the npm cache; longer when it reaches the registry) and tsc: 4 s on 2 loaded cores, 59 s at load
  // 20 (other suites and builds beside it); 180 s: a hang guard, not a clock.
  it('robots-parser\'s factory with that profile by default (a third argument still names one), from ESM, CommonJS and TypeScript', async () => {
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, dependencies: { 'robots-wasm': `file:${tarball}` } }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']);
    const program = (imp: (entry: string, name: string) => string) => `${imp('robots-wasm/compat/rfc', 'robotsParser')}
${imp('robots-wasm/compat/google', 'googleParser')}
${imp('robots-wasm/compat', 'plainParser')}
console.log(JSON.stringify([robotsParser${ASK}, googleParser${ASK}, plainParser${ASK},
  robotsParser('http://e.com/robots.txt', '${BODY}', { profile: 'google' }).isAllowed('http://e.com/%7Ejoe', 'FooBot')]));`;
    writeFileSync(path.join(app, 'entries.mjs'), program((e, name) => `import ${name}, { robotsParser as ${name}Named } from '${e}';\nif (${name}Named !== ${name}) throw new Error('${e}: no named export');`));
    writeFileSync(path.join(app, 'entries.cjs'), program((e, name) => `const ${name} = require('${e}');\nif (require('${e}').default !== ${name} || require('${e}').robotsParser !== ${name}) throw new Error('${e}: no default');`));
    for (const f of ['entries.mjs', 'entries.cjs']) expect((await run(process.execPath, [f])).trim(), f).toBe('[false,true,true,true]');
    writeFileSync(path.join(app, 'typed.mts'), `import robotsParser, { type Robot } from 'robots-wasm/compat/rfc';
import googleParser from 'robots-wasm/compat/google';
const r: Robot = robotsParser('https://example.com/robots.txt', '');
const g: Robot = googleParser('https://example.com/robots.txt', '', { profile: 'rfc' });
export const v: (boolean | undefined)[] = [r.isAllowed('https://example.com/', 'FooBot'), g.isAllowed('https://example.com/')];
`);
    writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [], lib: ['es2022', 'dom'] },
      files: ['typed.mts'],
    }));
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
  }, 180_000);

  it('the README\'s recipe: npm overrides point a dependency\'s robots-parser at robots-wasm/compat/rfc', async () => {
    // As the README writes it: the folder robots-parser-rfc/ (package.json and index.js) in the app.
    const shim = path.join(app, 'robots-parser-rfc');
    mkdirSync(shim, { recursive: true });
    writeFileSync(path.join(shim, 'package.json'), JSON.stringify({ name: 'robots-parser', version: '3.0.1', main: 'index.js', peerDependencies: { 'robots-wasm': '>=0.1.0' } }));
    writeFileSync(path.join(shim, 'index.js'), "module.exports = require('robots-wasm/compat/rfc');\n");
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({
      name: 'app',
      private: true,
      dependencies: { 'dep-lib': `file:${path.join(dir, 'dep-lib-1.0.0.tgz')}`, 'robots-wasm': `file:${tarball}` },
      overrides: { 'robots-parser': 'file:./robots-parser-rfc' },
    }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']);
    expect(await run('npm', ['ls', 'robots-parser'])).toMatch(/robots-parser@3\.0\.1 -> \.\/robots-parser-rfc/);
    // The library's robots-parser is the shim, and its answers are rfc's (robots-parser's and google's: true).
    const resolved = (await run(process.execPath, ['-e', "console.log(require.resolve('robots-parser', { paths: [require.resolve('dep-lib')] }))"])).trim();
    expect(realpathSync(resolved)).toBe(realpathSync(path.join(shim, 'index.js')));
    writeFileSync(path.join(app, 'use.cjs'), `console.log(JSON.stringify(require('dep-lib')${ASK}));`);
    writeFileSync(path.join(app, 'use.mjs'), `import lib from 'dep-lib';\nconsole.log(JSON.stringify(lib${ASK}));`);
    for (const f of ['use.cjs', 'use.mjs']) expect((await run(process.execPath, [f])).trim(), f).toBe('false');
  });
});
