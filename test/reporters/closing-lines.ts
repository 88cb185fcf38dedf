// Ends the run's output with what a CI log reader needs in its last lines: each
// failed test by file and name (vitest's own summary, just above, counts them but
// does not name them, and its failure details can scroll far up), then one plain
// line `tests: N passed, N failed, N skipped`.
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class ClosingLines implements Reporter {
  private lines: string[] = [];

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let skipped = 0;
    const failed: string[] = [];
    for (const m of modules) {
      const file = path.relative(process.cwd(), m.moduleId);
      // A suite that failed to load (or a failing hook) fails with no test failed in it.
      if (m.state() === 'failed' && [...m.children.allTests('failed')].length === 0) failed.push(`${file} (the file itself: ${m.errors().map((e) => e.message).join('; ') || 'failed'})`);
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed.push(`${file} > ${t.fullName}`);
        else skipped++;
      }
    }
    const lines = failed.map((f) => `FAILED ${f}`);
    if (unhandledErrors.length > 0) lines.push(`FAILED ${unhandledErrors.length} unhandled error(s) (above)`);
    lines.push(`tests: ${passed} passed, ${failed.length} failed, ${skipped} skipped`);
    this.lines = lines;
  }

  /** Written here, not in onTestRunEnd: the default reporter writes its summary in onFinished, after every
   * reporter's onTestRunEnd; this one is listed after it. */
  onFinished(): void {
    process.stdout.write(`\n${this.lines.join('\n')}\n`);
  }
}
