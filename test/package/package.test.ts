// The package as a user gets it: `npm pack`, the tarball installed in a fresh
// folder, then used from ESM, CommonJS, TypeScript (skipLibCheck off), a Node
// bundle made with esbuild, browser bundles (esbuild, Vite, webpack) in Deno, Bun,
// headless Chromium and Node without Buffer, a worker in Cloudflare's workerd,
// and `npx robots-wasm`. What the tarball holds is
// checked too: the library, its types, the command, the license; nothing of
// the tests, the sources or the CLI's internals.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, startRobotsServe, startServer } from '../helpers/http-servers.js';
import { freePort, SKIP_REDIS, startRedis } from '../helpers/redis-server.js';
import { HAVE_SHARED, readJson, vectorBody, type Vector } from '../helpers/shared-data.js';
import { launchChromium } from '../helpers/headless-chromium.js';
import type { Browser } from 'puppeteer-core';
import webpack, { type Stats } from 'webpack';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const dir = mkdtempSync(path.join(tmpdir(), 'robots-package-'));
const app = path.join(dir, 'app');
let files: string[] = [];

const BODY = 'User-agent: FooBot\\nDisallow: /private\\n';
/** One check every consumer runs: a verdict, a line, and rfc's normalisation. */
const PROGRAM = (imp: string) => `${imp}
const r = parse('${BODY}');
const out = [r.isAllowed('https://example.com/private/x', 'FooBot'), r.explain('/private', 'FooBot').line, r.isAllowed('/%70rivate', 'FooBot')];
console.log(JSON.stringify(out));`;
const EXPECTED = '[false,2,false]';

// Not spawnSync: a run of minutes on a busy machine (npm, tsc, vite) would hold the worker's event loop,
// and vitest gives up on a worker that does not answer for a minute.
async function run(cmd: string, args: string[], cwd = app): Promise<string> {
  const r = await exited(cmd, args, cwd);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A child's exit status (null: killed, or not started) and output, waited for without blocking. */
function exited(cmd: string, args: string[], cwd = app): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, encoding: 'utf8', timeout: 240_000, maxBuffer: 64 << 20, env: { ...process.env, npm_config_update_notifier: 'false' } }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/** The suite's one Chromium, launched by the first script run in it (a page each script: launches are the cost). */
let browser: Browser | undefined;

/** Runs a script in headless Chromium (from npm: @sparticuz/chromium, driven by
 * puppeteer-core) on a blank page of its own: what it logged, and its errors. */
async function inChromium(script: string, type: 'module' | 'classic'): Promise<{ logs: string[]; errors: string[] }> {
  browser ??= await launchChromium();
  const page = await browser.newPage();
  try {
    const logs: string[] = [];
    const errors: string[] = [];
    page.on('console', (m) => (m.type() === 'error' ? errors : logs).push(m.text()));
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setContent('<!doctype html><title>robots-wasm</title>');
    await page.addScriptTag({ content: script, type: type === 'module' ? 'module' : undefined });
    // Up to 50 s for the page's first line: a hang guard, not a clock (a busy machine starts Chromium's wasm slowly).
    for (let t = 0; logs.length === 0 && errors.length === 0 && t < 1000; t++) await new Promise((r) => setTimeout(r, 50));
    return { logs, errors };
  } finally {
    await page.close();
  }
}

/** The TypeScript files of the tests that type-check the package as an app without Node's types does (nodenext, ESM
 * and CommonJS, skipLibCheck off): a test's files and what they should find, by name. */
const TYPED: Record<string, string> = (() => {
  const typed = `import { parse, productToken, type Verdict, RobotsCache, DisposedError } from 'robots-wasm';
const v: Verdict = parse('${BODY}', { profile: 'google' }).explain('/private', productToken('FooBot/1.0'));
const n: number = v.line;
const c = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0' });
export { n, c, DisposedError };
`;
  return {
    'typed.mts': typed,
    'typed.cts': typed.replace(/^import (.*) from 'robots-wasm';/, "import $1 from 'robots-wasm';"),
    'typed-compat.mts': `import robotsParser, { type Robot } from 'robots-wasm/compat';
const r: Robot = robotsParser('https://example.com/robots.txt', '', { profile: 'rfc' });
const v: boolean | undefined = r.isAllowed('https://example.com/', 'FooBot');
export { v };
`,
  };
})();
let typedRun: Promise<{ status: number | null; stdout: string; stderr: string }> | undefined;

