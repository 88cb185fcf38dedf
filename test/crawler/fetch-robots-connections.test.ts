// What fetchRobots leaves of a fetch's connection, against a real HTTP server on
// 127.0.0.1: a body read to its end leaves its connection to the fetch
// and its abort signal alone, for aborting a finished fetch frees nothing and
// costs an error with its stack (a crawl pays it per origin); a fetch that did
// not finish (cut at the limit, broken off, timed out) is aborted. Either way
// no connection is left open.
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchRobots, type FetchFunction } from '../../src/index.js';
import { serve, startServer, type Handler, type TestServer } from '../helpers/http-servers.js';

const UA = 'FooBot/1.0 (+https://foo.example/bot)';
const RULES = 'User-agent: *\nDisallow: /private\n';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server of its own (no other test's kept-alive connection to it), counting the connections its requests came on
 * and those closed since. */
async function countingServer(handler: Handler): Promise<{ origin: string; sockets: Set<Socket>; closed: () => number }> {
  const sockets = new Set<Socket>();
  let closed = 0;
  server = await startServer((req, res) => {
    if (!sockets.has(req.socket)) {
      sockets.add(req.socket);
      req.socket.once('close', () => closed++);
    }
    handler(req, res);
  });
  return { origin: server.origin, sockets, closed: () => closed };
}

/** The global fetch, keeping the signal of each request. */
function watched(): { fetch: FetchFunction; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return { signals, fetch: (url, init) => (signals.push(init.signal!), fetch(url, init)) };
}

/** Until every connection the requests came on is closed (the client's close reaches the server when the machine
 * gets to it: a hang guard, not a clock). */
async function allClosed(s: { sockets: Set<Socket>; closed: () => number }): Promise<void> {
  for (let waited = 0; s.closed() < s.sockets.size; waited += 10) {
    if (waited > 10_000) throw new Error(`${s.sockets.size - s.closed()} of ${s.sockets.size} connections still open after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('fetchRobots and the connection of a fetch', () => {
  it('bodies read to their end: no signal aborted, and no connection left open', async () => {
    const s = await countingServer(serve(RULES));
    const { fetch, signals } = watched();
    for (let i = 0; i < 3; i++) {
      const out = await fetchRobots(s.origin, { userAgentHeader: UA, fetch });
      expect(out).toMatchObject({ status: 'ok', reachedLimit: false, body: new TextEncoder().encode(RULES) });
    }
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false, false]);
    await allClosed(s);
    expect(s.sockets.size).toBeGreaterThanOrEqual(1);
  });

  it('a body cut at the limit: aborted, its connection closed', async () => {
    const s = await countingServer(serve(`${RULES}${'#'.repeat(2 << 20)}\n`));
    const { fetch, signals } = watched();
    const out = await fetchRobots(s.origin, { userAgentHeader: UA, fetch });
    expect(out).toMatchObject({ status: 'ok', reachedLimit: true });
    expect(signals[0].aborted).toBe(true);
    await allClosed(s);
    expect(s.sockets.size).toBe(1);
  });

  it('a body that breaks off, and one that hangs past the timeout: aborted, unreachable, their connections closed', async () => {
    const s = await countingServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write(RULES);
      if (req.url === '/broken/robots.txt') setTimeout(() => req.socket.destroy(), 20);
    });
    const { fetch, signals } = watched();
    // (A fetch of a page URL asks for its origin's /robots.txt: the paths tell the server which to break.)
    const broken = await fetchRobots(`${s.origin}/`, { userAgentHeader: UA, fetch: (url, init) => fetch(url.replace('/robots.txt', '/broken/robots.txt'), init) });
    expect(broken).toMatchObject({ status: 'unreachable', httpStatus: 200 });
    const hung = await fetchRobots(s.origin, { userAgentHeader: UA, fetch, timeoutMs: 300 });
    expect(hung).toMatchObject({ status: 'unreachable', reason: 'timeout after 300 ms' });
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
    await allClosed(s);
    expect(s.sockets.size).toBe(2);
  });
});
