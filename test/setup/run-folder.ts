// The run's folder (vitest's globalSetup): files that several suites read and
// none changes (the corpus as WARC files, the AI-era corpus) are made there once
// a run, by the first suite that asks for them (test/helpers/made-once.ts), and
// removed with the folder when the run ends. A run of one file has its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The variable that names the folder to the workers (they inherit the environment of vitest's process). */
export const RUN_FOLDER_VARIABLE = 'ROBOTS_TEST_RUN_FOLDER';

export default function setup(): (() => void) | undefined {
  // vitest calls this for each project and for the root: the first call makes the folder, the others find it.
  if (process.env[RUN_FOLDER_VARIABLE] !== undefined) return undefined;
  const folder = mkdtempSync(path.join(tmpdir(), 'robots-test-run-'));
  process.env[RUN_FOLDER_VARIABLE] = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
