// Real HTTP servers for the crawler tests: node:http on 127.0.0.1, port 0
// (the system picks a free one). Each logs its requests and can change its
// handler between tests.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface LoggedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface TestServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  /** Every request, unless started with log: false (then only `count`). */
  requests: LoggedRequest[];
  count: number;
  handler: Handler;
  close(): Promise<void>;
}

export async function startServer(handler: Handler = (_, res) => res.end(), { log = true } = {}): Promise<TestServer> {
  const server = http.createServer((req, res) => {
    state.count++;
    if (log) state.requests.push({ path: req.url ?? '', headers: req.headers });
    state.handler(req, res);
  });
  // Keep-alive sockets of the client must not hold close() up.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const state: TestServer = {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests: [],
    count: 0,
    handler,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

/** A handler serving one body with status 200 and the given headers. */
export function serve(body: string | Uint8Array, headers: http.OutgoingHttpHeaders = {}, status = 200): Handler {
  return (_, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(body);
  };
}

/** `robots serve --port 0` started as `command` (node and the CLI, or an installed bin), and the origin it says it listens on. */
export function startRobotsServe(command: string, args: string[], cwd?: string): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(command, [...args, 'serve', '--port', '0'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = out.match(/http:\/\/\S+?\//);
      if (m) resolve({ child, origin: m[0].replace(/\/$/, '') });
    });
    child.once('exit', (code) => reject(new Error(`${command} serve exited ${code}: ${out}`)));
  });
}
