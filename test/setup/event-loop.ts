// The event loop of a test worker, kept turning. vitest's worker talks to the
// main process over an RPC whose calls time out after 60 s; the loop must turn
// for an answer to be read. vitest runs a file's tests one after the other
// without a turn of the loop between them (it awaits only promises), so a file
// of synchronous tests is one block as long as all of them: 12 s for
// property.test.ts on a quiet machine, over 60 s on a loaded one, which fails the
// whole run with "Timeout calling onTaskUpdate", an error that names no test.
// So: one turn of the loop after every test, and a warning naming the test when
// the loop was held for long all the same.
import { afterEach, expect } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));

const BLOCKED_WARN_MS = 15_000;
const TICK_MS = 250;
let last = performance.now();
setInterval(() => {
  const now = performance.now();
  const blocked = now - last - TICK_MS;
  last = now;
  if (blocked >= BLOCKED_WARN_MS) {
    const { testPath, currentTestName } = expect.getState();
    process.stderr.write(`[event-loop] the event loop was held ${(blocked / 1000).toFixed(1)} s, up to ${testPath ?? '?'} > ${currentTestName ?? '(no test: a hook or the import)'}\n`);
  }
}, TICK_MS).unref();