/** tsc's errors for the files named (of TYPED), and those of no file of TYPED. The tests whose programs take the same
 * options share one tsc run over all of TYPED (a start of TypeScript and a check of its DOM and ES libraries each, ~3.5
 * CPU-s, saved): each file is a module, and the package's declarations declare nothing global (checked here), so no
 * file of the program sees another's declarations: each file's errors are those of its own program, and an error of
 * the package's declarations fails every test that shares the run. */
async function typeErrors(files: string[]): Promise<string[]> {
  typedRun ??= (async () => {
    const dist = path.join(app, 'node_modules/robots-wasm/dist');
    for (const f of readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f))) expect(readFileSync(path.join(dist, f), 'utf8'), f).not.toMatch(/declare global|declare module|\/\/\/ *<reference/);
    for (const [f, text] of Object.entries(TYPED)) writeFileSync(path.join(app, f), text);
    writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [], lib: ['es2022', 'dom'] },
      files: Object.keys(TYPED),
    }));
    return exited(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false']);
  })();
  const r = await typedRun;
  // One diagnostic a line (`file(line,col): error TS…`), its message's further lines indented.
  const diagnostics = `${r.stdout}${r.stderr}`.split(/\n(?! )/).filter((d) => d.trim() !== '');
  if (r.status !== 0 && diagnostics.length === 0) return [`tsc exited ${r.status}`];
  const others = Object.keys(TYPED).filter((f) => !files.includes(f));
  return diagnostics.filter((d) => !others.some((f) => d.startsWith(`${f}(`)));
}

/** How many verdicts the conformance program checks (conformance.mjs, written by beforeAll). */
let CHECKS = 0;

/** The app's conformance program: every conformance vector's verdict under both
 * profiles (isAllowed, checkMany, and a hot matcher's verdict and explain), from
 * robots-wasm as a bundler resolves it. The vectors travel inside the app (a
 * browser or a worker reads no files): Google's value under `google`, the RFC's
 * under `rfc`. conformance-check.mjs holds the check, conformance.mjs exports
 * conformance() (the check on the bundled vectors); portable.mjs logs its result. */
function writeConformanceApp(): void {
  const vectors = HAVE_SHARED
    ? readJson<Vector[]>('conformance/verdicts.json').map((v) => ({ b64: Buffer.from(vectorBody(v)).toString('base64'), agents: v.agents, url: v.url, google: v.google_allowed ?? v.allowed, rfc: v.source === 'rfc' && v.id !== 'rfc/2.2.2-fig4-encoding/3' ? v.allowed : null }))
    : [{ b64: Buffer.from('User-agent: FooBot\nDisallow: /private\n').toString('base64'), agents: ['FooBot'], url: 'https://e.com/private/x', google: false, rfc: false }];
  writeFileSync(path.join(app, 'vectors.json'), JSON.stringify(vectors));
  CHECKS = vectors.reduce((n, v) => n + 1 + (v.rfc === null ? 0 : 1), 0);
  // The check itself, apart, so that Node's programs (below) run it with the package as Node resolves it.
  writeFileSync(path.join(app, 'conformance-check.mjs'), `// Every vector under both profiles: isAllowed, checkMany (it encodes its batch without Buffer where
// there is none), and a hot matcher's verdict and explain (the records and the hot compile).
export function conformanceOf(vectors, parse, bytes) {
  let checked = 0;
  const wrong = [];
  for (const v of vectors) {
    for (const profile of ['google', 'rfc']) {
      const want = v[profile];
      if (want === null) continue;
      const robots = parse(bytes(v.b64), { profile, maxBytes: Infinity });
      const cold = robots.compile(v.agents);
      const hot = robots.compile(v.agents, { coldOctets: 0 });
      const got = [robots.isAllowed(v.url, v.agents), cold.checkMany([v.url, v.url])[1] === 1, hot.isAllowed(v.url), hot.explain(v.url).allowed];
      cold.dispose();
      hot.dispose();
      checked++;
      if (got.some((g) => g !== want)) wrong.push([profile, v.url, got, want]);
    }
  }
  return { checked, wrong, buffer: typeof globalThis.Buffer };
}
`);
  writeFileSync(path.join(app, 'conformance.mjs'), `import { parse } from 'robots-wasm';
import vectors from './vectors.json';
import { conformanceOf } from './conformance-check.mjs';
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
export const conformance = () => conformanceOf(vectors, parse, bytes);
`);
  writeFileSync(path.join(app, 'portable.mjs'), `import { conformance } from './conformance.mjs';
console.log(JSON.stringify(conformance()));
`);
}

