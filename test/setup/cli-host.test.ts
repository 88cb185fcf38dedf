// test/helpers/cli-host.ts: a run in a host gives what the same run in a process of its own gives (its status,
// stdout and stderr), run after run in one host: its arguments, environment and input (read by descriptor and as a
// stream), what it writes by descriptor and by stream, work left running after its top level, its exit code,
// process.exit(), a throw, a hang (killed), the listeners it leaves; then the command itself, one command of each
// kind, as a process and in a host.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runInHost } from '../helpers/cli-host.js';
import { CLI, runProcess, type Run } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-cli-host-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A program that does one thing a command might, named by its first argument.
const PROGRAM = path.join(dir, 'program.mjs');
writeFileSync(PROGRAM, `
import { readFileSync, writeSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
const [what, ...rest] = process.argv.slice(2);
switch (what) {
  case 'echo':
    process.stdout.write('args ' + JSON.stringify(rest) + ', HOST_TEST ' + process.env.HOST_TEST + ', ROBOTS_DEBUG ' + JSON.stringify(process.env.ROBOTS_DEBUG) + '\\n');
    process.stdout.write(readFileSync(0));
    break;
  case 'stream': {
    await new Promise((resolve) => setTimeout(resolve, 20));
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    process.stdout.write(text.toUpperCase());
    break;
  }
  case 'descriptors':
    writeSync(1, 'to descriptor 1\\n');
    writeSync(2, 'to descriptor 2\\n');
    process.stderr.write('to stderr\\n');
    break;
  case 'later':
    setTimeout(() => { process.stdout.write('written after the top level\\n'); process.exitCode = 4; }, 200);
    break;
  case 'worker':
    new Worker("require('node:worker_threads').parentPort.postMessage('from a thread')", { eval: true }).on('message', (m) => process.stdout.write(m + '\\n'));
    break;
  case 'exit-code':
    process.exitCode = 5;
    break;
  case 'exit':
    process.stdout.write('before\\n');
    process.exit(3);
  case 'throw':
    setTimeout(() => { throw new Error('thrown later'); }, 10);
    break;
  case 'reject':
    Promise.reject(new Error('rejected'));
    break;
  case 'listeners':
    process.on('SIGTERM', () => {});
    process.stdout.on('error', () => {});
    process.stdout.write(process.listenerCount('SIGTERM') + ' ' + process.stdout.listenerCount('error') + '\\n');
    break;
  case 'hang':
    setInterval(() => {}, 1000);
    break;
}
`);

const ENV = { ...process.env, ROBOTS_DEBUG: '', HOST_TEST: 'yes' };
const inHost = (args: string[], input?: string, killAfterMs = 60_000) => runInHost(PROGRAM, args, input, ENV, killAfterMs);
const inProcess = (args: string[], input?: string, killAfterMs = 60_000) => runProcess(PROGRAM, args, input, { env: { HOST_TEST: 'yes' }, killAfterMs });

describe('a run in a host is a run in a process', () => {
  const cases: [string, string[], string?][] = [
    ['arguments, environment, input read by descriptor', ['echo', 'a b', '--x=1'], 'line 1\nline 2\n'],
    ['no input', ['echo']],
    ['input read as a stream', ['stream'], 'some input\n'],
    ['written by descriptor and by stream', ['descriptors']],
    ['work after the top level, its exit code', ['later']],
    ['a worker thread', ['worker']],
    ['process.exitCode', ['exit-code']],
    ['process.exit()', ['exit']],
    ['the listeners a run adds are its own', ['listeners']],
  ];
  it('each, run after run in one host (and again in the same order): the same status, stdout and stderr', async () => {
    const expected: Run[] = [];
    for (const [, args, input] of cases) expected.push(await inProcess(args, input));
    expect(expected.map((r) => r.status)).toEqual([0, 0, 0, 0, 4, 0, 5, 3, 0]);
    for (let round = 0; round < 2; round++) {
      for (const [i, [what, args, input]] of cases.entries()) expect(await inHost(args, input), what).toEqual(expected[i]);
    }
  });

  it('a throw or a rejection: status 1 and the error on stderr, as a process; the next run in a new host', async () => {
    for (const [args, message] of [[['throw'], 'thrown later'], [['reject'], 'rejected']] as const) {
      const [alone, host] = [await inProcess([...args]), await inHost([...args])];
      expect(alone.status).toBe(1);
      expect(host.status).toBe(1);
      expect(alone.stderr).toContain(`Error: ${message}`);
      expect(host.stderr).toContain(`Error: ${message}`);
      expect(await inHost(['echo'], 'after'), 'the run after').toEqual(await inProcess(['echo'], 'after'));
    }
  });

  it('a run that never ends is killed at its limit (status null), and the next runs in a new host', async () => {
    expect((await inProcess(['hang'], undefined, 500)).status).toBeNull();
    expect((await inHost(['hang'], undefined, 500)).status).toBeNull();
    expect(await inHost(['echo'], 'after'), 'the run after').toEqual(await inProcess(['echo'], 'after'));
  });
});

describe('the command in a host is the command in a process', () => {
  const robotsTxt = path.join(dir, 'robots.txt');
  writeFileSync(robotsTxt, 'User-agent: *\nDisallow: /private\nContent-Usage: train-ai=n\n\nUser-agent: GPTBot\nDisallow: /\n');
  const urls = ['https://a.example/', 'https://a.example/private/x', 'https://b.example/?q'].join('\n') + '\n';
  const runs: [string[], string?][] = [
    [['classify', '--robots', robotsTxt, '-q', '--threads', '1'], urls],
    [['classify', '--robots', robotsTxt, '-q', '--threads', '2', '--format', 'jsonl'], urls],
    [['classify', '--robots', robotsTxt, '-q', '--crawlers', 'GPTBot,CCBot', '--usage'], urls],
    [['check', '-', 'FooBot', 'https://a.example/private'], 'User-agent: *\nDisallow: /private\n'],
    [['explain', robotsTxt, 'GPTBot', 'https://a.example/x']],
    [['lint', robotsTxt]],
    [['classify', '--robots', robotsTxt, '--threads', 'x']],
    [['nope']],
    [['--version']],
    [['check', '--help']],
  ];
  it('one run of each kind: the same status, stdout and stderr', { timeout: 120_000 }, async () => {
    for (const [args, input] of runs) {
      const [alone, host] = [await runProcess(CLI, args, input), await runInHost(CLI, args, input, { ...ENV }, 60_000)];
      expect(host, args.join(' ')).toEqual(alone);
    }
  });
});
