// `robots serve` over real HTTP requests, without a browser (the page itself is
// web.test.ts's): what the server answers to methods it does not serve.
import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli-run.js';
import { startRobotsServe } from '../helpers/http-servers.js';

let child: ChildProcess;
let origin = '';

beforeAll(async () => {
  ({ child, origin } = await startRobotsServe(process.execPath, [CLI]));
}, 30_000);

afterAll(() => {
  child?.kill('SIGTERM');
});

/** One raw request (node:http, so any method goes as written); status, headers and body. */
function send(method: string, path = '/'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' || method === 'PUT' ? 'x' : undefined);
  });
}

describe('robots serve', () => {
  it('answers a method other than GET and HEAD with 405 and Allow: GET, HEAD (RFC 9110 15.5.6)', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH']) {
      const r = await send(method);
      expect(r.status, method).toBe(405);
      expect(r.headers.allow, method).toBe('GET, HEAD');
    }
    // The methods it serves carry no Allow header and answer as before.
    const get = await send('GET');
    expect(get.status).toBe(200);
    expect(get.headers.allow).toBeUndefined();
    const head = await send('HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });
});
