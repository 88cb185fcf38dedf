// The run's folder (vitest's globalSetup): files that several suites read and
// none changes (the corpus as WARC files, the AI-era corpus) are made there once
// a run, by the first suite that asks for them (test/helpers/made-once.ts), and
// removed with the folder when the run ends. A run of one file has its own. A
// run killed before its end leaves its folder: the next run removes it, its
// process being gone (the folder names it); those of runs under way are kept.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** The variable that names the folder to the workers (they inherit the environment of vitest's process). */
export const RUN_FOLDER_VARIABLE = 'ROBOTS_TEST_RUN_FOLDER';
const PREFIX = 'robots-test-run-';
/** The file of a run's folder that holds the pid of the process it is for. */
const OWNER = 'owner.pid';

export default function setup(): (() => void) | undefined {
  // vitest calls this for each project and for the root: the first call makes the folder, the others find it.
  if (process.env[RUN_FOLDER_VARIABLE] !== undefined) return undefined;
  const folder = makeRunFolder();
  process.env[RUN_FOLDER_VARIABLE] = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}

/** A new run folder for this process, after removing those left by processes that are gone. */
export function makeRunFolder(): string {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue;
    const folder = path.join(tmpdir(), name);
    let owner = 0;
    try {
      owner = Number(readFileSync(path.join(folder, OWNER), 'utf8'));
    } catch {
      continue; // (no owner yet: a folder being made)
    }
    if (owner > 0 && !processAlive(owner)) rmSync(folder, { recursive: true, force: true });
  }
  const folder = mkdtempSync(path.join(tmpdir(), PREFIX));
  writeFileSync(path.join(folder, OWNER), String(process.pid));
  return folder;
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
