// The benchmark's engine adapters give the verdicts of their libraries called
// directly, on a few cases (no benchmark runs here).
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { loadAdapters, ADAPTER_MODULES } from '../../bench/adapters/index.mjs';
import { pathOf } from '../../bench/adapters/url-path.mjs';
import { parse } from '../../dist/index.js';

const require = createRequire(import.meta.url);
const ORIGIN = 'https://shop.example';
const BODY = [
  'User-agent: *',
  'Disallow: /private/',
  'Allow: /private/public',
  'Disallow: /*.pdf$',
  'Disallow: /search',
  '',
  'User-agent: Googlebot',
  'Disallow: /nogoogle/',
  'Allow: /nogoogle/yes',
  '',
].join('\n');
const URLS = ['/', '/private/x', '/private/public/a', '/doc.pdf', '/doc.pdf?x', '/search?q=1', '/nogoogle/a', '/nogoogle/yes', '/a#frag'].map((p) => ORIGIN + p);
const AGENTS = ['Googlebot', 'FooBot'];
const file = { text: BODY, bytes: new TextEncoder().encode(BODY), origin: ORIGIN };

type Direct = (agent: string) => Promise<(url: string) => boolean>;
// Each library as its README documents it, without the adapter.
const DIRECT: Record<string, Direct> = {
  'wasm-google': async () => (url) => parse(file.bytes, { profile: 'google', maxBytes: Infinity }).isAllowed(url, 'Googlebot'),
  'robots-parser': async (agent) => {
    const robots = require('robots-parser')(`${ORIGIN}/robots.txt`, BODY);
    return (url) => robots.isAllowed(url, agent);
  },
  'robots-txt-guard': async (agent) => {
    const guard = require('robots-txt-guard')(await require('robots-txt-parse')(Readable.from([BODY])));
    return (url) => guard.isAllowed(agent, new URL(url).pathname + new URL(url).search);
  },
  'robots-txt-parser': async (agent) => {
    const robots = require('robots-txt-parser')({ userAgent: agent, allowOnNeutral: true });
    robots.parseRobots(ORIGIN, BODY);
    return (url) => robots.canCrawlSync(url);
  },
  robots: async (agent) => {
    const parser = new (require('robots').RobotsParser)(null, null);
    parser.parse(BODY.split('\n'));
    return (url) => parser.canFetchSync(agent, new URL(url).pathname + new URL(url).search);
  },
  exclusion: async (agent) => {
    const { RobotsTxt } = await import('exclusion');
    const robots = new RobotsTxt(BODY);
    return (url) => robots.isPathAllowed(new URL(url).pathname + new URL(url).search, agent);
  },
};

const { adapters, skipped } = await loadAdapters();

describe('bench adapters', () => {
  it('loads every adapter module (the peers are devDependencies here)', () => {
    expect(skipped).toEqual([]);
    expect(adapters.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(['wasm-google', 'wasm-google-batch', 'wasm-rfc', 'wasm-rfc-batch', ...Object.keys(DIRECT)]));
    expect(ADAPTER_MODULES.length).toBe(6);
  });

  it('skips a module whose library is not installed, saying so', async () => {
    const result = await loadAdapters(['./no-such-engine.mjs']);
    expect(result.adapters).toEqual([]);
    expect(result.skipped).toEqual([{ module: 'no-such-engine', reason: 'not installed' }]);
  });

  for (const [id, direct] of Object.entries(DIRECT)) {
    for (const agent of id === 'wasm-google' ? ['Googlebot'] : AGENTS) {
      it(`${id} (${agent}) returns its library's verdicts`, async () => {
        const adapter = adapters.find((a: { id: string }) => a.id === id);
        const handle = await adapter.parse(file, agent);
        const check = await direct(agent);
        const viaAdapter = URLS.map((u) => adapter.isAllowed(handle, u));
        expect(viaAdapter).toEqual(URLS.map((u) => check(u)));
        // The cases tell allowed from disallowed: a constant verdict would not pass.
        expect(viaAdapter).toContain(true);
        expect(viaAdapter).toContain(false);
        adapter.release?.(handle);
      });
    }
  }

  it('checkMany variants agree with single checks, per profile', async () => {
    for (const profile of ['google', 'rfc']) {
      const single = adapters.find((a: { id: string }) => a.id === `wasm-${profile}`);
      const batch = adapters.find((a: { id: string }) => a.id === `wasm-${profile}-batch`);
      const h1 = single.parse(file, 'Googlebot');
      const h2 = batch.parse(file, 'Googlebot');
      expect(Array.from(batch.checkMany(h2, URLS), Boolean)).toEqual(URLS.map((u) => single.isAllowed(h1, u)));
      expect(batch.sameParseAs).toBe(single.id);
      single.release(h1);
      batch.release(h2);
    }
  });

  it('pathOf takes path and query, drops the fragment, and always starts with /', () => {
    expect(pathOf('https://a.example/x/y?q=1#f')).toBe('/x/y?q=1');
    expect(pathOf('https://a.example')).toBe('/');
    expect(pathOf('https://a.example?q')).toBe('/?q');
    expect(pathOf('/rel/path')).toBe('/rel/path');
    expect(pathOf('http://a.example:8080/p%41')).toBe('/p%41');
  });
});
