// The benchmark's engine adapters give the verdicts of their libraries called
// directly, on a few cases (no benchmark runs here).
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import { loadAdapters, ADAPTER_MODULES, REFERENCE_MODULES } from '../../bench/adapters/index.mjs';
import { withFiles } from '../../bench/peers/external.mjs';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
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
  it('loads every npm adapter module (the peers are devDependencies here); a reference not built or installed is skipped saying how to get it', () => {
    expect(skipped.filter((s: { module: string }) => !REFERENCE_MODULES.includes(s.module))).toEqual([]);
    for (const s of skipped) expect(s.reason).toMatch(/apt-get install -y /);
    expect(adapters.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(['wasm-google', 'wasm-google-batch', 'wasm-rfc', 'wasm-rfc-batch', ...Object.keys(DIRECT)]));
    expect(ADAPTER_MODULES.length).toBe(12);
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

// The field's references (built by npm run build:peers, or Python's parsers): each skipped
// here when it is absent, as the bench skips it.
const byId = (id: string) => adapters.find((a: { id: string }) => a.id === id);

describe.skipIf(!byId('google-wasm'))("Google's WASM build through its adapter", () => {
  it("gives this engine's google verdicts and lines, the body passed as bytes", () => {
    const adapter = byId('google-wasm');
    for (const agent of AGENTS) {
      const m = parse(file.bytes, { profile: 'google', maxBytes: Infinity }).compile(agent);
      const h = adapter.parse(file, agent);
      expect(h.body).toBeInstanceOf(Uint8Array);
      expect(URLS.map((u) => adapter.isAllowed(h, u))).toEqual(URLS.map((u) => m.isAllowed(u)));
      expect(URLS.map((u) => adapter.explain(h, u))).toEqual(URLS.map((u) => ({ allowed: m.explain(u).allowed, line: m.explain(u).line })));
      m.dispose();
    }
  });
});

describe.skipIf(!byId('google-native'))("Google's native build through its driver", () => {
  it("gives this engine's google verdicts and lines", async () => {
    const adapter = byId('google-native');
    for (const agent of AGENTS) {
      const m = parse(file.bytes, { profile: 'google', maxBytes: Infinity }).compile(agent);
      const got = await withFiles([{ bytes: file.bytes, urls: URLS }], (dir: string, hosts: { host: string; urls: string[] }[]) => adapter.verdicts(hosts[0].urls.map((u) => [hosts[0].host, u]), agent, dir));
      expect(got.map((g: { allowed: boolean; line: number }) => ({ allowed: g.allowed, line: g.line }))).toEqual(URLS.map((u) => ({ allowed: m.explain(u).allowed, line: m.explain(u).line })));
      m.dispose();
    }
  });
});

describe.skipIf(!byId('nzrsky-native'))("nzrsky's fork through its driver", () => {
  it("gives this engine's google verdicts and lines where its URL reading agrees with Google's, and its own on %XX", async () => {
    const adapter = byId('nzrsky-native');
    // Its Matches() percent-decodes %XX in the path before comparing: /%73earch is /search to it
    // (line 5, FooBot's), /%6Eogoogle/a is /nogoogle/a (line 8, Googlebot's); not to Google.
    const decoded: Record<string, [string, number]> = { Googlebot: ['/%6Eogoogle/a', 8], FooBot: ['/%73earch', 5] };
    for (const agent of AGENTS) {
      const urls = [...URLS, ORIGIN + decoded[agent][0]];
      const m = parse(file.bytes, { profile: 'google', maxBytes: Infinity }).compile(agent);
      const got = await withFiles([{ bytes: file.bytes, urls }], (dir: string, hosts: { host: string; urls: string[] }[]) => adapter.verdicts(hosts[0].urls.map((u) => [hosts[0].host, u]), agent, dir));
      const google = urls.map((u) => ({ allowed: m.explain(u).allowed, line: m.explain(u).line }));
      expect(got.slice(0, URLS.length).map((g: { allowed: boolean; line: number }) => ({ allowed: g.allowed, line: g.line }))).toEqual(google.slice(0, URLS.length));
      expect(google.at(-1)).toEqual({ allowed: true, line: 0 });
      expect(got.at(-1)).toMatchObject({ allowed: false, line: decoded[agent][1] });
      m.dispose();
    }
  });
});

describe("this engine in its own process (the native drivers' protocol)", () => {
  it('times the package\'s compile and first verdict over the probes file\'s hosts, and says how many checks allowed', async () => {
    const adapter = byId('wasm-google-own');
    expect(adapter).toMatchObject({ ownProcess: true, cpuClock: true, measures: ['parse', 'first-verdict'] });
    const reps = 2;
    const out = await withFiles([{ bytes: file.bytes, urls: URLS }], (dir: string, hosts: { host: string; urls: string[] }[]) => {
      const tsv = `${dir}/probes.tsv`;
      writeFileSync(tsv, hosts[0].urls.map((u) => `${hosts[0].host}\t${u}\n`).join(''));
      // (The command the rounds run: its own, timed in the thread's CPU time; a later option wins.)
      return spawnSync(adapter.command[0], [...adapter.command.slice(1), '--clock', 'thread', '--bench', dir, tsv, 'Googlebot', String(reps)], { encoding: 'utf8' });
    });
    expect(out.status).toBe(0);
    const summary = JSON.parse(out.stdout.trim());
    expect(summary).toMatchObject({ files: 1, urls: URLS.length, bytes: file.bytes.length, reps, clock: expect.stringMatching(/^(thread|process)$/) });
    // Every pass (warm-up and repetition) checks the first probe (first) and all of them (mix).
    const m = parse(file.bytes, { profile: 'google', maxBytes: Infinity }).compile('Googlebot');
    const allowed = URLS.filter((u) => m.isAllowed(u)).length;
    expect(summary.sink).toBe((summary.warmup + reps) * ((m.isAllowed(URLS[0]) ? 1 : 0) + allowed));
    m.dispose();
    const lines = out.stderr.trim().split('\n');
    expect(lines).toHaveLength(reps);
    for (const l of lines) expect(l).toMatch(/^rep \d+: parse [\d.]+s first [\d.]+s urls [\d.]+s mix [\d.]+s$/);
  });

  it('says what is wrong with its arguments or files, without a stack trace', () => {
    const run = (...args: string[]) => spawnSync(process.execPath, [adapterDriver(), ...args], { encoding: 'utf8' });
    for (const r of [run('--bench', 'only-one'), run('--profile', 'x', '--bench', 'a', 'b', 'c', '1'), run('--bench', '/no/such/dir', '/no/such.tsv', 'Googlebot', '1')]) {
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^(usage|robots-wasm-driver): /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
const adapterDriver = () => byId('wasm-google-own').command[1];

// Python's parsers called directly, as their documentation shows, in the interpreter the adapter found.
const PYTHON_DIRECT: Record<string, string> = {
  'python-urllib': 'import sys, urllib.robotparser as r\np = r.RobotFileParser(); p.parse(sys.argv[1].splitlines())\nprint(" ".join(str(p.can_fetch(sys.argv[2], u)) for u in sys.argv[3:]))',
  'python-protego': 'import sys\nfrom protego import Protego\np = Protego.parse(sys.argv[1])\nprint(" ".join(str(p.can_fetch(u, sys.argv[2])) for u in sys.argv[3:]))',
};
for (const [id, program] of Object.entries(PYTHON_DIRECT)) {
  describe.skipIf(!byId(id))(`${id} through its driver`, () => {
    it("gives its library's verdicts", async () => {
      const adapter = byId(id);
      for (const agent of AGENTS) {
        const direct = spawnSync(adapter.command[0], ['-c', program, BODY, agent, ...URLS], { encoding: 'utf8' }).stdout.trim().split(' ').map((v) => v === 'True');
        const got = await withFiles([{ bytes: file.bytes, urls: URLS }], (dir: string, hosts: { host: string; urls: string[] }[]) => adapter.verdicts(hosts[0].urls.map((u) => [hosts[0].host, u]), agent, dir));
        expect(got.map((g: { allowed: boolean }) => g.allowed)).toEqual(direct);
        expect(direct).toContain(true);
        expect(direct).toContain(false);
      }
    });
  });
}
