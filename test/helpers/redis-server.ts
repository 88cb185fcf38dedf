// A real redis-server for the store tests (Debian's redis-server package):
// started on 127.0.0.1 on a free port with persistence off, stopped after.
// When the binary is missing the Redis suites are skipped with a message, but
// not under CI (CI=true), where .ci/run installs it: there they fail.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createClient, RESP_TYPES } from 'redis';

export const REDIS_BINARY = findBinary();
export const SKIP_REDIS = REDIS_BINARY === undefined && process.env.CI !== 'true';
if (REDIS_BINARY === undefined) {
  console.warn(process.env.CI === 'true'
    ? 'redis-server not found: CI must install it (.ci/run does, with apt-get install -y redis-server)'
    : 'SKIPPED: the Redis suites (no redis-server on PATH; on Debian: apt-get install redis-server)');
}

function findBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path !== '' ? path : undefined;
}

export interface RedisServer {
  port: number;
  url: string;
  /** Stops the server (SIGKILL when `crash`), waiting for it to exit. */
  stop(crash?: boolean): Promise<void>;
  /** Starts it again on the same port, empty (no persistence). */
  start(): Promise<void>;
  /** Runs one command (for setup and inspection). */
  command(...args: (string | Buffer)[]): Promise<unknown>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startRedis(extra: string[] = []): Promise<RedisServer> {
  if (REDIS_BINARY === undefined) throw new Error('redis-server is missing: on Debian, apt-get install -y redis-server');
  const port = await freePort();
  let child: ChildProcess | undefined;
  const launch = async () => {
    child = spawn(REDIS_BINARY!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const deadline = Date.now() + 10_000;
    while (!/Ready to accept connections/.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`redis-server did not start on port ${port}: ${output.slice(-500)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop(crash = false) {
      const c = child;
      if (c === undefined || c.exitCode !== null) return;
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill(crash ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
    start: launch,
    command: (...args) => command(port, args),
  };
}

/** One command and its reply, on a connection of its own (bulk strings as Buffer). */
async function command(port: number, args: (string | Buffer)[]): Promise<unknown> {
  const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } }).withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  client.on('error', () => {});
  await client.connect();
  try {
    return await client.sendCommand(args);
  } finally {
    client.destroy();
  }
}
