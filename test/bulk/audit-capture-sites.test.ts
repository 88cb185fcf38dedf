// The audit's sites of captures (captureSites): a key that is a plain robots.txt URL (new URL()'s
// own form: http or https, lower-case labels, no port: nearly every capture's) is split where it
// stands, not parsed; any other is parsed. Either way each site is what new URL() makes of its key
// (a count of the parses, not a clock).
import { describe, expect, it } from 'vitest';
import { captureSites, siteUrlParses } from '../../src/bulk/audit/audit-sites.js';
import type { WarcCapture, WarcIndexData } from '../../src/bulk/sources/warc/warc-index.js';

const plain = ['https://example.com/robots.txt', 'http://a-b.c0.example.org/robots.txt', 'https://localhost/robots.txt', 'http://x/robots.txt'];
const other = [
  'https://example.com:8443/robots.txt', 'http://127.0.0.1/robots.txt', 'https://[::1]/robots.txt', 'https://xn--bcher-kva.example/robots.txt',
  'ftp://example.com/robots.txt', 'https://user@example.net/robots.txt',
];
const notSites = ['https://example.com/robots.txt?x=1', 'https://example.com/a/robots.txt', 'https://example.com/'];
const capture: WarcCapture = { date: 0, status: 404, location: null, bodyAt: 0, bodyLength: 0 };
const data: WarcIndexData = { spill: null, captures: new Map([...plain, ...other, ...notSites].map((k) => [k, capture])) };

/** What a site was made of its key by parsing it (captureSites before). */
function parsed(key: string) {
  const u = new URL(key);
  const scheme = u.protocol.slice(0, -1);
  const site = `${scheme}://${u.host}`;
  return { site, url: `${site}/`, origin: { scheme, host: u.hostname, port: u.port } };
}

describe("the audit's sites of captures", () => {
  it('are what new URL() makes of their keys, the plain keys split without parsing them', () => {
    const before = siteUrlParses.count;
    const sites = captureSites(data);
    const expected = [...plain, ...other].filter((k) => new URL(k).pathname === '/robots.txt').sort().map(parsed);
    expect(sites.map(({ site, url, origin }) => ({ site, url, origin }))).toEqual(expected);
    // (Parsed: the keys that are not plain, and those that do not end in /robots.txt's path alone.)
    expect(siteUrlParses.count - before).toBe(other.length + notSites.filter((k) => k.endsWith('/robots.txt')).length);
  });

  it('read each robots.txt by its key', () => {
    // (A key with user info names a site whose own robots.txt URL was not captured.)
    for (const s of captureSites(data)) expect(s.robots().kind).toBe(data.captures.has(`${s.site}/robots.txt`) ? 'unavailable' : 'missing');
  });
});
