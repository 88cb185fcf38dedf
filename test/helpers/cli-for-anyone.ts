// The built command where any user can run it, for the tests that run it as
// another user (as root, as nobody: root reads any file, nobody is refused).
// The clone's own dist/cli.js will not do: a clone under /root, or under a
// `mktemp -d` folder (mode 700), is a place nobody cannot enter, and node then
// exits 1 before the command runs. So dist/ is copied (the command is one
// bundle; its workers and the tester page's files sit beside it) into a folder
// of the system's temporary directory that everyone may read, for the test.
import { chmodSync, cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** Why another user could not get to `dir` (a folder on its way that others may not enter), or undefined. */
export function whyUnreachable(dir: string): string | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return `${d} is a folder other users may not enter (mode ${(statSync(d).mode & 0o777).toString(8)})`;
    if (d === path.dirname(d)) return undefined;
  }
}

/**
 * Why the tests that run the command as another user cannot run here (the
 * temporary directory, where they put the command and their files, is out of
 * other users' reach: set TMPDIR to a folder they can enter), or undefined.
 */
export const CANNOT_RUN_AS_ANOTHER_USER: string | undefined = (() => {
  const node = whyUnreachable(path.dirname(process.execPath));
  if (node !== undefined) return `node (${process.execPath}) is out of other users' reach: ${node}`;
  const why = whyUnreachable(tmpdir());
  return why === undefined ? undefined : `the temporary directory ${tmpdir()} is out of other users' reach: ${why}; give TMPDIR a folder they can enter`;
})();

let copy: string | undefined;

/** dist/cli.js as copied to a folder every user may read (made on a test's first use, removed when it ends). */
export function cliForAnyone(): string {
  if (copy === undefined) {
    if (CANNOT_RUN_AS_ANOTHER_USER !== undefined) throw new Error(CANNOT_RUN_AS_ANOTHER_USER);
    const dir = mkdtempSync(path.join(tmpdir(), 'robots-cli-for-anyone-'));
    chmodSync(dir, 0o755);
    cpSync(DIST, path.join(dir, 'dist'), { recursive: true });
    // Readable by all whatever the umask the build ran under (cpSync keeps the modes).
    for (const e of readdirSync(path.join(dir, 'dist'), { withFileTypes: true, recursive: true })) {
      chmodSync(path.join(e.parentPath, e.name), e.isDirectory() ? 0o755 : 0o644);
    }
    chmodSync(path.join(dir, 'dist'), 0o755);
    // (Not at the worker's exit: vitest may end a worker without one.)
    onTestFinished(() => {
      copy = undefined;
      rmSync(dir, { recursive: true, force: true });
    });
    copy = path.join(dir, 'dist', 'cli.js');
  }
  return copy;
}
