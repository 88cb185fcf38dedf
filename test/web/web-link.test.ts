// The tester page's link (web/state.ts): the state in the URL fragment, read
// back within the page's limits whatever the link holds. A link is someone
// else's input: 544 KB of fragment can inflate to 400 MiB. These run the
// page's own module in Node (fflate, TextDecoder and CompressionStream are
// there too); test/web/web.test.ts opens such links in Chromium.
import { randomBytes } from 'node:crypto';
import { Inflate } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_MAX_BYTES } from '../../src/index.js';
import { decodeState, encodeState, EXAMPLE, LINK_LIMITS, type State } from '../../web/state.js';
import { bombLink, linkOfJson as link } from '../helpers/link-bombs.js';

const octets = (s: string): number => Buffer.byteLength(s, 'utf8');

describe('the tester page\'s link', () => {
  it('gives back the state it was made of, with nothing cut', async () => {
    const state: State = { robots: 'User-agent: *\nDisallow: /é\n', urls: '/é\n/"q"\\\n', agent: 'FooBot, Bar_bot', profile: 'rfc', compare: true, robotsNext: 'User-agent: *\nAllow: /\u2028😀\n' };
    for (const s of [state, EXAMPLE]) expect(decodeState(await encodeState(s))).toEqual({ state: s, cuts: [] });
  });

  it('keeps a robots.txt to the 512,000 octets a parser reads, cut between characters, and says so', () => {
    // 'é' is two octets: 300,000 of them are 600,000 octets; the page keeps 256,000 whole ones.
    const d = decodeState(link(JSON.stringify({ robots: 'é'.repeat(300_000), urls: '/a', agent: 'Googlebot', profile: 'google', compare: false, robotsNext: 'x'.repeat(DEFAULT_MAX_BYTES + 1) })))!;
    expect(d.state.robots).toBe('é'.repeat(256_000));
    expect(d.state.robotsNext).toBe('x'.repeat(DEFAULT_MAX_BYTES));
    expect(d.state.urls).toBe('/a');
    expect(d.cuts).toEqual([
      'The link\'s robots.txt is longer than 512,000 octets, all a parser reads: the page kept the first 512,000.',
      'The link\'s new version of robots.txt is longer than 512,000 octets, all a parser reads: the page kept the first 512,000.',
    ]);
    // At the limit exactly: nothing cut.
    expect(decodeState(link(JSON.stringify({ robots: 'x'.repeat(DEFAULT_MAX_BYTES) })))!.cuts).toEqual([]);
  });

  it('keeps the first 100,000 URLs of a list, or its first 4 MiB in whole lines', () => {
    const many = Array.from({ length: 100_005 }, (_, i) => `/p/${i}`);
    const d = decodeState(link(JSON.stringify({ robots: '', urls: many.join('\n') })))!;
    expect(d.state.urls.split('\n').filter((u) => u)).toEqual(many.slice(0, 100_000));
    expect(d.cuts).toEqual(['The link\'s URL list is longer than the page takes from a link (100,000 URLs, 4 MiB): the page kept the first 100,000 URLs.']);
    // 100-octet URLs: 4 MiB hold 41,943 whole lines (the 41,944th is cut short, so dropped).
    const long = Array.from({ length: 50_000 }, (_, i) => `/${String(i).padStart(98, 'p')}`);
    const e = decodeState(link(JSON.stringify({ urls: long.join('\n') })))!;
    const kept = e.state.urls.split('\n').filter((u) => u);
    expect(kept).toEqual(long.slice(0, Math.floor(LINK_LIMITS.urlOctets / 100)));
    expect(octets(e.state.urls)).toBeLessThanOrEqual(LINK_LIMITS.urlOctets);
    expect(e.cuts).toEqual(['The link\'s URL list is longer than the page takes from a link (100,000 URLs, 4 MiB): the page kept the first 41,943 URLs.']);
    // Exactly 100,000: nothing cut.
    expect(decodeState(link(JSON.stringify({ urls: many.slice(0, 100_000).join('\n') })))!.cuts).toEqual([]);
  });

  it('stops inflating a link at its limit: 550 KB that inflate to 400 MiB (the issue\'s), 1.4 MB that inflate to 1 GiB', async () => {
    const head = '{"robots":"User-agent: *\\nDisallow: /private/\\n# ';
    const tail = '","urls":"/a","agent":"Googlebot"}';
    const issue = await bombLink(head, 'x', 400, tail);
    expect(issue.length).toBeGreaterThan(500_000);
    expect(issue.length).toBeLessThan(600_000);
    expect(decodeState(issue)!.state.robots.length).toBe(DEFAULT_MAX_BYTES);
    // 1 GiB: more than a string can hold (V8: 2^29 - 24 units), so reading it whole could only fail.
    const hash = await bombLink(head, 'x', 1024, tail);
    const pushed = vi.spyOn(Inflate.prototype, 'push');
    const d = decodeState(hash)!;
    const octetsIn = pushed.mock.calls.reduce((n, [chunk]) => n + chunk.length, 0);
    pushed.mockRestore();
    expect(d.state.robots.startsWith('User-agent: *\nDisallow: /private/\n# xxx')).toBe(true);
    expect(octets(d.state.robots)).toBe(DEFAULT_MAX_BYTES);
    // The fields past the limit were never inflated: the defaults stand.
    expect([d.state.urls, d.state.agent]).toEqual(['', 'Googlebot']);
    expect(d.cuts).toEqual([
      'The link\'s robots.txt is longer than 512,000 octets, all a parser reads: the page kept the first 512,000.',
      'The link\'s state inflates past 6 MiB, more than the page reads from a link: the rest is ignored.',
    ]);
    // 6 MiB inflated from a few KiB of the link's 1.4 MB, not 1 GiB from all of it: the work counted, not timed
    // (a 3 s clock here failed beside other suites on a loaded machine).
    expect(octetsIn).toBeGreaterThan(0);
    expect(octetsIn).toBeLessThan(64 * 1024);
  });

  it('reads a link to its first 2 MiB, and crawler names to 10,000 octets', () => {
    // 3 MB of random text deflate to about 2.3 MB, 3 MB of link: past the 2 MiB Chromium takes anyway.
    const random = randomBytes(2_250_000).toString('base64');
    const long = link(JSON.stringify({ robots: random, urls: '/a' }));
    expect(long.length).toBeGreaterThan(LINK_LIMITS.fragmentChars);
    const d = decodeState(long)!;
    expect(d.state.robots).toBe(random.slice(0, DEFAULT_MAX_BYTES));
    expect(d.cuts).toEqual([
      'The link is longer than 2 MiB: the page read its first 2 MiB.',
      'The link is cut short (its state ends mid-way): the page shows what it holds up to there.',
      'The link\'s robots.txt is longer than 512,000 octets, all a parser reads: the page kept the first 512,000.',
    ]);
    const names = decodeState(link(JSON.stringify({ agent: 'FooBot, '.repeat(2_000) })))!;
    expect(octets(names.state.agent)).toBe(LINK_LIMITS.agentOctets);
    expect(names.cuts).toEqual(['The link\'s crawler names are longer than 10,000 octets: the page kept the first 10,000.']);
  });

  it('reads what it can of a link cut short, and nothing of one that is not a state', () => {
    const robots = 'User-agent: *\n' + Array.from({ length: 300 }, (_, i) => `Disallow: /p${(i * 7919) % 1000}/q${i}\n`).join('');
    const full = link(JSON.stringify({ robots, urls: '/x\n/y', agent: 'FooBot', profile: 'rfc' }));
    const cut = decodeState(full.slice(0, full.length >> 1))!;
    expect(cut.state.robots.length).toBeGreaterThan(1000);
    expect(robots.startsWith(cut.state.robots)).toBe(true);
    expect(cut.state.urls).toBe('');
    expect(cut.cuts).toEqual(['The link is cut short (its state ends mid-way): the page shows what it holds up to there.']);
    for (const bad of ['#s=', '#s=!!!!', '#s=' + Buffer.from('not deflate at all').toString('base64url'), link('[1,2]'), link('"s"'), '#x=abc', '']) {
      expect(decodeState(bad), bad).toBeNull();
    }
  });
});
