// A temporary folder for a run's spill or downloads (they may hold gigabytes),
// removed by dispose() at the end or on an error, and when the run is
// interrupted (Ctrl-C, a kill): the signal is then raised again, so the process
// ends as it would have.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface TempDir {
  readonly path: string;
  /** Removes the folder and what it holds (again: nothing). */
  dispose(): void;
}

/** A new folder in the system's temporary folder, its name starting `prefix`. */
export function tempDir(prefix: string): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix));
  const onSignal = (signal: NodeJS.Signals) => {
    dispose();
    process.kill(process.pid, signal);
  };
  const dispose = () => {
    for (const signal of SIGNALS) process.off(signal, onSignal);
    rmSync(path, { recursive: true, force: true });
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);
  return { path, dispose };
}
