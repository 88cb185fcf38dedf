// The tester page's matrix (issue 40, item 6): for the URL picked, what each
// operator may do with it (rows the 14 operators, columns fetch, search,
// train-ai and ai-use), each cell the library's word (RobotsTxt.operatorUsage)
// with the lines behind it in its title (hover) and under the matrix on a tap;
// on a 390 × 844 phone, in a real headless Chromium (@sparticuz/chromium driven
// by puppeteer-core), the page served by `robots serve`.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Browser, Page } from 'puppeteer-core';
import { OPERATORS, parse, type OperatorUsage } from '../../dist/index.js';
import { startRobotsServe } from '../helpers/http-servers.js';
import { launchChromium } from '../helpers/headless-chromium.js';

const CLI = path.join(path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../..'), 'dist/cli.js');
const PURPOSES = ['search', 'train-ai', 'ai-use'] as const;
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true };

let server: ChildProcess;
let origin = '';
let browser: Browser;

beforeAll(async () => {
  ({ child: server, origin } = await startRobotsServe(process.execPath, [CLI]));
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  server?.kill('SIGTERM');
});

async function openPhone(): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  await page.setViewport(PHONE);
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warn') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${origin}/`);
  await page.waitForSelector('#results[data-state=done]', { timeout: 30_000 });
  return { page, errors };
}

/** Sets the file, the URLs, the crawler and the profile, presses Check, and waits for that run. */
async function check(page: Page, robots: string, urls: string[], agent: string, profile: 'google' | 'rfc'): Promise<void> {
  const before = await page.$eval('#results', (e) => Number((e as HTMLElement).dataset.run));
  await page.evaluate((f) => {
    const set = (id: string, v: string) => ((document.getElementById(id) as HTMLInputElement).value = v);
    set('robots', f.robots);
    set('urls', f.urls);
    set('agent', f.agent);
    set('profile', f.profile);
    (document.getElementById('compare') as HTMLInputElement).checked = false;
  }, { robots, urls: urls.join('\n'), agent, profile });
  await page.click('#check');
  await page.waitForFunction((b: number) => {
    const r = document.getElementById('results')!;
    return Number(r.dataset.run) > b && (r.dataset.state === 'done' || r.dataset.state === 'error');
  }, { timeout: 60_000, polling: 50 }, before);
}

/** The matrix on the page: per operator, its cells' words and lines. */
type Matrix = [id: string, cells: [word: string, lines: string][]][];
const matrixOf = (page: Page): Promise<Matrix> =>
  page.$$eval('#operators tbody tr', (rows) => rows.map((r) => [(r as HTMLElement).dataset.operator!, [...r.querySelectorAll('td')].map((td) => [td.dataset.answer!, td.dataset.lines!])] as Matrix[number]));

/** The library's matrix: fetch is yes when all the operator's crawlers for the purposes may fetch, no when none, some between, unknown without one. */
function expectedMatrix(answers: OperatorUsage[]): Matrix {
  const lines = (ns: number[]) => [...new Set(ns)].filter((n) => n > 0).sort((a, b) => a - b).join(' ');
  return answers.map((a) => {
    const fetches = [...new Map(PURPOSES.flatMap((p) => (a.purposes[p].fetch ? [[a.purposes[p].fetch!.crawler, a.purposes[p].fetch!] as const] : []))).values()];
    const allowed = fetches.filter((f) => f.allowed).length;
    const fetch = fetches.length === 0 ? 'unknown' : allowed === fetches.length ? 'yes' : allowed === 0 ? 'no' : 'some';
    return [a.operator.id, [
      [fetch, lines([...fetches, ...a.user].map((f) => f.line))],
      ...PURPOSES.map((p) => [a.purposes[p].answer, lines([a.purposes[p].fetch?.line ?? 0, ...a.purposes[p].signals.map((s) => s.line)])] as [string, string]),
    ]];
  });
}

// GPTBot's group disallows /private/ and says no to training (line 3); Google-Extended, a control token, disallows everything (line 6).
const FILE = 'User-agent: GPTBot\nDisallow: /private/\nContent-Usage: train-ai=n\n\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: *\nAllow: /\nContent-Signal: search=yes\n';

