// The package as a user gets it: `npm pack`, the tarball installed in a fresh
// folder, then used from ESM, CommonJS, TypeScript (skipLibCheck off), a Node
// bundle made with esbuild, and `npx robots-wasm`. What the tarball holds is
// checked too: the library, its types, the command, the license; nothing of
// the tests, the sources or the CLI's internals.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, startServer } from './http-servers.js';
import { SKIP_REDIS, startRedis } from './redis-server.js';
import { HAVE_SHARED, readJson, vectorBody, type Vector } from './shared-data.js';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
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

function run(cmd: string, args: string[], cwd = app): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

beforeAll(() => {
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', dir], ROOT)) as { filename: string; files: { path: string }[] }[];
  files = packed[0].files.map((f) => f.path);
  writeFileSync(path.join(dir, 'package.json'), '{}');
  run('mkdir', ['-p', app], dir);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true }));
  run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', path.join(dir, packed[0].filename)]);
}, 180_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the packed tarball', () => {
  it('holds the library, its types, the command and the license, and no sources, tests or CLI internals', () => {
    for (const f of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.cjs', 'dist/index.d.ts', 'dist/index.d.cts', 'dist/cli.js']) {
      expect(files, f).toContain(f);
    }
    for (const entry of ['compat', 'redis']) for (const ext of ['js', 'cjs', 'd.ts', 'd.cts']) expect(files).toContain(`dist/${entry}.${ext}`);
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('test/') || f.startsWith('assembly/'))).toEqual([]);
    expect(files.filter((f) => f.startsWith('dist/') && f.endsWith('.d.ts')).sort()).toEqual(['dist/compat.d.ts', 'dist/index.d.ts', 'dist/redis.d.ts']);
  });

  it('installs only what the library needs (the command carries its own dependencies)', () => {
    const installed = readdirSync(path.join(app, 'node_modules')).filter((n) => !n.startsWith('.')).sort();
    expect(installed).toEqual(['@assemblyscript', 'http-cache-semantics', 'robots-wasm']);
  });

  it('works from ESM', () => {
    writeFileSync(path.join(app, 'esm.mjs'), PROGRAM("import { parse } from 'robots-wasm';"));
    expect(run(process.execPath, ['esm.mjs']).trim()).toBe(EXPECTED);
  });

  it('works from CommonJS', () => {
    writeFileSync(path.join(app, 'cjs.cjs'), PROGRAM("const { parse } = require('robots-wasm');"));
    expect(run(process.execPath, ['cjs.cjs']).trim()).toBe(EXPECTED);
  });

  it('type-checks from TypeScript with skipLibCheck off, ESM and CommonJS', () => {
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const typed = `import { parse, productToken, type Verdict, RobotsCache, DisposedError } from 'robots-wasm';
const v: Verdict = parse('${BODY}', { profile: 'google' }).explain('/private', productToken('FooBot/1.0'));
const n: number = v.line;
const c = new RobotsCache({ agent: 'FooBot', userAgentHeader: 'FooBot/1.0' });
export { n, c, DisposedError };
`;
    writeFileSync(path.join(app, 'typed.mts'), typed);
    writeFileSync(path.join(app, 'typed.cts'), typed.replace(/^import (.*) from 'robots-wasm';/, "import $1 from 'robots-wasm';"));
    writeFileSync(path.join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [], lib: ['es2022', 'dom'] },
      files: ['typed.mts', 'typed.cts'],
    }));
    run(process.execPath, [tsc, '-p', 'tsconfig.json']);
  });

  it('bundles into a Node app with esbuild, which runs from anywhere', () => {
    writeFileSync(path.join(app, 'bundled.mjs'), PROGRAM("import { parse } from 'robots-wasm';"));
    const out = path.join(dir, 'elsewhere', 'bundle.mjs');
    execFileSync(path.join(ROOT, 'node_modules/.bin/esbuild'), ['bundled.mjs', '--bundle', '--platform=node', '--format=esm', `--outfile=${out}`], { cwd: app, stdio: 'pipe' });
    expect(readdirSync(path.dirname(out))).toEqual(['bundle.mjs']); // nothing to copy beside it
    expect(run(process.execPath, [out], dir).trim()).toBe(EXPECTED);
  });

  it('robots-wasm/compat: robots-parser\'s API by a one-line import change, from ESM, CommonJS and TypeScript', () => {
    const program = `const robots = robotsParser('https://example.com/robots.txt', 'User-agent: FooBot\\nDisallow: /private\\nCrawl-delay: 2\\n');
console.log(JSON.stringify([robots.isAllowed('https://example.com/private/x', 'FooBot/1.0'), robots.isAllowed('https://other.example/x', 'FooBot'), robots.getMatchingLineNumber('https://example.com/private', 'FooBot'), robots.getCrawlDelay('FooBot')]));`;
    writeFileSync(path.join(app, 'compat.mjs'), `import robotsParser from 'robots-wasm/compat';\n${program}`);
    writeFileSync(path.join(app, 'compat.cjs'), `const robotsParser = require('robots-wasm/compat');\nif (require('robots-wasm/compat').default !== robotsParser) throw new Error('no default');\n${program}`);
    for (const f of ['compat.mjs', 'compat.cjs']) expect(run(process.execPath, [f]).trim(), f).toBe('[false,null,2,2]');
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    writeFileSync(path.join(app, 'typed-compat.mts'), `import robotsParser, { type Robot } from 'robots-wasm/compat';
const r: Robot = robotsParser('https://example.com/robots.txt', '', { profile: 'rfc' });
const v: boolean | undefined = r.isAllowed('https://example.com/', 'FooBot');
export { v };
`);
    writeFileSync(path.join(app, 'tsconfig-compat.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [], lib: ['es2022', 'dom'] },
      files: ['typed-compat.mts'],
    }));
    run(process.execPath, [tsc, '-p', 'tsconfig-compat.json']);
  });

  it('robots-wasm/redis: with redis installed beside it, from ESM and CommonJS (a shared fetch on a real redis-server), and typed', async () => {
    // The store's client is an optional peer dependency: the user installs it.
    run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', 'redis@^6']);
    const redis = SKIP_REDIS ? undefined : await startRedis();
    try {
      const http = await startServer(serve('User-agent: *\nDisallow: /private\n'));
      const program = (imp: string) => `${imp}
const url = process.argv[2];
const store = new RedisStore({ url: url ?? 'redis://127.0.0.1:1', connectTimeoutMs: 100 });
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
      run(process.execPath, [tsc, '-p', 'tsconfig-redis.json']);
    } finally {
      await redis?.stop();
    }
  }, 180_000);

  it('bundles for the browser with esbuild (no plugin, no node: import), and the bundle gives the conformance vectors\' verdicts in Deno (no permissions), Bun, headless Chromium and a runtime without Buffer', async () => {
    // The vectors travel inside the app (a browser reads no files): Google's value under `google`, the RFC's under `rfc`.
    const vectors = HAVE_SHARED
      ? readJson<Vector[]>('conformance/verdicts.json').map((v) => ({ b64: Buffer.from(vectorBody(v)).toString('base64'), agents: v.agents, url: v.url, google: v.google_allowed ?? v.allowed, rfc: v.source === 'rfc' && v.id !== 'rfc/2.2.2-fig4-encoding/3' ? v.allowed : null }))
      : [{ b64: Buffer.from('User-agent: FooBot\nDisallow: /private\n').toString('base64'), agents: ['FooBot'], url: 'https://e.com/private/x', google: false, rfc: false }];
    writeFileSync(path.join(app, 'vectors.json'), JSON.stringify(vectors));
    writeFileSync(path.join(app, 'portable.mjs'), `import { parse } from 'robots-wasm';
import vectors from './vectors.json';
const bytes = (b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
let checked = 0;
const wrong = [];
for (const v of vectors) {
  for (const profile of ['google', 'rfc']) {
    const want = v[profile];
    if (want === null) continue;
    const robots = parse(bytes(v.b64), { profile, maxBytes: Infinity });
    const m = robots.compile(v.agents);
    // checkMany too: it encodes its batch without Buffer where there is none.
    const got = [robots.isAllowed(v.url, v.agents), m.checkMany([v.url, v.url])[1] === 1];
    m.dispose();
    checked++;
    if (got[0] !== want || got[1] !== want) wrong.push([profile, v.url, got, want]);
  }
}
console.log(JSON.stringify({ checked, wrong, buffer: typeof globalThis.Buffer }));
`);
    const out = path.join(dir, 'browser', 'portable.js');
    execFileSync(path.join(ROOT, 'node_modules/.bin/esbuild'), ['portable.mjs', '--bundle', '--platform=browser', '--format=esm', `--outfile=${out}`], { cwd: app, stdio: 'pipe' });
    expect(readFileSync(out, 'utf8')).not.toMatch(/from\s*["']node:|require\(["']node:/);
    const expected = vectors.reduce((n, v) => n + 1 + (v.rfc === null ? 0 : 1), 0);
    // Deno from npm (a devDependency, its binary in a platform package): no permission given.
    const deno = JSON.parse(run(path.join(ROOT, 'node_modules/.bin/deno'), ['run', '--no-prompt', out], dir).trim());
    expect(deno).toEqual({ checked: expected, wrong: [], buffer: 'function' });
    // Bun from npm too (a devDependency): the bundle, and the package as Bun imports it.
    const bun = path.join(ROOT, 'node_modules/.bin/bun');
    expect(JSON.parse(run(bun, ['run', out], dir).trim())).toEqual({ checked: expected, wrong: [], buffer: 'function' });
    writeFileSync(path.join(app, 'bun.mjs'), PROGRAM("import { parse } from 'robots-wasm';"));
    expect(run(bun, ['run', 'bun.mjs']).trim()).toBe(EXPECTED);
    // A real browser: headless Chromium from npm (@sparticuz/chromium, driven by puppeteer-core), the bundle as a module script.
    const executablePath = await chromium.executablePath();
    const browser = await puppeteer.launch({ executablePath, args: chromium.args, headless: true });
    try {
      const page = await browser.newPage();
      const logs: string[] = [];
      const errors: string[] = [];
      page.on('console', (m) => (m.type() === 'error' ? errors : logs).push(m.text()));
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.setContent('<!doctype html><title>robots-wasm</title>');
      await page.addScriptTag({ content: readFileSync(out, 'utf8'), type: 'module' });
      for (let t = 0; logs.length === 0 && errors.length === 0 && t < 200; t++) await new Promise((r) => setTimeout(r, 50));
      expect(errors).toEqual([]);
      expect(JSON.parse(logs[0])).toEqual({ checked: expected, wrong: [], buffer: 'undefined' });
    } finally {
      await browser.close();
    }
    // A runtime without Buffer (as a browser): Node with it removed before the bundle loads.
    const bare = JSON.parse(run(process.execPath, ['--input-type=module', '-e', `delete globalThis.Buffer; await import(${JSON.stringify(out)});`], dir).trim());
    expect(bare).toEqual({ checked: expected, wrong: [], buffer: 'undefined' });
  }, 120_000);

  it('runs its command as npx robots-wasm', () => {
    expect(run('npx', ['--no-install', 'robots-wasm', '--help'])).toMatch(/^Usage: robots/);
    writeFileSync(path.join(app, 'robots.txt'), BODY.replace('\\n', '\n').replace('\\n', '\n'));
    const r = spawnSync('npx', ['--no-install', 'robots-wasm', 'check', 'robots.txt', 'FooBot', 'https://example.com/private'], { cwd: app, encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/^disallowed\t2\t/);
  });
});
