// --robots-dir tells origins apart: each scheme, host and port has its own
// robots.txt (RFC 9309 2.3), at DIR/<scheme>/<host>[:port], else DIR/<host>.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { robots } from '../helpers/cli-run.js';
import { echoed, SPELLINGS } from '../helpers/host-spellings.js';

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
    it(`each origin reads its own robots.txt, in one run of URLs of one host (${threads} thread(s))`, async () => {
      const r = await robots(['classify', '--robots-dir', sites, '--threads', threads, '-q'], URLS.map(([u]) => u).join('\n') + '\n');
      expect(r.status).toBe(0);
      expect(r.stdout.split('\n').filter(Boolean).map((l) => [l.split('\t')[2], l.split('\t')[0]])).toEqual(URLS);
    });
  }
});

describe('robots classify --robots-dir: every spelling of a host is its origin', () => {
  const canon = path.join(dir, 'canon');
  mkdirSync(canon);
  for (const host of ['127.0.0.1', '[::1]', 'e.com']) writeFileSync(path.join(canon, host), 'User-agent: *\nDisallow: /\n');
  for (const threads of ['1', '2']) {
    it(`IPv4 numbers, IPv6 forms, percent-escapes, backslashes, a trailing dot, user info, ports, IDNA: all disallowed (${threads} thread(s))`, async () => {
      const urls = [...SPELLINGS.map(([u]) => u), 'http://other.com/a', 'http://u@other.com\\@e.com/a'];
      const r = await robots(['classify', '--robots-dir', canon, '--threads', threads, '--format', 'jsonl', '-q'], urls.join('\n') + '\n');
      expect(r.status).toBe(0);
      const got = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
      expect(got.map((l) => [l.url, l.allowed])).toEqual([...SPELLINGS.map(([u]) => [echoed(u), false]), ['http://other.com/a', true], ['http://u@other.com\\@e.com/a', true]]);
    });
  }

  it('--shard: every spelling of a host lands in its shard', async () => {
    const urls = SPELLINGS.map(([u]) => u);
    // (compared as the command echoes them)
    const kept = async (i: number) => (await robots(['classify', '--robots-dir', canon, '--shard', `${i}/4`, '--format', 'jsonl', '-q'], urls.join('\n') + '\n')).stdout.trimEnd().split('\n').filter(Boolean).map((l) => JSON.parse(l).url as string);
    const byShard: string[][] = [];
    for (const i of [0, 1, 2, 3]) byShard.push(await kept(i));
    expect(byShard.flat().sort()).toEqual(urls.map(echoed).sort());
    for (const host of ['127.0.0.1', '[::1]', 'e.com']) {
      const spellings = SPELLINGS.filter(([, h]) => h === host).map(([u]) => echoed(u));
      expect(byShard.filter((s) => s.some((u) => spellings.includes(u))), host).toHaveLength(1);
    }
  });
});
