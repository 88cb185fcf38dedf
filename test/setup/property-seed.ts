// Every property test takes the run's seed (test/helpers/seed.ts), and a
// failure says it: fast-check's failures in their message, after fast-check's
// own report (counterexample, shrink path); a failed test whose file drew the
// seed by hand, on stderr.
import path from 'node:path';
import fc, { type RunDetails } from 'fast-check';
import { beforeEach, expect } from 'vitest';
import { PROPERTY_SEED, replayHint, seedDrawn } from '../helpers/seed.js';

const hint = (): string => replayHint(PROPERTY_SEED, path.relative(process.cwd(), expect.getState().testPath ?? '<file>'));

/** fast-check's own report (it throws the same way), the hint after it. Also for async properties: fast-check takes
 * one reporter or the other, and this one is called for both. */
function report<Ts>(details: RunDetails<Ts>): void {
  if (!details.failed) return;
  throw new Error(`${fc.defaultReportMessage(details) ?? 'Property failed'}\n\n${hint()}`, { cause: details.errorInstance });
}

fc.configureGlobal({ seed: PROPERTY_SEED, reporter: report });

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    if (seedDrawn()) process.stderr.write(`${hint()}\n`);
  });
});
