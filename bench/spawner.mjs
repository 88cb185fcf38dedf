// Child processes for the measuring process, started by a process of its own.
// A fork copies-on-write every page of the process that forks: after any child
// (even spawnSync('true')) the pages this process writes next fault one by one
// (the young generation's semi-spaces, the core's memory), and its next passes
// of parse + compile + first verdict over the corpus ran several times slower
// (bench/tools/fork-effect.mjs). So the bench forks once, at import, while its
// heap is small: spawner-child.mjs, which runs every driver and child process
// the workloads ask for (execFile's arguments) and sends back its output.
import { fork } from 'node:child_process';

/** @type {import('node:child_process').ChildProcess | undefined} */
let spawner;
let nextId = 0;
/** @type {Map<number, { resolve: (r: { stdout: string, stderr: string }) => void, reject: (e: Error) => void }>} */
const pending = new Map();

function start() {
  const child = fork(new URL('./spawner-child.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  child.on('message', (/** @type {{ id: number, stdout: string, stderr: string, error?: { message: string, code?: number | string } }} */ m) => {
    const job = pending.get(m.id);
    if (job === undefined) return;
    pending.delete(m.id);
    if (pending.size === 0) child.channel?.unref();
    if (m.error) job.reject(Object.assign(new Error(m.error.message), { code: m.error.code, stdout: m.stdout, stderr: m.stderr }));
    else job.resolve({ stdout: m.stdout, stderr: m.stderr });
  });
  child.on('exit', (code) => {
    spawner = undefined;
    for (const job of pending.values()) job.reject(new Error(`the bench's spawner exited (${code}) before its child did`));
    pending.clear();
  });
  // The spawner keeps no process alive: only a pending run holds the channel.
  child.unref();
  child.channel?.unref();
  return child;
}

spawner = start();

/**
 * execFile(file, args, { maxBuffer }) run by the spawner: { stdout, stderr } (UTF-8), or an
 * error as execFile's (message, code, stdout, stderr) when the child fails.
 */
export function run(file, args, options = {}) {
  spawner ??= start();
  const id = nextId++;
  const child = spawner;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    child.channel?.ref();
    child.send({ id, file, args, maxBuffer: options.maxBuffer });
  });
}

/** The spawner's process id (a driver's parent). */
export const spawnerPid = () => spawner?.pid;
