// A Node process that runs the built command (dist/cli.js) run after run, for the suites that run it many
// times (test/helpers/cli-host.ts): Node's start and the compile of the command's modules are paid once a host,
// not once a run (~0.15 of the ~0.2 CPU-s a short run takes). Each run meets what a process of its own gives it:
// - its arguments in process.argv, its environment in process.env (the whole of it, as the parent gives it);
// - its input on descriptor 0 (a file holding it, opened again for each run: Node reads `-` with readFileSync(0))
//   and as process.stdin (a stream over that descriptor, made at its first use, as Node makes it);
// - descriptors 1 and 2 (files opened for appending, emptied before each run: the command's threads write
//   to descriptor 1 themselves), read by the parent once the run ends;
// - the status a process would exit with: process.exitCode, or 1 after an uncaught exception;
// - its end when the handles it opened are closed, as a process ends when its event loop drains.
// What a run leaves behind is undone before the next: listeners it added to process and its streams, the
// exit code, the environment. The command's modules are imported afresh for each run (the entry with a query
// of its own): its parser and its state are new; the library's modules below it are shared, as they are
// between the calls of a long-lived program that embeds it.
// Requests come over the IPC channel, one at a time: { args, env } (the input written to its file first). The
// reply is { status, last } (last: the host ends now), or the process exits with the status a run gave
// process.exit() (the parent reads that as the run's).
import { closeSync, createReadStream, ftruncateSync, openSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';

const [cli, inputPath] = process.argv.slice(2);
const cliUrl = pathToFileURL(cli).href;
const execArgv0 = process.argv[0];
const stdinDescriptor = Object.getOwnPropertyDescriptor(process, 'stdin');
let runs = 0;
let crashed = false;

// An uncaught exception or rejection ends a process with status 1, its stack on stderr: the same here (the run
// fails as it would), and the host ends after replying, its state unknown.
const crash = (e) => {
  crashed = true;
  process.stderr.write(`${e instanceof Error ? e.stack : `Uncaught ${String(e)}`}\n`);
};
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

/** The listeners of each emitter, to take back what a run added. */
const emitters = () => [process, process.stdout, process.stderr];
const listenersOf = (emitter) => new Map(emitter.eventNames().map((name) => [name, emitter.listeners(name)]));

/** The kinds of handle that keep the loop alive, counted: a run has ended when they are the host's own again. */
function handles() {
  const counts = new Map();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}
const within = (now, idle) => [...now].every(([kind, n]) => n <= (idle.get(kind) ?? 0));

async function run({ args, env }) {
  // The run's input on descriptor 0 (the lowest free descriptor is the one open() returns).
  closeSync(0);
  const fd = openSync(inputPath, 'r');
  if (fd !== 0) throw new Error(`the input opened as descriptor ${fd}, not 0`);
  ftruncateSync(1, 0);
  ftruncateSync(2, 0);
  let stdin;
  Object.defineProperty(process, 'stdin', { configurable: true, enumerable: true, get: () => (stdin ??= createReadStream('', { fd: 0, autoClose: false })) });
  for (const key of Object.keys(process.env)) delete process.env[key];
  Object.assign(process.env, env);
  process.argv = [execArgv0, cli, ...args];
  process.exitCode = undefined;
  const before = emitters().map(listenersOf);
  // (The host's own handles, once what its last run closed has closed.)
  await new Promise((resolve) => setTimeout(resolve, 0).unref());
  const idle = handles();
  try {
    await import(`${cliUrl}?run=${++runs}`);
    // The command's top level has ended; what it left running (streams, threads, timers) runs on, as in a process.
    while (!crashed && !within(handles(), idle)) await new Promise((resolve) => setTimeout(resolve, 1).unref());
  } catch (e) {
    crash(e);
  }
  const status = crashed ? 1 : Number(process.exitCode ?? 0);
  process.exitCode = undefined;
  stdin?.destroy();
  Object.defineProperty(process, 'stdin', stdinDescriptor);
  emitters().forEach((emitter, i) => {
    for (const name of emitter.eventNames()) {
      const kept = before[i].get(name) ?? [];
      for (const listener of emitter.listeners(name)) if (!kept.includes(listener)) emitter.removeListener(name, listener);
    }
  });
  // The connections a run kept open for another request are its own: a new process would open new ones.
  http.globalAgent.destroy();
  https.globalAgent.destroy();
  // (fetch's: Node's undici keeps it under this symbol, writable but not deletable.)
  const dispatcher = Symbol.for('undici.globalDispatcher.1');
  const used = globalThis[dispatcher];
  if (used !== undefined) {
    globalThis[dispatcher] = new used.constructor();
    used.destroy();
  }
  return status;
}

// The parent gone (its test file ended), the host goes too, with its folder.
process.on('disconnect', () => {
  rmSync(dirname(inputPath), { recursive: true, force: true });
  process.exit();
});
process.on('message', async (request) => {
  let status;
  try {
    status = await run(request);
  } catch (e) {
    // The host's own failure: the run fails with it, and the host ends.
    crash(e);
    status = 1;
  }
  process.send({ status, last: crashed }, () => {
    if (crashed) process.exit(1);
  });
});
