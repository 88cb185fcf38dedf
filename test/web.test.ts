// The tester page (web/, built into dist/web/) as a webmaster uses it: served by
// `robots serve`, opened in a real headless Chromium (@sparticuz/chromium driven
// by puppeteer-core). Every row's verdict and line must equal the library's on
// corpus files and their probes, in both profiles; compare mode lists the flips
// first; 100,000 URLs finish with the page responsive; the state survives as a
// link. The README's screenshot is written here.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { parse } from '../dist/index.js';
import { HAVE_SHARED, SHARED, corpusFile, readJsonLinesGz } from './shared-data.js';
import { startRobotsServe } from './http-servers.js';

const ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '..');
const CLI = path.join(ROOT, 'dist/cli.js');
const SCREENSHOT = path.join(ROOT, 'docs/tester.png');

let server: ChildProcess;
let origin = '';
let browser: Browser;

/** `robots serve --port 0` from this checkout. */
const startServe = () => startRobotsServe(process.execPath, [CLI]);

beforeAll(async () => {
  ({ child: server, origin } = await startServe());
  browser = await puppeteer.launch({ executablePath: await chromium.executablePath(), args: chromium.args, headless: true, defaultViewport: { width: 1280, height: 800 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
});

interface Watched { page: Page; errors: string[] }

async function openPage(url = `${origin}/`): Promise<Watched> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  await page.waitForSelector('#results[data-state=done]', { timeout: 30_000 });
  return { page, errors };
}

interface Inputs { robots?: string; urls?: string; agent?: string; profile?: 'google' | 'rfc'; compare?: boolean; robotsNext?: string }

/** Sets the fields, presses Check, and waits for that run to end. */
async function check(page: Page, inputs: Inputs): Promise<void> {
  const before = await page.$eval('#results', (e) => Number((e as HTMLElement).dataset.run));
  await page.evaluate((f: Inputs) => {
    const set = (id: string, v: string | undefined) => {
      if (v !== undefined) (document.getElementById(id) as HTMLInputElement).value = v;
    };
    set('robots', f.robots);
    set('urls', f.urls);
    set('agent', f.agent);
    set('profile', f.profile);
    set('robots-next', f.robotsNext);
    if (f.compare !== undefined) (document.getElementById('compare') as HTMLInputElement).checked = f.compare;
  }, inputs);
  await page.click('#check');
  await waitForRun(page, before);
}

async function waitForRun(page: Page, before: number, timeout = 60_000): Promise<void> {
  await page.waitForFunction((b: number) => {
    const r = document.getElementById('results')!;
    return Number(r.dataset.run) > b && (r.dataset.state === 'done' || r.dataset.state === 'error');
  }, { timeout, polling: 50 }, before);
}

type Row = [url: string, verdict: string, line: number];
const rowsOf = (page: Page, selector = '#results [data-url]'): Promise<Row[]> =>
  page.$$eval(selector, (els) => els.map((e) => { const d = (e as HTMLElement).dataset; return [d.url!, d.verdict!, Number(d.line)] as Row; }));

/** The library's rows for what the page holds: the file as text, the URLs as the page splits them. */
function expectedRows(text: string, urls: string[], agent: string, profile: 'google' | 'rfc'): Row[] {
  const robots = parse(text, { profile });
  return urls.map((u) => {
    const v = robots.explain(u, agent);
    return [u, v.allowed ? 'allowed' : 'disallowed', v.line];
  });
}

/** A textarea's value is its text with CR LF and CR made LF (as the page reads it). */
const asTextarea = (octets: Uint8Array): string => new TextDecoder().decode(octets).replace(/\r\n?/g, '\n');

describe('the tester page', () => {
  it('loads with no console error, with its hooks, and classifies its example', async () => {
    const { page, errors } = await openPage();
    for (const id of ['robots', 'urls', 'agent', 'profile', 'check', 'results']) expect(await page.$(`#${id}`), id).not.toBeNull();
    expect(await page.$$eval('#profile option', (os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['google', 'rfc']);
    // Every field has a label.
    expect(await page.$$eval('input, select, textarea', (els) => els.filter((e) => e.id && !document.querySelector(`label[for="${e.id}"]`) && !e.closest('label')).map((e) => e.id))).toEqual([]);
    const text = await page.$eval('#robots', (e) => (e as HTMLTextAreaElement).value);
    const urls = (await page.$eval('#urls', (e) => (e as HTMLTextAreaElement).value)).split('\n').filter((u) => u);
    expect(await rowsOf(page)).toEqual(expectedRows(text, urls, 'Googlebot', 'google'));
    // The example's typo shows on its line.
    expect(await page.$eval('#file-view li[data-line="6"]', (e) => e.textContent)).toMatch(/typo/);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it.skipIf(!HAVE_SHARED)('gives the library\'s verdict and line on every row, for corpus files and their probes, in both profiles', async () => {
    const probes = readJsonLinesGz<{ host: string; url: string }>('corpus/probes-seed1.jsonl.gz');
    const byHost = new Map<string, string[]>();
    for (const p of probes) byHost.set(p.host, [...(byHost.get(p.host) ?? []), p.url]);
    // The files with most rules, the ones with wildcards, a BOM, invalid UTF-8, and an even spread of the rest.
    const index = readFileSync(path.join(SHARED, 'corpus/INDEX.tsv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('\t'));
    const rules = (r: string[]) => Number(r[3]) + Number(r[4]);
    const hosts = new Set<string>([
      ...[...index].sort((a, b) => rules(b) - rules(a)).slice(0, 3).map((r) => r[0]),
      ...index.filter((r) => Number(r[5]) > 5).slice(0, 3).map((r) => r[0]),
      ...index.filter((r) => r[8] === 'yes').slice(0, 1).map((r) => r[0]),
      ...index.filter((r) => r[7] === 'no').slice(0, 1).map((r) => r[0]),
      ...index.filter((_, i) => i % 700 === 0).map((r) => r[0]),
    ].filter((h) => byHost.has(h)));
    const { page, errors } = await openPage();
    let rows = 0;
    for (const host of hosts) {
      const text = asTextarea(corpusFile(host));
      const urls = byHost.get(host)!;
      for (const [profile, agent] of [['google', 'Googlebot'], ['rfc', 'Googlebot'], ['google', 'Googlebot-Image, Bingbot']] as const) {
        await check(page, { robots: text, urls: urls.join('\n'), agent, profile });
        const agents = agent.split(', ');
        const robots = parse(text, { profile });
        const want = urls.map((u): Row => { const v = robots.explain(u, agents); return [u, v.allowed ? 'allowed' : 'disallowed', v.line]; });
        expect(await rowsOf(page), `${host} ${profile} ${agent}`).toEqual(want);
        rows += want.length;
      }
    }
    expect(hosts.size).toBeGreaterThanOrEqual(10);
    expect(rows).toBeGreaterThan(1000);
    expect(errors).toEqual([]);
    await page.close();
  }, 180_000);

  it('follows its fields as they change (input events), and says what is wrong with a crawler name', async () => {
    const { page, errors } = await openPage();
    await check(page, { robots: 'User-agent: FooBot\nDisallow: /a\n', urls: '/a\n/b', agent: 'FooBot', profile: 'rfc', compare: false });
    expect(await rowsOf(page)).toEqual([['/a', 'disallowed', 2], ['/b', 'allowed', 0]]);
    for (const [id, value, want] of [
      ['urls', '/a/x\n/c', [['/a/x', 'disallowed', 2], ['/c', 'allowed', 0]]],
      ['robots', 'User-agent: FooBot\nDisallow: /c\n', [['/a/x', 'allowed', 0], ['/c', 'disallowed', 2]]],
      ['agent', 'BarBot', [['/a/x', 'allowed', 0], ['/c', 'allowed', 0]]],
    ] as const) {
      const before = await page.$eval('#results', (e) => Number((e as HTMLElement).dataset.run));
      await page.$eval(`#${id}`, (e, v) => {
        (e as HTMLInputElement).value = v as string;
        e.dispatchEvent(new Event('input', { bubbles: true }));
      }, value);
      await waitForRun(page, before);
      expect(await rowsOf(page), id).toEqual(want);
    }
    // rfc takes product tokens only: the page says so instead of guessing.
    const before = await page.$eval('#results', (e) => Number((e as HTMLElement).dataset.run));
    await page.$eval('#agent', (e) => {
      (e as HTMLInputElement).value = 'FooBot/1.0';
      e.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitForRun(page, before);
    expect(await page.$eval('#results', (e) => (e as HTMLElement).dataset.state)).toBe('error');
    expect(await page.$eval('#error', (e) => (e as HTMLElement).hidden ? '' : e.textContent)).toMatch(/FooBot\/1\.0/);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('explains a result on click, highlights its line, and lists the URLs a line decides', async () => {
    const { page, errors } = await openPage();
    const robots = 'User-agent: *\nDisallow: /private/\nAllow: /private/press/\nDisallow: /*.pdf$\n';
    await check(page, { robots, urls: '/\n/private/x\n/private/press/a\n/a.pdf\n/private/y', agent: 'Googlebot', profile: 'google', compare: false });
    await page.click('#results [data-url="/private/x"]');
    const text = await page.$eval('#explanation', (e) => e.textContent!);
    expect(text).toMatch(/DISALLOWED/);
    expect(text).toMatch(/line 2: Disallow: \/private\/ \(length 9\)/);
    expect(await page.$$eval('#file-view li.decides', (els) => els.map((e) => (e as HTMLElement).dataset.line))).toEqual(['2']);
    // The keyboard moves through the results.
    await page.keyboard.press('ArrowDown');
    expect(await page.$eval('#results [aria-selected=true]', (e) => (e as HTMLElement).dataset.url)).toBe('/private/press/a');
    expect(await page.$eval('#explanation', (e) => e.textContent!)).toMatch(/ALLOWED.*longest/);
    // A line of the file: only the URLs it decides stay shown.
    await page.click('#file-view li[data-line="2"]');
    const shown = await page.$$eval('#results [data-url]', (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => (e as HTMLElement).dataset.url));
    expect(shown).toEqual(['/private/x', '/private/y']);
    await page.click('#clear-filter');
    expect(await page.$$eval('#results [data-url]', (els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).length)).toBe(5);
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('compares two versions: the URLs whose verdict changes come first', async () => {
    const { page, errors } = await openPage();
    const now = 'User-agent: *\nDisallow: /private/\n';
    const next = 'User-agent: *\nDisallow: /private/\nDisallow: /drafts\nAllow: /private/ok\n';
    const urls = ['/', '/drafts/1', '/private/ok/x', '/private/no', '/public', '/drafts'];
    await check(page, { robots: now, robotsNext: next, urls: urls.join('\n'), agent: 'Googlebot', profile: 'google', compare: true });
    const a = parse(now, { profile: 'google' });
    const b = parse(next, { profile: 'google' });
    const flips = urls.filter((u) => a.isAllowed(u, 'Googlebot') !== b.isAllowed(u, 'Googlebot'));
    expect(flips).toEqual(['/drafts/1', '/private/ok/x', '/drafts']);
    const rows = await page.$$eval('#results [data-url]', (els) => els.map((e) => ({ ...(e as HTMLElement).dataset })));
    expect(rows.map((r) => r.url)).toEqual([...flips, ...urls.filter((u) => !flips.includes(u))]);
    for (const r of rows) {
      expect([r.verdict, Number(r.line)], r.url).toEqual([a.isAllowed(r.url!, 'Googlebot') ? 'allowed' : 'disallowed', a.explain(r.url!, 'Googlebot').line]);
      expect([r.verdictNext, Number(r.lineNext)], r.url).toEqual([b.isAllowed(r.url!, 'Googlebot') ? 'allowed' : 'disallowed', b.explain(r.url!, 'Googlebot').line]);
      expect(r.changed, r.url).toBe(String(flips.includes(r.url!)));
    }
    expect(await page.$eval('#summary', (e) => (e as HTMLElement).dataset.changed)).toBe('3');
    expect(await page.$eval('#changed-heading', (e) => e.textContent)).toBe('Verdict changes (3)');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('keeps its state in the link: a new tab opened on it shows the same inputs and results', async () => {
    const { page, errors } = await openPage();
    const inputs = { robots: 'User-agent: FooBot\nDisallow: /é\n', urls: '/é\n/%C3%A9\n/e', agent: 'FooBot', profile: 'rfc' as const, compare: false };
    await check(page, inputs);
    const rows = await rowsOf(page);
    expect(rows).toEqual([['/é', 'disallowed', 2], ['/%C3%A9', 'disallowed', 2], ['/e', 'allowed', 0]]);
    await page.waitForFunction(() => location.hash.startsWith('#s='), { timeout: 10_000 });
    // The fragment follows the last change (it is written a little after it).
    await new Promise((r) => setTimeout(r, 500));
    const link = page.url();
    expect(link).not.toMatch(/FooBot|Disallow/); // compressed, and never sent to the server
    const other = await openPage(link);
    expect(await other.page.$eval('#robots', (e) => (e as HTMLTextAreaElement).value)).toBe(inputs.robots);
    expect(await other.page.$eval('#profile', (e) => (e as HTMLSelectElement).value)).toBe('rfc');
    expect(await rowsOf(other.page)).toEqual(rows);
    expect([...errors, ...other.errors]).toEqual([]);
    await other.page.close();
    await page.close();
  }, 60_000);

  it('classifies 100,000 URLs in its worker, the page responsive all along, with the counts', async () => {
    const { page, errors } = await openPage();
    const robots = 'User-agent: *\nDisallow: /*?\nDisallow: /search\nAllow: /search/about\nDisallow: /*.php$\n';
    const urls = Array.from({ length: 100_000 }, (_, i) => `https://example.com/${['search', 'a', 'x.php', 'b?q', 'search/about'][i % 5]}/${i}${i % 3 === 0 ? '.php' : ''}`);
    const expected = parse(robots, { profile: 'google' }).compile('Googlebot').checkMany(urls);
    const allowed = expected.reduce((a, v) => a + v, 0);
    // The field first: Chromium lays out a textarea of 100,000 lines in about a second, whoever fills it.
    await page.evaluate(async (text: string, body: string) => {
      (document.getElementById('urls') as HTMLTextAreaElement).value = text;
      (document.getElementById('robots') as HTMLTextAreaElement).value = body;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    }, urls.join('\n'), robots);
    // Then the page's main thread, sampled every 20 ms while it works: the longest gap is how long it froze.
    await page.evaluate(() => {
      const w = window as unknown as { gaps: number[] };
      w.gaps = [];
      let last = performance.now();
      setInterval(() => {
        const t = performance.now();
        w.gaps.push(t - last);
        last = t;
      }, 20);
    });
    await check(page, { agent: 'Googlebot', profile: 'google', compare: false });
    expect(await page.$eval('#summary', (e) => [Number((e as HTMLElement).dataset.allowed), Number((e as HTMLElement).dataset.disallowed)])).toEqual([allowed, urls.length - allowed]);
    expect(await page.$eval('#summary', (e) => e.textContent)).toMatch(/^100,000 URLs: [\d,]+ allowed, [\d,]+ disallowed\.$/);
    // One element per URL, in order, with the library's verdict (read in the page: 100,000 handles would not cross).
    const rows = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('#results [data-url]')].map((e) => (e.dataset.verdict === 'allowed' ? '1' : '0')).join(''));
    expect(rows).toBe(Array.from(expected).join(''));
    const gaps = await page.evaluate(() => (window as unknown as { gaps: number[] }).gaps);
    // Classifying is in the worker; the page only adds rows, 1,000 at a time.
    expect(gaps.length).toBeGreaterThan(10);
    expect(Math.max(...gaps)).toBeLessThan(1_000);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000);

  it('writes the README\'s screenshot', async () => {
    const { page, errors } = await openPage();
    await page.click('#results [data-url="https://example.com/private/accounts"]');
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect(readFileSync(SCREENSHOT).subarray(1, 4).toString()).toBe('PNG');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('robots serve', () => {
  it('serves the page\'s files only, with its content policy', async () => {
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/connect-src 'none'/);
    expect(await page.text()).toMatch(/<textarea id="robots"/);
    for (const f of ['app.js', 'worker.js', 'style.css']) expect((await fetch(`${origin}/${f}`)).status, f).toBe(200);
    for (const p of ['/../cli.js', '/..%2Fcli.js', '/%2e%2e/cli.js', '/index.d.ts', '/nothing.html', '/%00.html', '/%zz']) {
      expect((await fetch(`${origin}${p}`)).status, p).toBeGreaterThanOrEqual(400);
    }
    expect((await fetch(`${origin}/`, { method: 'POST', body: 'x' })).status).toBe(405);
  });

  it('says what is wrong with a port or an address, exit 2', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      for (const [args, message] of [
        [['--port', String(port)], `port ${port} is in use on 127.0.0.1`],
        [['--port', '70000'], '--port must be a port number'],
        [['--port', 'abc'], '--port must be a port number'],
        [['--host', '203.0.113.7', '--port', '0'], 'cannot listen on 203.0.113.7'],
      ] as const) {
        const r = spawnSync(process.execPath, [CLI, 'serve', ...args], { encoding: 'utf8', timeout: 20_000 });
        expect(r.status, args.join(' ')).toBe(2);
        expect(r.stderr, args.join(' ')).toContain(message);
        expect(r.stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      busy.close();
    }
  });

  it('stops cleanly on SIGTERM', async () => {
    const { child } = await startServe();
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', (c) => resolve(c));
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  });
});
