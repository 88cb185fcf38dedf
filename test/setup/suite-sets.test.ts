// The sets of suites (test/setup/suite-sets.ts) on a made-up tree: a suite is in
// the build set by what it reaches, in the slow set by the time it asks for.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { suiteSets } from './suite-sets.js';

const root = mkdtempSync(path.join(tmpdir(), 'robots-suite-sets-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// The build's folder, npm's pack and the timeouts spelt apart, so that this suite (fast: no build, no long timeout)
// is not put in another set by its own fixtures.
const DIST = ['di', 'st'].join('');
const PACK = ['pa', 'ck'].join('');
const LONG = 60_000;
const SHORT = 15_000;

function file(name: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
  writeFileSync(path.join(root, name), text);
}

describe('suite sets', () => {
  it('build: a dist/ path or npm pack, in the suite or a module it reaches; slow: a timeout over the default; fast: the rest', () => {
    file('src/index.ts', 'export const distinct = 1;\n');
    file('bench/adapter.mjs', `export const load = () => import('../${DIST}/index.js');\n`);
    file('bench/worker.mjs', `import { x } from '../${DIST}/redis.js';\n`);
    file('test/helpers/cli.ts', `export const CLI = new URL('../../${DIST}/cli.js', import.meta.url);\n`);
    file('test/helpers/plain.ts', "import { distinct } from '../../src/index.js';\nexport const y = distinct;\n");
    file('test/a/src-only.test.ts', `import { distinct } from '../../src/index.js';\nimport { y } from '../helpers/plain.js';\n// built into ${DIST}/ for the package\n// as '../../${DIST}/index.js' once built\n`);
    file('test/a/direct.test.ts', `import { parse } from '../../${DIST}/index.js';\n`);
    file('test/a/helper.test.ts', "import { CLI } from '../helpers/cli.js';\n");
    file('test/a/bench.test.ts', "import { load } from '../../bench/adapter.mjs';\n");
    file('test/a/spawned.test.ts', "const WORKER = new URL('../../bench/worker.mjs', import.meta.url);\n");
    file('test/a/dir.test.ts', `cpSync(path.join(ROOT, '${DIST}'), tmp);\n`);
    file('test/a/pack.test.ts', `run('npm', ['${PACK}', '--json']);\n`);
    file('test/a/long.test.ts', `it('x', () => {}, ${LONG});\n`);
    file('test/a/long-options.test.ts', `it('x', { timeout: ${LONG / 3} }, () => {});\n`);
    file('test/a/short.test.ts', `it('x', () => {}, ${SHORT});\nspawnSync('x', [], { timeout: ${SHORT / 3} });\n// }, ${LONG}) in a comment\n`);
    file('test/a/cycle.test.ts', "import { b } from './cycle-b.js';\n");
    file('test/a/cycle-b.ts', "import { a } from './cycle.test.js';\nexport const b = 1;\n");
    expect(suiteSets(root, 15_000)).toEqual({
      build: ['test/a/bench.test.ts', 'test/a/dir.test.ts', 'test/a/direct.test.ts', 'test/a/helper.test.ts', 'test/a/pack.test.ts', 'test/a/spawned.test.ts'],
      slow: ['test/a/long-options.test.ts', 'test/a/long.test.ts'],
      fast: ['test/a/cycle.test.ts', 'test/a/short.test.ts', 'test/a/src-only.test.ts'],
    });
  });
});