beforeAll(async () => {
  const packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', dir], ROOT)) as { filename: string; files: { path: string }[] }[];
  files = packed[0].files.map((f) => f.path);
  writeFileSync(path.join(dir, 'package.json'), '{}');
  await run('mkdir', ['-p', app], dir);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  // (--prefer-offline, here and for redis: the npm cache's copies without asking the registry whether they are the
  // latest, the registry only for what the cache lacks.)
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', path.join(dir, packed[0].filename)]);
  writeConformanceApp();
}, 180_000);
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds the library, its types, the command and the license, and no sources, tests or CLI internals', async () => {
    for (const f of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/cli.js']) {
      expect(files, f).toContain(f);
    }
    for (const entry of ['compat', 'compat-rfc', 'compat-google', 'redis']) for (const ext of ['js', 'cjs', 'd.ts', 'd.cts']) expect(files).toContain(`dist/${entry}.${ext}`);
    // workerd's build (the `workerd` condition): its entries, their shared chunk and the core beside them.
    for (const f of ['dist/workerd/index.js', 'dist/workerd/compat.js', 'dist/workerd/compat-rfc.js', 'dist/workerd/compat-google.js', 'dist/workerd/robots.wasm']) expect(files).toContain(f);
    for (const f of ['index.html', 'style.css', 'app.js', 'worker.js']) expect(files).toContain(`dist/web/${f}`);
    expect(files.filter((f) => /^dist\/workerd\/chunks\/[^/]+\.js$/.test(f)).length).toBeGreaterThan(0);
    // The command's chunks (each command's code, imported when it runs) beside dist/cli.js.
    expect(files.filter((f) => /^dist\/cli-[^/]+\.js$/.test(f)).length).toBeGreaterThan(0);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('assembly/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/') && f.endsWith('.d.ts')).sort()).toEqual(['dist/compat-google.d.ts', 'dist/compat-rfc.d.ts', 'dist/compat.d.ts', 'dist/index.d.ts', 'dist/redis.d.ts']);
  });

  it('installs only what the library needs (the command carries its own dependencies)', async () => {
    const installed = readdirSync(path.join(app, 'node_modules')).filter((n) => !n.startsWith('.')).sort();
    expect(installed).toEqual(['fflate', 'http-cache-semantics', 'robots-wasm']);
  });

  it('works from ESM', async () => {
    writeFileSync(path.join(app, 'esm.mjs'), PROGRAM("import { parse } from 'robots-wasm';"));
    expect((await run(process.execPath, ['esm.mjs'])).trim()).toBe(EXPECTED);
  });

  it('works from CommonJS', async () => {
    writeFileSync(path.join(app, 'cjs.cjs'), PROGRAM("const { parse } = require('robots-wasm');"));
    expect((await run(process.execPath, ['cjs.cjs'])).trim()).toBe(EXPECTED);
  });

  it('gives the conformance vectors\' verdicts on Node by import (dist/index.node.js, over require()\'s build) and by require()', async () => {
    // conformance-check.mjs with the package as Node resolves it, the vectors read from their file.
    const program = (load: string) => `${load}
const vectors = JSON.parse(readFileSync(${JSON.stringify(path.join(app, 'vectors.json'))}, 'utf8'));
const { conformanceOf } = await import('./conformance-check.mjs');
console.log(JSON.stringify({ ...conformanceOf(vectors, parse, (b64) => Buffer.from(b64, 'base64')), entry: ENTRY }));`;
    writeFileSync(path.join(app, 'node-conformance.mjs'), program("import { parse } from 'robots-wasm';\nimport { readFileSync } from 'node:fs';\nconst ENTRY = import.meta.resolve('robots-wasm').split('/').pop();"));
    writeFileSync(path.join(app, 'node-conformance.cjs'), `(async () => {\n${program("const { parse } = require('robots-wasm');\nconst { readFileSync } = require('node:fs');\nconst ENTRY = require.resolve('robots-wasm').split('/').pop();")}\n})();`);
    for (const [file, entry] of [['node-conformance.mjs', 'index.node.js'], ['node-conformance.cjs', 'index.cjs']]) {
      expect(JSON.parse((await run(process.execPath, [file])).trim()), file).toEqual({ checked: CHECKS, wrong: [], buffer: 'function', entry });
    }
  });

  it('maps a stack trace to the sources under node --enable-source-maps (the bundles are minified; each ships its map), ESM and CommonJS; the error keeps its class and name', async () => {
    // Every library file that links a source map ships it.
    const linked = files.filter((f) => f.startsWith('dist/') && /\.c?js$/.test(f) && /\/\/# sourceMappingURL=(\S+)\s*$/.test(readFileSync(path.join(app, 'node_modules/robots-wasm', f), 'utf8')));
    expect(linked).toEqual(expect.arrayContaining(['dist/index.js', 'dist/index.cjs', 'dist/compat.cjs', 'dist/workerd/index.js']));
    expect(linked.filter((f) => !files.includes(`${f}.map`))).toEqual([]);
    const disposed = `const m = parse('${BODY}').compile('FooBot');
m.dispose();
try { m.isAllowed('/private'); } catch (e) { console.log(JSON.stringify({ name: e.name, own: e instanceof DisposedError, at: e.stack.split('\\n')[1].trim() })); }`;
    writeFileSync(path.join(app, 'trace.mjs'), `import { parse, DisposedError } from 'robots-wasm';\n${disposed}`);
    writeFileSync(path.join(app, 'trace.cjs'), `const { parse, DisposedError } = require('robots-wasm');\n${disposed}`);
    for (const file of ['trace.mjs', 'trace.cjs']) {
      const got = JSON.parse(await run(process.execPath, ['--enable-source-maps', file])) as { name: string; own: boolean; at: string };
      expect({ file, name: got.name, own: got.own }).toEqual({ file, name: 'DisposedError', own: true });
      expect(got.at).toMatch(/\(.*\/node_modules\/robots-wasm\/src\/engine\/match\/matcher\.ts:\d+:\d+\)$/);
    }
  });

  it('type-checks from TypeScript with skipLibCheck off, ESM and CommonJS', async () => {
    expect(await typeErrors(['typed.mts', 'typed.cts'])).toEqual([]);
  });

  it('bundles into a Node app with esbuild, which runs from anywhere', async () => {
    writeFileSync(path.join(app, 'bundled.mjs'), PROGRAM("import { parse } from 'robots-wasm';"));
    const out = path.join(dir, 'elsewhere', 'bundle.mjs');
    await run(path.join(ROOT, 'node_modules/.bin/esbuild'), ['bundled.mjs', '--bundle', '--platform=node', '--format=esm', `--outfile=${out}`]);
    expect(readdirSync(path.dirname(out))).toEqual(['bundle.mjs']); // nothing to copy beside it
    expect((await run(process.execPath, [out], dir)).trim()).toBe(EXPECTED);
  });

  // Node twice and tsc, on the installed package: 8 s on 2 cores loaded by other runs; 60 s for a margin.
  it('robots-wasm/compat: robots-parser\'s API by a one-line import change, from ESM, CommonJS and TypeScript', async () => {
    const program = `const robots = robotsParser('https://example.com/robots.txt', 'User-agent: FooBot\\nDisallow: /private\\nCrawl-delay: 2\\n');
console.log(JSON.stringify([robots.isAllowed('https://example.com/private/x', 'FooBot/1.0'), robots.isAllowed('https://other.example/x', 'FooBot'), robots.getMatchingLineNumber('https://example.com/private', 'FooBot'), robots.getCrawlDelay('FooBot')]));`;
    writeFileSync(path.join(app, 'compat.mjs'), `import robotsParser from 'robots-wasm/compat';\n${program}`);
    writeFileSync(path.join(app, 'compat.cjs'), `const robotsParser = require('robots-wasm/compat');\nif (require('robots-wasm/compat').default !== robotsParser) throw new Error('no default');\n${program}`);
    for (const f of ['compat.mjs', 'compat.cjs']) expect((await run(process.execPath, [f])).trim(), f).toBe('[false,null,2,2]');
    expect(await typeErrors(['typed-compat.mts'])).toEqual([]);
  }, 60_000);

  it('robots-wasm/redis: with redis installed beside it, from ESM and CommonJS (a shared fetch on a real redis-server), and typed', async () => {
    // The store's client is an optional peer dependency: the user installs it.
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', 'redis@^6']);
    const redis = SKIP_REDIS ? undefined : await startRedis();
    try {
      const http = await startServer(serve('User-agent: *\nDisallow: /private\n'));
      const program = (imp: string) => `${imp}
const url = process.argv[2];
// With a server, its waits are hang guards: the first calls wait for the connection, which a loaded machine makes
// slow (at 100 ms the caches fetched on their own at load 17); without one, the port refuses at once.
const store = url ? new RedisStore({ url, connectTimeoutMs: 30000, commandTimeoutMs: 30000 }) : new RedisStore({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 100 });
const caches = [0, 1].map(() => new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', store }));
const verdicts = [];
for (const c of caches) verdicts.push(await c.isAllowed('${http.origin}/private/x'), await c.isAllowed('${http.origin}/public'));
console.log(JSON.stringify([verdicts, caches.map((c) => c.stats.fetches)]));
await store.close();`;
      writeFileSync(path.join(app, 'redis.mjs'), program("import { RobotsCache } from 'robots-wasm';\nimport { RedisStore } from 'robots-wasm/redis';"));
      writeFileSync(path.join(app, 'redis.cjs'), `(async () => {\n${program("const { RobotsCache } = require('robots-wasm');\nconst { RedisStore } = require('robots-wasm/redis');")}\n})();`);
      // Without a server the caches fetch on their own; with one, the second takes the first's fetch.
      const expected = JSON.stringify([[false, true, false, true], redis ? [1, 0] : [1, 1]]);
      // Not spawnSync: the HTTP server answers from this process's event loop.
      for (const f of ['redis.mjs', 'redis.cjs']) {
        await redis?.command('FLUSHALL');
        const { stdout } = await execFileAsync(process.execPath, redis ? [f, redis.url] : [f], { cwd: app, timeout: 60_000 });
        expect(stdout.trim(), f).toBe(expected);
      }
      await http.close();
      const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
      writeFileSync(path.join(app, 'typed-redis.mts'), `import { RobotsCache, type RobotsStore, type StoreEvent } from 'robots-wasm';
import { RedisStore, RECORD_FORMAT } from 'robots-wasm/redis';
const store: RobotsStore = new RedisStore({ url: 'redis://127.0.0.1:6379', prefix: 'crawl:' });
const c = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0', store, onStoreEvent: (e: StoreEvent) => console.log(e.type) });
export { c, RECORD_FORMAT };
`);
      writeFileSync(path.join(app, 'tsconfig-redis.json'), JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], lib: ['es2022', 'dom'], typeRoots: [path.join(ROOT, 'node_modules/@types')] },
        files: ['typed-redis.mts'],
      }));
      await run(process.execPath, [tsc, '-p', 'tsconfig-redis.json']);
    } finally {
      await redis?.stop();
    }
  }, 180_000);

  it('bundles for the browser with esbuild (no plugin, no node: import), and the bundle gives the conformance vectors\' verdicts in Deno (no permissions), Bun, headless Chromium and a runtime without Buffer', async () => {
    const out = path.join(dir, 'browser', 'portable.js');
    await run(path.join(ROOT, 'node_modules/.bin/esbuild'), ['portable.mjs', '--bundle', '--platform=browser', '--format=esm', `--outfile=${out}`]);
    expect(readFileSync(out, 'utf8')).not.toMatch(/from\s*["']node:|require\(["']node:/);
    const expected = CHECKS;
    // Deno from npm (a devDependency, its binary in a platform package): no permission given.
    const deno = JSON.parse((await run(path.join(ROOT, 'node_modules/.bin/deno'), ['run', '--no-prompt', out], dir)).trim());
    expect(deno).toEqual({ checked: expected, wrong: [], buffer: 'function' });
    // Bun from npm too (a devDependency): the bundle, and the package as Bun imports it.
    const bun = path.join(ROOT, 'node_modules/.bin/bun');
    expect(JSON.parse((await run(bun, ['run', out], dir)).trim())).toEqual({ checked: expected, wrong: [], buffer: 'function' });
    writeFileSync(path.join(app, 'bun.mjs'), PROGRAM("import { parse } from 'robots-wasm';"));
    expect((await run(bun, ['run', 'bun.mjs'])).trim()).toBe(EXPECTED);
    // A real browser: headless Chromium, the bundle as a module script.
    const { logs, errors } = await inChromium(readFileSync(out, 'utf8'), 'module');
    expect(errors).toEqual([]);
    expect(JSON.parse(logs[0])).toEqual({ checked: expected, wrong: [], buffer: 'undefined' });
    // A runtime without Buffer (as a browser): Node with it removed before the bundle loads.
    const bare = JSON.parse((await run(process.execPath, ['--input-type=module', '-e', `delete globalThis.Buffer; await import(${JSON.stringify(out)});`], dir)).trim());
    expect(bare).toEqual({ checked: expected, wrong: [], buffer: 'undefined' });
  }, 120_000);

  it('runs in Cloudflare\'s workerd: a worker bundled as wrangler bundles it (the `workerd` condition, the core a .wasm module beside it, no node: import, no embedded core) gives the conformance vectors\' verdicts, robots-wasm/compat sharing its core; typed through the condition', async () => {
    writeFileSync(path.join(app, 'worker.mjs'), `import { conformance } from './conformance.mjs';
import robotsParser from 'robots-wasm/compat';
// What the octets-embedding build would meet: workerd compiles no WASM from octets.
function compileOctets() {
  try {
    new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
    return 'compiled';
  } catch (e) {
    return String(e);
  }
}
export default {
  async fetch() {
    const robots = robotsParser('https://example.com/robots.txt', 'User-agent: FooBot\\nDisallow: /private\\n');
    return Response.json({ ...conformance(), compat: robots.isAllowed('https://example.com/private/x', 'FooBot/1.0'), octets: compileOctets() });
  },
};
`);
    // As wrangler bundles a worker: its conditions and main fields, and a .wasm
    // import kept as a module of the worker (esbuild's copy loader puts it beside the bundle).
    const out = path.join(dir, 'workerd');
    await run(path.join(ROOT, 'node_modules/.bin/esbuild'), ['worker.mjs', '--bundle', '--format=esm', '--platform=neutral', '--conditions=workerd,worker,browser',
      '--main-fields=browser,module,main', '--loader:.wasm=copy', '--asset-names=[name]', `--outfile=${path.join(out, 'worker.js')}`]);
    expect(readdirSync(out).sort()).toEqual(['robots.wasm', 'worker.js']);
    const core = readFileSync(path.join(app, 'node_modules/robots-wasm/dist/workerd/robots.wasm'));
    expect(readFileSync(path.join(out, 'robots.wasm')).equals(core)).toBe(true);
    const js = readFileSync(path.join(out, 'worker.js'), 'utf8');
    expect(js).not.toMatch(/from\s*["']node:|require\(["']node:/);
    expect(js.match(/^import \w+ from "\.\/robots\.wasm";$/gm)).toHaveLength(1); // one core for both entries
    expect(js).not.toContain(core.toString('base64').slice(0, 200));
    // workerd from npm (a devDependency, its binary in a platform package), with
    // two workers of that bundle: without Buffer (so checkMany writes its batches
    // with a loop), and with nodejs_compat's Buffer (newer compatibility dates have it too).
    const workerd = createRequire(import.meta.url)('workerd') as { default: string; compatibilityDate: string };
    const workers = { bare: { date: '2025-09-15', flags: [] as string[], buffer: 'undefined' }, node: { date: workerd.compatibilityDate, flags: ['nodejs_compat'], buffer: 'function' } };
    const ports = { bare: await freePort(), node: await freePort() };
    const names = Object.keys(workers) as (keyof typeof workers)[];
    writeFileSync(path.join(out, 'config.capnp'), `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [${names.map((n) => `(name = "${n}", worker = .${n})`).join(', ')}],
  sockets = [${names.map((n) => `(name = "${n}", address = "127.0.0.1:${ports[n]}", http = (), service = "${n}")`).join(', ')}],
);
${names.map((n) => `const ${n} :Workerd.Worker = (
  modules = [
    (name = "worker.js", esModule = embed "worker.js"),
    (name = "robots.wasm", wasm = embed "robots.wasm"),
  ],
  compatibilityDate = "${workers[n].date}",
  compatibilityFlags = ${JSON.stringify(workers[n].flags)},
);`).join('\n')}
`);
    const child = spawn(workerd.default, ['serve', 'config.capnp'], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      for (const n of names) {
        let res: Response | undefined;
        for (const deadline = Date.now() + 20_000; res === undefined;) {
          if (child.exitCode !== null || child.signalCode !== null) throw new Error(`workerd exited (${child.exitCode ?? child.signalCode}): ${output}`);
          if (Date.now() > deadline) throw new Error(`workerd did not answer on port ${ports[n]}: ${output}`);
          res = await fetch(`http://127.0.0.1:${ports[n]}/`).catch(() => new Promise<undefined>((r) => setTimeout(r, 50)));
        }
        const text = await res.text();
        expect(res.status, text + output).toBe(200);
        expect(JSON.parse(text), n).toEqual({ checked: CHECKS, wrong: [], buffer: workers[n].buffer, compat: false, octets: expect.stringMatching(/disallowed by embedder/) });
      }
    } finally {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    // TypeScript resolving through the condition gets the same declarations.
    writeFileSync(path.join(app, 'typed-worker.ts'), `import { parse, type Verdict } from 'robots-wasm';
import robotsParser, { type Robot } from 'robots-wasm/compat';
const v: Verdict = parse('${BODY}').explain('/private', 'FooBot');
const r: Robot = robotsParser('https://example.com/robots.txt', '');
export { v, r };
`);
    writeFileSync(path.join(app, 'tsconfig-worker.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: 'esnext', moduleResolution: 'bundler', customConditions: ['workerd', 'worker', 'browser'], target: 'es2022', types: [], lib: ['es2022', 'dom'] },
      files: ['typed-worker.ts'],
    }));
    await run(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig-worker.json']);
  }, 60_000);

  it('bundles with Vite (vite build of a page, no config or plugin; the core embedded, no node: import), and the page\'s script gives the conformance vectors\' verdicts in headless Chromium', async () => {
    writeFileSync(path.join(app, 'index.html'), '<!doctype html><title>robots-wasm</title><script type="module" src="./portable.mjs"></script>\n');
    await run(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', 'vite-dist', '--logLevel', 'warn']);
    const assets = readdirSync(path.join(app, 'vite-dist/assets'));
    expect(assets).toEqual([expect.stringMatching(/^index-[\w-]+\.js$/)]); // no .wasm to serve beside it
    const js = readFileSync(path.join(app, 'vite-dist/assets', assets[0]), 'utf8');
    expect(js).not.toMatch(/from\s*["']node:|require\(["']node:/);
    expect(js).toContain(readFileSync(path.join(app, 'node_modules/robots-wasm/dist/workerd/robots.wasm')).toString('base64').slice(0, 200));
    expect(readFileSync(path.join(app, 'vite-dist/index.html'), 'utf8')).toContain(`/assets/${assets[0]}`);
    const { logs, errors } = await inChromium(js, 'module');
    expect(errors).toEqual([]);
    expect(JSON.parse(logs[0])).toEqual({ checked: CHECKS, wrong: [], buffer: 'undefined' });
  }, 60_000);

  // webpack minifies the bundle (its core inlined) in this process, which a loaded machine makes slow: its limit is a
  // hang guard, not a clock.
  it('bundles with webpack 5 (entry, output, mode and target only: no loader or plugin for the WASM; the core embedded, no node: import), and the bundle gives the conformance vectors\' verdicts in headless Chromium and a runtime without Buffer', async () => {
    const outDir = path.join(dir, 'webpack');
    const stats = await new Promise<Stats>((resolve, reject) => {
      webpack({ entry: path.join(app, 'portable.mjs'), output: { path: outDir, filename: 'main.js' }, mode: 'production', target: 'web' }, (err, s) => (err ? reject(err) : resolve(s!)));
    });
    expect(stats.hasErrors(), stats.toString('errors-only')).toBe(false);
    expect(readdirSync(outDir)).toEqual(['main.js']); // no .wasm to serve beside it
    const out = path.join(outDir, 'main.js');
    const js = readFileSync(out, 'utf8');
    expect(js).not.toMatch(/from\s*["']node:|require\(["']node:/);
    expect(js).toContain(readFileSync(path.join(app, 'node_modules/robots-wasm/dist/workerd/robots.wasm')).toString('base64').slice(0, 200));
    const { logs, errors } = await inChromium(js, 'classic');
    expect(errors).toEqual([]);
    expect(JSON.parse(logs[0])).toEqual({ checked: CHECKS, wrong: [], buffer: 'undefined' });
    const bare = JSON.parse((await run(process.execPath, ['--input-type=module', '-e', `delete globalThis.Buffer; await import(${JSON.stringify(out)});`], dir)).trim());
    expect(bare).toEqual({ checked: CHECKS, wrong: [], buffer: 'undefined' });
  }, 240_000);

  it('runs its command as npx robots-wasm', async () => {
    expect(await run('npx', ['--no-install', 'robots-wasm', '--help'])).toMatch(/^Usage: robots/);
    writeFileSync(path.join(app, 'robots.txt'), BODY.replace('\\n', '\n').replace('\\n', '\n'));
    const r = await exited('npx', ['--no-install', 'robots-wasm', 'check', 'robots.txt', 'FooBot', 'https://example.com/private']);
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^disallowed\t2\t/);
  });

  // The command carries its Parquet libraries (hyparquet, hyparquet-writer, fzstd: none is installed beside it).
  it('writes a Parquet file and reads it back as a URL list with the installed command', async () => {
    writeFileSync(path.join(app, 'foo-robots.txt'), 'User-agent: FooBot\nDisallow: /private\n');
    writeFileSync(path.join(app, 'urls.txt'), 'https://example.com/private\nhttps://example.com/public\n');
    const bin = path.join(app, 'node_modules/.bin/robots-wasm');
    const robots = ['classify', '-q', '--robots', 'foo-robots.txt', '--agent', 'FooBot'];
    await run(bin, [...robots, '--format', 'parquet', '--out', 'v.parquet', 'urls.txt']);
    expect(readFileSync(path.join(app, 'v.parquet')).subarray(0, 4).toString('latin1')).toBe('PAR1');
    const back = ['classify', '-q', '--robots', 'foo-robots.txt', '--crawlers', 'FooBot', '--urls-parquet', 'v.parquet', '--pass-columns', 'allowed,line'];
    expect(await run(bin, back)).toBe('url\tFooBot\tallowed\tline\nhttps://example.com/private\tdisallowed\tfalse\t2\nhttps://example.com/public\tallowed\ttrue\t0\n');
  });

  it('serves the tester page from the installed package (its robots-wasm bin: serve)', async () => {
    // The bin itself, not npx: a signal reaches the server, and no server outlives the test.
    const { child, origin } = await startRobotsServe(path.join(app, 'node_modules/.bin/robots-wasm'), [], app);
    try {
      expect(await (await fetch(origin)).text()).toMatch(/<textarea id="robots"/);
      for (const f of ['app.js', 'worker.js', 'style.css']) expect((await fetch(`${origin}/${f}`)).status, f).toBe(200);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
