// The bundles are minified (scripts/build.mjs), names too: the package's classes keep theirs where a user
// sees them (a class's `name`, util.inspect and console.log of an instance), from ESM and from CommonJS.
import { createRequire } from 'node:module';
import path from 'node:path';
import { inspect } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
const require_ = createRequire(import.meta.url);
const isClass = (v: unknown): v is new (...args: never[]) => unknown => typeof v === 'function' && /^class\b/.test(Function.prototype.toString.call(v));

/** The entries' modules, as import and as require() give them. */
async function entries(): Promise<[string, Record<string, unknown>][]> {
  const loaded: [string, Record<string, unknown>][] = [];
  for (const entry of ['index', 'compat', 'redis']) {
    loaded.push([`${entry}.js`, (await import(pathToFileURL(path.join(DIST, `${entry}.js`)).href)) as Record<string, unknown>]);
    loaded.push([`${entry}.cjs`, require_(path.join(DIST, `${entry}.cjs`)) as Record<string, unknown>]);
  }
  return loaded;
}

describe('the classes\' names in the minified bundles', () => {
  it('each exported class is named as it is exported', async () => {
    const named: string[] = [];
    const misnamed: string[] = [];
    for (const [file, exports] of await entries()) {
      for (const [key, value] of Object.entries(exports)) {
        if (!isClass(value)) continue;
        named.push(`${file} ${key}`);
        if (value.name !== key) misnamed.push(`${file} ${key}: ${value.name}`);
      }
    }
    expect(named).toEqual(expect.arrayContaining(['index.cjs RobotsTxt', 'index.js Matcher', 'index.cjs RobotsCache', 'index.js MemoryStore', 'index.cjs DisposedError', 'redis.js RedisStore', 'redis.cjs RedisStore']));
    expect(misnamed).toEqual([]);
  });

  it('an instance is shown by its class\'s name: a RobotsTxt, its Matcher, robots-parser\'s API\'s robot', async () => {
    for (const [file, exports] of await entries()) {
      if (file.startsWith('index')) {
        const { parse } = exports as { parse: (body: string) => { compile(agent: string): unknown } };
        const robots = parse('User-agent: *\nDisallow: /x\n');
        expect([file, inspect(robots, { depth: 0 }).split(' ')[0], inspect(robots.compile('ExampleBot'), { depth: 0 }).split(' ')[0]]).toEqual([file, 'RobotsTxt', 'Matcher']);
      }
      if (file.startsWith('compat')) {
        const robotsParser = (exports.default ?? exports) as (url: string, body: string) => unknown;
        expect([file, inspect(robotsParser('https://example.com/robots.txt', 'User-agent: *\n'), { depth: 0 }).split(' ')[0]]).toEqual([file, 'CompatRobot']);
      }
    }
  });
});
