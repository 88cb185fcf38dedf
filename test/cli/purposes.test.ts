// `robots explain` and `robots check` show what a crawler may do with a URL's
// content (search, train-ai, ai-use) and the lines behind it (issue 30): as
// text and as JSON, equal to the library's usage() for every crawler asked, in
// both profiles, on Cloudflare's managed file followed by a site's groups.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';
import { CLOUDFLARE } from '../helpers/cloudflare-robots.js';
import { robots } from '../helpers/cli-run.js';

const dir = mkdtempSync(path.join(tmpdir(), 'robots-purposes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
// Cloudflare's file, and a site group with a Content-Usage rule for /blog/ (a legacy label and an unknown key in it).
const BODY = `${CLOUDFLARE}\nUser-agent: *\nContent-Usage: /blog/ train-ai=y, tdm=n, foo=n\n`;
const FILE = path.join(dir, 'robots.txt');
writeFileSync(FILE, BODY);
const line = (text: string) => BODY.split('\n').indexOf(text) + 1;
const SIGNAL = line('Content-Signal: search=yes,ai-train=no');
const BLOG = line('Content-Usage: /blog/ train-ai=y, tdm=n, foo=n');
const URLS = ['https://example.com/blog/post', 'https://example.com/shop', 'https://example.com/admin/users'];

describe('robots explain', () => {
  it('text: the purposes, why, and each key that counted with its line and what it says', async () => {
    const r = await robots(['explain', FILE, 'FooBot', 'https://example.com/blog/post']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain([
      'Purposes: search allowed, train-ai disallowed, ai-use unknown. The Content-Usage rule of the longest pattern that matches the path decides (rules of that pattern combine); every Content-Signal line of the crawler\'s groups counts; per purpose, any disallowed wins, then allowed.',
      `  line ${SIGNAL}: Content-Signal: search=yes  (search allowed)`,
      `  line ${SIGNAL}: Content-Signal: ai-train=no  (train-ai disallowed)`,
      `  line ${BLOG}: Content-Usage: /blog/ train-ai=y  (train-ai allowed)`,
      `  line ${BLOG}: Content-Usage: /blog/ tdm=n  (a label of an earlier AIPREF draft: ignored)`,
      `  line ${BLOG}: Content-Usage: /blog/ foo=n  (speaks to no purpose: ignored)`,
    ].join('\n') + '\n');
    // Disallowed: nothing is implied, and it says why.
    const admin = await robots(['explain', FILE, 'FooBot', 'https://example.com/admin/users']);
    expect(admin.status).toBe(1);
    expect(admin.stdout).toMatch(/\nPurposes: search unknown, train-ai unknown, ai-use unknown\. robots\.txt implies no use preference for a URL the crawler may not fetch \(AIPREF attach\)\.\n$/);
    // Googlebot's own group says nothing of use; Google-Extended's group (a control token) disallows Google's train-ai and ai-use.
    const google = await robots(['explain', FILE, 'Googlebot', 'https://example.com/blog/post']);
    const extended = BODY.split('\n').indexOf('User-agent: Google-Extended') + 2;
    expect(google.stdout).toMatch(/\nPurposes: search unknown, train-ai disallowed, ai-use disallowed\. A control token's verdict states the purposes it governs/);
    expect(google.stdout).toContain(`\n  line ${extended}: control token Google-Extended: disallowed  (train-ai disallowed)\n  line ${extended}: control token Google-Extended: disallowed  (ai-use disallowed)\n`);
  });

  it('vocab-08: a Content-Usage ai-use and a Content-Signal ai-input both speak to ai-use; use= is shown with its value', async () => {
    const file = path.join(dir, 'ai-use.txt');
    writeFileSync(file, 'User-agent: *\nAllow: /\nContent-Usage: ai-use=n\nContent-Signal: ai-input=yes, use=reference\n');
    const r = await robots(['explain', file, 'FooBot', 'https://example.com/a']);
    expect(r.stdout).toContain([
      'Purposes: search unknown, train-ai unknown, ai-use disallowed. The Content-Usage rule of the longest pattern that matches the path decides (rules of that pattern combine); every Content-Signal line of the crawler\'s groups counts; per purpose, any disallowed wins, then allowed.',
      '  line 3: Content-Usage: ai-use=n  (ai-use disallowed)',
      '  line 4: Content-Signal: ai-input=yes  (ai-use allowed)',
      '  line 4: Content-Signal: use=reference  (speaks to no purpose: ignored)',
    ].join('\n') + '\n');
    const json = JSON.parse((await robots(['check', '--format', 'json', file, 'FooBot', 'https://example.com/a'])).stdout);
    expect(json[0].purposes).toEqual({ search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'disallowed' });
    expect(json[0].signals.map((s: { value: string; purpose?: string }) => [s.value, s.purpose ?? null])).toEqual([['ai-use=n', 'ai-use'], ['ai-input=yes', 'ai-use'], ['use=reference', null]]);
  });

  it('--format json: purposes and signals are usage()\'s, in both profiles, for each crawler', async () => {
    for (const profile of ['google', 'rfc'] as const) {
      const lib = parse(BODY, { profile });
      for (const agent of ['FooBot', 'Googlebot-News,Googlebot']) {
        for (const url of URLS) {
          const run = await robots(['explain', '--profile', profile, '--format', 'json', FILE, agent, url]);
          const json = JSON.parse(run.stdout);
          const u = lib.usage(url, agent.split(','));
          expect({ purposes: json.purposes, signals: json.signals }, `${profile} ${agent} ${url}`).toEqual({ purposes: u.purposes, signals: u.signals });
          const { group: _, ...all } = lib.explainAll(url, agent.split(','));
          expect(json).toEqual(all);
        }
      }
    }
  }, 60_000);
});

describe('robots check', () => {
  it('--format json: each URL\'s purposes and signals are usage()\'s, in both profiles, for each crawler', async () => {
    for (const profile of ['google', 'rfc'] as const) {
      const lib = parse(BODY, { profile });
      for (const agent of ['FooBot', 'GPTBot', 'Googlebot-News,Googlebot']) {
        const run = await robots(['check', '--profile', profile, '--format', 'json', FILE, agent, ...URLS]);
        const list = JSON.parse(run.stdout);
        expect(list.map((x: { purposes: unknown; signals: unknown }) => ({ purposes: x.purposes, signals: x.signals })), `${profile} ${agent}`).toEqual(
          URLS.map((url) => {
            const u = lib.usage(url, agent.split(','));
            return { purposes: u.purposes, signals: u.signals };
          }),
        );
        expect(list.map((x: { allowed: boolean; line: number }) => [x.allowed, x.line])).toEqual(URLS.map((url) => [lib.usage(url, agent.split(',')).allowed, lib.usage(url, agent.split(',')).line]));
      }
    }
  }, 60_000);

  it('text: four columns as before; --usage adds search, train-ai, ai-use and the lines that set them', async () => {
    const allow = line('Allow: /');
    const admin = line('Disallow: /admin/');
    const plain = await robots(['check', FILE, 'FooBot', ...URLS]);
    expect(plain.stdout).toBe([
      `allowed\t${allow}\thttps://example.com/blog/post\tAllow: /`,
      `allowed\t${allow}\thttps://example.com/shop\tAllow: /`,
      `disallowed\t${admin}\thttps://example.com/admin/users\tDisallow: /admin/`,
    ].join('\n') + '\n');
    const usage = await robots(['check', '--usage', FILE, 'FooBot', ...URLS]);
    expect(usage.status).toBe(1);
    expect(usage.stdout).toBe([
      `allowed\t${allow}\thttps://example.com/blog/post\tAllow: /\tallowed\tdisallowed\tunknown\t${SIGNAL},${BLOG}`,
      `allowed\t${allow}\thttps://example.com/shop\tAllow: /\tallowed\tdisallowed\tunknown\t${SIGNAL}`,
      `disallowed\t${admin}\thttps://example.com/admin/users\tDisallow: /admin/\tunknown\tunknown\tunknown\t-`,
    ].join('\n') + '\n');
    expect((await robots(['check', '--help'])).stdout.replace(/\s+/g, ' ')).toContain('--usage text: four more columns');
  });
});
