import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { PROPERTY_SEED } from './test/helpers/seed.js';
import { suiteSets } from './test/setup/suite-sets.js';

// One seed for the run's random generators (test/helpers/seed.ts), drawn here once and handed to every worker.
process.env.PROPERTY_SEED = String(PROPERTY_SEED);

// A hung test fails in 15 s; the tests that need longer say so, with why, where they are.
const TIMEOUT_MS = 15_000;
// The build set's tests start processes (the command, node, Chromium, Deno, Bun, workerd), up to a few dozen
// a test: a start of the command takes ~0.2 s on a quiet machine and five to ten times that beside two CPU hogs
// (a test of 14 runs took 15 s there). Their time is the machine's load times their runs, so their default is a
// hang guard that no load fails, not a clock; one that needs more still says so where it is.
const PROCESS_TIMEOUT_MS = 60_000;

// fast: the suites that import src/ directly, no build, none asking for more than TIMEOUT_MS (`npm run test:fast`);
// slow: the other src/ ones; build: those that use dist/ (the CLI, the package, the page). `npm test` runs all, after
// the build. Drawn from the suites themselves (test/setup/suite-sets.ts).
const suites = suiteSets(import.meta.dirname, TIMEOUT_MS);

export default defineConfig({
  // A .wasm import is the module's octets, as the build embeds it (scripts/build.mjs):
  // for the suites that import src/ directly.
  plugins: [
    {
      name: 'wasm-octets',
      enforce: 'pre',
      load(id) {
        if (!id.endsWith('.wasm')) return null;
        return `export default Uint8Array.from(atob(${JSON.stringify(readFileSync(id).toString('base64'))}), (c) => c.charCodeAt(0));`;
      },
    },
  ],
  test: {
    // vitest's own output, then the failed tests named and a plain count, last (test/reporters/closing-lines.ts).
    reporters: ['default', './test/reporters/closing-lines.ts'],
    setupFiles: ['./test/setup/event-loop.ts', './test/setup/property-seed.ts'],
    globalSetup: ['./test/setup/run-folder.ts'],
    // A worker more than the cores: several suites wait on servers, browsers and children they start (the fleet's
    // hanging origins, Redis timeouts, Retry-After), and a third worker fills those waits (on 2 cores, quiet, a fresh
    // clone: 406 s against 455 s with two; vitest's default, all cores but one, ran one worker here at ~9 min).
    maxWorkers: availableParallelism() + 1,
    testTimeout: TIMEOUT_MS,
    hookTimeout: TIMEOUT_MS,
    projects: [
      { extends: true, test: { name: 'fast', include: suites.fast } },
      { extends: true, test: { name: 'slow', include: suites.slow } },
      { extends: true, test: { name: 'build', include: suites.build, testTimeout: PROCESS_TIMEOUT_MS, hookTimeout: PROCESS_TIMEOUT_MS } },
    ],
  },
});