describe('the tester page\'s operators matrix', () => {
  it('shows each operator\'s answer for the URL picked, the library\'s, with the lines behind each cell on hover and on a tap, at 390 px without overflowing', async () => {
    const { page, errors } = await openPhone();
    await check(page, FILE, ['https://a.example/x', 'https://a.example/private/y'], 'GPTBot', 'google');
    await page.click('#results [data-url="https://a.example/x"]');
    const library = parse(FILE, { profile: 'google' });
    const matrix = await matrixOf(page);
    expect(matrix.map(([id]) => id)).toEqual(OPERATORS.map((o) => o.id));
    expect(matrix).toEqual(expectedMatrix(OPERATORS.map((o) => library.operatorUsage('https://a.example/x', o))));
    // By hand: OpenAI may fetch and search (line 10 says so) but not train (line 3); Google may not train or use for AI (line 6).
    expect(matrix.find(([id]) => id === 'openai')).toEqual(['openai', [['yes', '9'], ['yes', '9 10'], ['no', '3'], ['unknown', '']]]);
    expect(matrix.find(([id]) => id === 'google')![1].map(([w]) => w)).toEqual(['yes', 'yes', 'no', 'no']);
    // Hover: the title says the lines behind the cell.
    const cell = '#operators tr[data-operator="openai"] td[data-column="train-ai"] button';
    expect(await page.$eval(cell, (b) => (b as HTMLElement).title)).toBe("GPTBot may fetch it: no rule matched\nthe site's preference: disallowed\nline 3: Content-Usage train-ai=n (train-ai disallowed)");
    // A tap: the lines under the matrix, the cell marked as the one shown.
    await page.tap(cell);
    expect(await page.$eval('#operators .matrix-lines', (e) => [(e as HTMLElement).dataset.operator, (e as HTMLElement).dataset.column, e.textContent])).toEqual(['openai', 'train-ai', "OpenAI, train-ai: noGPTBot may fetch it: no rule matchedthe site's preference: disallowedline 3: Content-Usage train-ai=n (train-ai disallowed)"]);
    expect(await page.$eval(cell, (b) => b.getAttribute('aria-pressed'))).toBe('true');
    await page.tap('#operators tr[data-operator="google"] td[data-column="ai-use"] button');
    expect(await page.$eval('#operators .matrix-lines', (e) => e.textContent)).toBe("Google, ai-use: noGooglebot may fetch it: line 9the site's preference: disallowedline 6: control token Google-Extended's verdict (ai-use disallowed)");
    expect(await page.$$eval('#operators button[aria-pressed=true]', (bs) => bs.length)).toBe(1);
    // A URL GPTBot may not fetch: OpenAI's fetch is some (OAI-SearchBot may), train-ai no by line 2.
    await page.click('#results [data-url="https://a.example/private/y"]');
    const openai = (await matrixOf(page)).find(([id]) => id === 'openai')!;
    expect(openai[1][0][0]).toBe('some');
    expect(openai[1][2]).toEqual(['no', '2']);
    // At 390 px: nothing is wider than the page, the matrix fits its box, and each cell's word shows whole.
    const fit = await page.evaluate(() => {
      const table = document.querySelector('#operators table') as HTMLElement;
      const cut = [...document.querySelectorAll<HTMLElement>('#operators button.answer, #operators th')].filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > document.documentElement.clientWidth).map((e) => e.textContent);
      return { page: [document.documentElement.scrollWidth, document.documentElement.clientWidth], table: [table.scrollWidth, table.getBoundingClientRect().right], cut };
    });
    expect(fit.page[0]).toBeLessThanOrEqual(fit.page[1]);
    expect(fit.table[1]).toBeLessThanOrEqual(fit.page[1]);
    expect(fit.cut).toEqual([]);
    // Closed, it stays closed for the next URL picked.
    await page.tap('#operators > summary');
    await page.click('#results [data-url="https://a.example/x"]');
    expect(await page.$eval('#operators', (d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(errors).toEqual([]);
    await page.close();
  }, 120_000); // (a hang guard: a browser on a busy machine)

  it('says what the library says on random files of groups of crawlers, control tokens and use lines, in both profiles', async () => {
    const { page, errors } = await openPhone();
    const line = fc.constantFrom(
      'User-agent: GPTBot', 'User-agent: OAI-SearchBot', 'User-agent: Googlebot', 'User-agent: ClaudeBot', 'User-agent: Applebot', 'User-agent: *',
      'User-agent: Google-Extended', 'User-agent: Applebot-Extended', 'User-agent: ChatGPT-User',
      'Disallow: /', 'Disallow: /a', 'Allow: /a/b', 'Disallow: /x', 'Allow: /',
      'Content-Usage: train-ai=n', 'Content-Usage: /a search=n, ai-use=y', 'Content-Usage: search=y, train-ai=y', 'Content-Signal: search=no, ai-train=no', 'Content-Signal: ai-input=yes', '',
    );
    const files = fc.sample(fc.array(line, { maxLength: 14 }), { numRuns: 8, seed: 406 }).map((ls) => ls.join('\n') + '\n');
    const urls = ['https://s.example/', 'https://s.example/a', 'https://s.example/a/b', 'https://s.example/x'];
    const words = new Set<string>();
    let cells = 0;
    for (const profile of ['rfc', 'google'] as const) {
      for (const [k, robots] of files.entries()) {
        await check(page, robots, urls, 'Googlebot', profile);
        const library = parse(robots, { profile });
        // Two URLs of the four a file, each asked across the files.
        for (const url of [urls[k % 4], urls[(k + 1) % 4]]) {
          await page.click(`#results [data-url="${url}"]`);
          const matrix = await matrixOf(page);
          expect(matrix, `${profile} ${url}\n${robots}`).toEqual(expectedMatrix(OPERATORS.map((o) => library.operatorUsage(url, o))));
          for (const [, row] of matrix) for (const [w] of row) words.add(w);
          cells += matrix.length * 4;
        }
        library.dispose();
      }
    }
    expect(cells).toBe(2 * files.length * 2 * OPERATORS.length * 4);
    expect([...words]).toEqual(expect.arrayContaining(['no', 'unknown', 'yes']));
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000); // (a hang guard: 16 runs of the page's worker and 32 picks on a busy machine)
});
