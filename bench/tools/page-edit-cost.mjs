// Not a test: a measure (docs/benchmarks.md, "The tester page: a URL-list edit
// with a large file"). What one edit of the URL list costs the tester page with
// docs.oracle.com (850 KB) in its editor, for builds of the page side by side:
// each side a fresh page in one headless Chromium (one process, as the suites
// launch it: one page at a time), the file checked with its 40 corpus probes,
// then --edits edits of the list (a URL left out, as typed: an input event;
// with --field robots, of the file: a comment line added at its end),
// each waited for until its run is done and its link written. Chromium's
// Performance.getMetrics around the edits: ThreadTime (the page's thread's
// CPU), ProcessTime (the browser's, the worker's thread included), and the
// durations of script, layout and style. Rounds alternate the builds' order;
// each round checks that every build showed the same rows.
//
//   node bench/tools/page-edit-cost.mjs [--rounds 6] [--edits 5] [--field urls|robots] BUILT_PAGE_DIR...
//   (a BUILT_PAGE_DIR is a copy of a build's dist/web/; the first is the baseline)
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import chromium from '@sparticuz/chromium';
import puppeteer from 'puppeteer-core';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : Number(args.splice(at, 2)[1]);
};
const ROUNDS = option('--rounds', 6);
const EDITS = option('--edits', 5);
const FIELD = args.includes('--field') ? args.splice(args.indexOf('--field'), 2)[1] : 'urls';
if (FIELD !== 'urls' && FIELD !== 'robots') throw new Error(`--field urls or robots, not ${FIELD}`);
const DIRS = args;
if (DIRS.length === 0) throw new Error('usage: node bench/tools/page-edit-cost.mjs [--rounds 6] [--edits 5] [--field urls|robots] BUILT_PAGE_DIR...');

const SHARED = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared');
const HOST = 'docs.oracle.com';
// (As a textarea holds it: CR LF and CR made LF.)
const text = new TextDecoder().decode(readFileSync(path.join(SHARED, 'corpus/robots', HOST))).replace(/\r\n?/g, '\n');
const probes = gunzipSync(readFileSync(path.join(SHARED, 'corpus/probes-seed1.jsonl.gz'))).toString().trim().split('\n')
  .map((l) => JSON.parse(l)).filter((p) => p.host === HOST).map((p) => p.url);

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
/** A static server of one build's page. */
function serve(dir) {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      const url = req.url ?? '/';
      const file = url === '/' ? 'index.html' : url.slice(1).split(/[?#]/)[0];
      try {
        const body = readFileSync(path.join(dir, path.basename(file)));
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
        res.end(body);
      } catch {
        res.writeHead(404);
        res.end();
      }
    }).listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${/** @type {import("node:net").AddressInfo} */ (server.address()).port}` }));
  });
}

// The suites' Chromium (test/helpers/headless-chromium.ts): @sparticuz/chromium's arguments, no emulated GPU.
const EMULATED_GPU = new Set(['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--in-process-gpu']);
const browser = await puppeteer.launch({
  executablePath: await chromium.executablePath(),
  args: [...chromium.args.filter((a) => !EMULATED_GPU.has(a)), '--disable-gpu'],
  headless: true,
  defaultViewport: { width: 1280, height: 800 },
});
const servers = new Map();
for (const dir of DIRS) servers.set(dir, await serve(dir));

const runOf = (page) => page.$eval('#results', (e) => Number(e.dataset.run));
const runDone = (page, before) => page.waitForFunction((b) => {
  const r = /** @type {HTMLElement} */ (document.getElementById('results'));
  return Number(r.dataset.run) > b && r.dataset.state === 'done';
}, { timeout: 600_000, polling: 50 }, before);
const linkOtherThan = (page, hash) => page.waitForFunction((h) => location.hash !== h && location.hash.startsWith('#s='), { timeout: 600_000, polling: 50 }, hash);

/** One build's side of a round: its figures an edit, and the rows it showed. */
async function side(dir) {
  const page = await browser.newPage();
  await page.goto(`${servers.get(dir).origin}/`);
  await page.waitForSelector('#results[data-state=done]', { timeout: 120_000 });
  let before = await runOf(page);
  await page.evaluate((t, u) => {
    const field = (/** @type {string} */ id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
    field('robots').value = t;
    field('urls').value = u;
    field('agent').value = 'Googlebot';
    field('check').click();
  }, text, probes.join('\n'));
  await runDone(page, before);
  let hash = '';
  await linkOtherThan(page, hash);
  await new Promise((r) => setTimeout(r, 500));
  hash = await page.evaluate(() => location.hash);
  const cdp = await page.createCDPSession();
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const m0 = await metrics();
  const rows = [];
  for (let k = 0; k < EDITS; k++) {
    before = await runOf(page);
    await page.$eval(`#${FIELD}`, (e, v) => {
      /** @type {HTMLInputElement} */ (e).value = v;
      e.dispatchEvent(new Event('input', { bubbles: true }));
    }, FIELD === 'urls' ? probes.filter((_, i) => i !== k).join('\n') : `${text}# edit ${k}\n`);
    await runDone(page, before);
    // The link it writes (saveState, a little after the run starts) is part of an edit's cost.
    await linkOtherThan(page, hash);
    hash = await page.evaluate(() => location.hash);
    rows.push(await page.$$eval('#results [data-url]', (els) => els.map((e) => { const d = /** @type {HTMLElement} */ (e).dataset; return `${d.url} ${d.verdict} ${d.line}`; }).join('\n')));
  }
  const m1 = await metrics();
  await page.close();
  const ms = (name) => ((m1[name] - m0[name]) * 1000) / EDITS;
  return { thread: ms('ThreadTime'), process: ms('ProcessTime'), script: ms('ScriptDuration'), layout: ms('LayoutDuration'), style: ms('RecalcStyleDuration'), rows: rows.join('\n#\n') };
}

const name = (dir) => path.basename(path.resolve(dir));
const figures = (x) => `thread ${x.thread.toFixed(0)} ms, process ${x.process.toFixed(0)} ms (script ${x.script.toFixed(0)}, layout ${x.layout.toFixed(0)}, style ${x.style.toFixed(0)})`;
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 === 0 ? [...DIRS] : [...DIRS].reverse();
  const got = new Map();
  for (const dir of order) got.set(dir, await side(dir));
  const same = new Set([...got.values()].map((g) => g.rows)).size === 1;
  const base = got.get(DIRS[0]);
  console.log(`round ${r} (${order.map(name).join(', ')}): ${DIRS.map((d) => `${name(d)} ${figures(got.get(d))}`).join(' | ')}`
    + ` | thread ${DIRS.slice(1).map((d) => `${name(d)}/${name(DIRS[0])} ${(got.get(d).thread / base.thread).toFixed(3)}`).join(', ')}${same ? '' : ' | ROWS DIFFER'}`);
}
await browser.close();
for (const { server } of servers.values()) server.close();
