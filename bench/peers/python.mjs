// The Python parsers' adapters: an interpreter that has the parser (PYTHON, python3 on the
// PATH, then Debian's /usr/bin/python3, where python3-protego installs), its version, and the
// driver python_driver.py behind the own-process protocol of external.mjs.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { externalAdapter } from './external.mjs';
import { PeerMissing } from './paths.mjs';

const DRIVER = fileURLToPath(new URL('./python_driver.py', import.meta.url));

/** The first interpreter whose driver answers --version for `engine`: [interpreter, version], or undefined. */
export function findPython(engine) {
  for (const python of /** @type {string[]} */ ([process.env.PYTHON, 'python3', '/usr/bin/python3'].filter(Boolean))) {
    const r = spawnSync(python, [DRIVER, engine, '--version'], { encoding: 'utf8' });
    if (r.status === 0) return [python, r.stdout.trim()];
  }
  return undefined;
}

export function pythonAdapter({ engine, id, label, library, missing, note }) {
  const found = findPython(engine);
  if (!found) throw new PeerMissing(missing);
  const [python, version] = found;
  const which = spawnSync(python, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();
  return externalAdapter({ id, label, library: `${library} (${which})`, version, command: [python, DRIVER, engine], cpuCommand: ['env', 'ROBOTS_BENCH_CLOCK=thread', python, DRIVER, engine], note, reps: 3, roundReps: 2 });
}
