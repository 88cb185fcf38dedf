// --robots-dir tells origins apart: each scheme, host and port has its own
// robots.txt (RFC 9309 2.3), at DIR/<scheme>/<host>[:port], else DIR/<host>.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { robots } from './cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-origins-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sites = path.join(dir, 'robots');
for (const [file, rule] of [
  ['e.com', '/host'], // the fallback for every origin of e.com without its own
  ['https/e.com', '/https'],
  ['http/e.com:8080', '/http-8080'],
  ['ftp/e.com', '/ftp'],
]) {
  mkdirSync(path.dirname(path.join(sites, file)), { recursive: true });
  writeFileSync(path.join(sites, file), `User-agent: *\nDisallow: ${rule}\n`);
}

/** The deciding line's rule for each URL: which file decided it. */
const URLS: [string, string][] = [
  ['https://e.com/https', 'disallowed'],
  ['https://e.com/host', 'allowed'], // https has its own file
  ['https://e.com:443/https', 'disallowed'], // the default port is the same origin
  ['HTTPS://E.COM./https', 'disallowed'], // case and a trailing dot too
  ['http://e.com/host', 'disallowed'], // no http/e.com: the host's file
  ['http://e.com:8080/http-8080', 'disallowed'],
  ['http://e.com:8080/host', 'allowed'],
  ['ftp://e.com/ftp', 'disallowed'],
  ['//e.com/host', 'disallowed'], // no scheme: the host's file
  ['https://e.com/https', 'disallowed'], // back again after other origins
];

describe('robots classify --robots-dir: origins', () => {
  for (const threads of ['1', '2']) {
    it(`each origin reads its own robots.txt, in one run of URLs of one host (${threads} thread(s))`, () => {
      const r = robots(['classify', '--robots-dir', sites, '--threads', threads, '-q'], URLS.map(([u]) => u).join('\n') + '\n');
      expect(r.status).toBe(0);
      expect(r.stdout.split('\n').filter(Boolean).map((l) => [l.split('\t')[2], l.split('\t')[0]])).toEqual(URLS);
    });
  }
});
