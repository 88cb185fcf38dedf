// Files that several suites read and none changes (the corpus written as WARC
// files, the AI-era corpus), made once a run instead of once a suite: in the
// run's folder (test/setup/run-folder.ts), by the first suite that asks, under a
// lock, since the run's workers are processes that may ask at the same moment.
// The others wait for it. A maker builds in a folder of its own and renames it
// into place: a name that exists is whole. A maker that died (its process gone,
// say a worker killed) leaves a lock that the next one takes over.
import { existsSync, rmSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeRunFolder, processAlive, RUN_FOLDER_VARIABLE } from '../setup/run-folder.js';

/** How often a suite that waits for another's maker looks again. */
const POLL_MS = 200;

/** This process's makes under way: two tests of one suite asking at once share one. */
const underWay = new Map<string, Promise<string>>();

let ownFolder: string | undefined;

/** The run's folder; outside vitest's run (no globalSetup), one of this process's own, removed at its exit. */
function runFolder(): string {
  const shared = process.env[RUN_FOLDER_VARIABLE];
  if (shared !== undefined) return shared;
  if (ownFolder === undefined) {
    const folder = makeRunFolder();
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    ownFolder = folder;
  }
  return ownFolder;
}

/**
 * The folder `name` of the run's folder, made by `make` (which writes into the folder it is given) if no suite of the
 * run has made it yet. What `make` writes must not depend on which suite asks: a suite reads it, never changes it.
 */
export function madeOnce(name: string, make: (folder: string) => Promise<void>): Promise<string> {
  const done = path.join(runFolder(), name);
  let made = underWay.get(done);
  if (made === undefined) {
    made = makeOrWait(done, make);
    underWay.set(done, made);
    made.catch(() => underWay.delete(done));
  }
  return made;
}

async function makeOrWait(done: string, make: (folder: string) => Promise<void>): Promise<string> {
  const lock = `${done}.lock`;
  for (;;) {
    if (existsSync(done)) return done;
    try {
      await mkdir(lock);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // (A lock without its pid yet is one just taken.)
      const owner = Number(await readFile(path.join(lock, 'pid'), 'utf8').catch(() => '0'));
      if (owner > 0 && !processAlive(owner)) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      continue;
    }
    try {
      await writeFile(path.join(lock, 'pid'), String(process.pid));
      if (existsSync(done)) return done;
      const building = `${done}.${process.pid}`;
      await rm(building, { recursive: true, force: true });
      await mkdir(building);
      try {
        await make(building);
        await rename(building, done);
      } catch (e) {
        await rm(building, { recursive: true, force: true });
        // (Two makers only when a lock was taken over from one that was not dead after all: the first one's stands.)
        if (!existsSync(done)) throw e;
      }
      return done;
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
}
