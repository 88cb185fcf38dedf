// robots audit report in a real browser (issue 41, item 7): the built command
// audits the corpus (4,241 sites, --format jsonl) and writes the page and its
// TSV files; headless Chromium (@sparticuz/chromium driven by puppeteer-core)
// opens the page from disk with every request watched. The page fetches nothing
// but itself, runs no script, has its charts (a bar per row and a segment per
// category, a point per crawl and crawler), and every number it shows, in a
// table or on a chart, is the TSV's; the crawlers' table is audit's own summary.
// A second page has what --ranks and --crawl add to the lines (`rank`, `crawl`):
// two crawls, the corpus and its AI-era variant (scripts/make-ai-era-corpus.mjs),
// ranks given to the sites in turn, and some bad lines, left out and named.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'puppeteer-core';
import { robots } from '../helpers/cli-run.js';
import { launchChromium } from '../helpers/headless-chromium.js';
import { HAVE_SHARED, SHARED } from '../helpers/shared-data.js';
import { aiEraCorpus } from '../helpers/ai-era-corpus.js';
import type { AuditSummary } from '../../src/bulk/audit/audit-summary.js';

const CORPUS = path.join(SHARED, 'corpus', 'robots');
const CATEGORIES = ['all', 'part', 'none', 'unknown'];
const dir = mkdtempSync(path.join(tmpdir(), 'robots-audit-report-'));
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A TSV file: its header, and its rows as objects by column. */
function readTsv(file: string): { header: string[]; rows: Record<string, string>[]; cells: string[][] } {
  const [head, ...lines] = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
  const header = head.split('\t');
  const cells = lines.map((l) => l.split('\t'));
  return { header, cells, rows: cells.map((c) => Object.fromEntries(c.map((v, i) => [header[i], v]))) };
}

/** What the page shows: each table's cells (by its TSV's name), each chart's bars or points. */
interface Shown {
  requests: string[];
  scripts: number;
  tables: Record<string, string[][]>;
  charts: {
    id: string;
    tsv: string;
    kind: string;
    title: string;
    rows: { row: string; total: number; segments: { series: string; value: number; total: number }[] }[];
    points: { series: string; crawl: string; value: number; total: number }[];
  }[];
}

/** Opens the page from disk in Chromium, every request recorded (and any but the page's own refused), and reads what it shows. */
async function open(file: string, screenshot: string): Promise<Shown> {
  const page = await browser!.newPage();
  await page.setViewport({ width: 900, height: 1200 });
  const requests: string[] = [];
  await page.setRequestInterception(true);
  page.on('request', (r) => {
    requests.push(r.url());
    if (r.url() === pathToFileURL(file).href) void r.continue();
    else void r.abort();
  });
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  await page.screenshot({ path: screenshot, fullPage: true });
  const shown = await page.evaluate(() => {
    const num = (s: string | null) => Number(s);
    const tables: Record<string, string[][]> = {};
    for (const t of document.querySelectorAll('table[data-tsv]')) {
      tables[(t as HTMLElement).dataset.tsv!] = [...t.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent!));
    }
    const charts = [...document.querySelectorAll('figure[data-tsv] svg.chart')].map((svg) => ({
      id: svg.id,
      tsv: (svg.closest('figure') as HTMLElement).dataset.tsv!,
      kind: svg.classList.contains('stacked') ? 'stacked' : 'trend',
      title: svg.querySelector(':scope > title')?.textContent ?? '',
      rows: [...svg.querySelectorAll('g.bar-row')].map((g) => ({
        row: g.getAttribute('data-row')!,
        total: num(g.getAttribute('data-total')),
        segments: [...g.querySelectorAll('rect.segment')].map((r) => ({ series: r.getAttribute('data-series')!, value: num(r.getAttribute('data-value')), total: num(r.getAttribute('data-total')) })),
      })),
      points: [...svg.querySelectorAll('circle.point')].map((c) => ({
        series: c.closest('g.series')!.getAttribute('data-series')!,
        crawl: c.getAttribute('data-crawl')!,
        value: num(c.getAttribute('data-value')),
        total: num(c.getAttribute('data-total')),
      })),
    }));
    return { tables, charts, scripts: document.scripts.length };
  });
  await page.close();
  return { requests, ...shown };
}

/** Every table on the page is its TSV file, cell by cell (counts shown with thousands separators). */
function expectTablesAreTsv(shown: Shown, tsvDir: string): void {
  const files = readdirSync(tsvDir).sort();
  expect(Object.keys(shown.tables).sort()).toEqual(files);
  for (const f of files) {
    const { header, cells } = readTsv(path.join(tsvDir, f));
    const [, ...rows] = shown.tables[f];
    expect(rows.length, f).toBe(cells.length);
    expect(rows.map((r) => r.map((c) => (/^[\d,]+$/.test(c) ? c.replaceAll(',', '') : c))), f).toEqual(cells);
    expect(header.length).toBe(shown.tables[f][0].length);
  }
}

/** A stacked chart's bars: one per row of its table, a segment per category, each the table's count. */
function expectBarsAreTsv(chart: Shown['charts'][number], rows: Record<string, string>[], label: (r: Record<string, string>) => string, series = CATEGORIES, column = (s: string) => s): void {
  expect(chart.kind).toBe('stacked');
  expect(chart.rows.map((r) => r.row), chart.id).toEqual(rows.map(label));
  chart.rows.forEach((bar, i) => {
    expect(bar.segments.map((s) => s.series), chart.id).toEqual(series);
    expect(bar.segments.map((s) => s.value), `${chart.id} ${bar.row}`).toEqual(series.map((s) => Number(rows[i][column(s)])));
    expect(bar.total).toBe(Number(rows[i].sites));
  });
}

describe.skipIf(!HAVE_SHARED)('robots audit report, in Chromium', () => {
  const sites = path.join(dir, 'sites.jsonl');
  const summary = path.join(dir, 'summary.json');

  // Audits of 4,241 sites, a corpus made, Chromium started: minutes on a loaded machine (hang guards only).
  beforeAll(async () => {
    const r = await robots(['audit', '--robots-dir', CORPUS, '--format', 'jsonl', '--operators', 'openai,google', '--summary', summary, '--out', sites, '-q'], undefined, { killAfterMs: 600_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    browser = await launchChromium();
  }, 900_000);

  it('the corpus: charts present, every number the TSV\'s, the crawlers audit\'s summary, nothing fetched, no script', { timeout: 600_000 }, async () => {
    const html = path.join(dir, 'report.html');
    const tsvDir = path.join(dir, 'tsv');
    const r = await robots(['audit', 'report', sites, '--out', html, '--tsv-dir', tsvDir], undefined, { killAfterMs: 600_000 });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe(`robots audit report: 4,241 site lines, 6 crawlers: ${html} and 4 TSV files in ${tsvDir}\n`);
    const text = readFileSync(html, 'utf8');
    expect(text).not.toMatch(/https?:|\bsrc=|url\(|<script/i);

    const shown = await open(html, path.join(dir, 'report.png'));
    expect(shown.requests).toEqual([pathToFileURL(html).href]);
    expect(shown.scripts).toBe(0);
    expect(shown.charts.map((c) => c.id)).toEqual(['status-chart', 'crawlers-chart', 'operators-chart', 'operators-answers-chart', 'lines-chart']);
    for (const c of shown.charts) expect(c.title, c.id).not.toBe('');
    expectTablesAreTsv(shown, tsvDir);

    const crawlers = readTsv(path.join(tsvDir, 'crawlers.tsv')).rows;
    expectBarsAreTsv(shown.charts[1], crawlers, (r) => r.crawler);
    // The counts are audit's own (its summary, computed apart as the sites were audited).
    const s = JSON.parse(readFileSync(summary, 'utf8')) as AuditSummary;
    expect(crawlers.map((r) => [r.crawler, ...CATEGORIES.map((c) => Number(r[c]))])).toEqual(
      Object.entries(s.crawlers).map(([name, k]) => [name, k.all, k.part, k.none, k.unknown]));
    expect(crawlers.find((r) => r.crawler === 'GPTBot')).toMatchObject({ sites: '4241', all: '52', part: '3544', none: '645', all_pct: '1.23' });

    const status = readTsv(path.join(tsvDir, 'status.tsv')).rows;
    expectBarsAreTsv(shown.charts[0], status, () => 'all sites', ['ok', 'unavailable', 'unreachable', 'missing']);
    const operators = readTsv(path.join(tsvDir, 'operators.tsv')).rows;
    expect(operators.length).toBe(6);
    expectBarsAreTsv(shown.charts[2], operators, (r) => `${r.operator}, ${r.purpose}`);
    expectBarsAreTsv(shown.charts[3], operators, (r) => `${r.operator}, ${r.purpose}`, ['answer-yes', 'answer-no', 'answer-unknown'], (a) => a.replace('-', '_'));
    const lines = readTsv(path.join(tsvDir, 'lines.tsv')).rows[0];
    expect(shown.charts[4].rows.map((b) => [b.row, b.segments.map((x) => x.value)])).toEqual([
      ['Content-Signal', [Number(lines.content_signal), 4241 - Number(lines.content_signal)]],
      ['License', [Number(lines.license), 4241 - Number(lines.license)]],
      ['LLM-Policy', [Number(lines.llm_policy), 4241 - Number(lines.llm_policy)]],
    ]);
    expect(lines.sites).toBe(String(s.sites));
    expect(lines.content_signal).toBe(String(s.withContentSignal));
  });

  it('two crawls with ranks: the strata and the trend lines, every number the TSV\'s; bad lines left out and named', { timeout: 900_000 }, async () => {
    // The second crawl: the corpus's AI-era variant (groups for GPTBot and the others, Content-Signal lines).
    // (Made once a run for the suites that read it: test/helpers/ai-era-corpus.ts.)
    const aiEra = await aiEraCorpus();
    const later = path.join(dir, 'ai-era.jsonl');
    const r = await robots(['audit', '--robots-dir', path.join(aiEra, 'robots'), '--format', 'jsonl', '--operators', 'openai,google', '--out', later, '-q'], undefined, { killAfterMs: 600_000 });
    expect(r.status).toBe(0);
    // The lines as --crawl and --ranks write them: `crawl`, and `rank` (the sites ranked in turn, 1 in 7 unranked).
    const hosts = readdirSync(CORPUS).sort();
    const rankOf = new Map(hosts.map((h, i) => [h, i % 7 === 6 ? null : 1 + i * 500]));
    // (A turn of the event loop every 500 lines: on a loaded machine 8,482 lines held it for seconds.)
    const labelled = async (file: string, crawl: string) => {
      const out: string[] = [];
      for (const [i, l] of readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').entries()) {
        if (i % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
        const o = JSON.parse(l) as { site: string };
        out.push(JSON.stringify({ crawl, rank: rankOf.get(o.site), ...o }));
      }
      return out;
    };
    const crawls = path.join(dir, 'crawls.jsonl');
    writeFileSync(crawls, [...(await labelled(later, '2026-ai-era')), 'not json', ...(await labelled(sites, '2024-corpus')), '{"site":"x"}', ''].join('\n'));

    const html = path.join(dir, 'crawls.html');
    const tsvDir = path.join(dir, 'crawls-tsv');
    const rep = await robots(['audit', 'report', crawls, '--out', html, '--tsv-dir', tsvDir, '--title', 'The corpus, before and after'], undefined, { killAfterMs: 600_000 });
    expect(rep.status).toBe(0);
    expect(rep.stderr).toBe(
      'robots audit report: warning: 2 lines are not a site line of robots audit, left out:\n' +
      `robots audit report: warning:   ${crawls}:4242: not JSON\n` +
      `robots audit report: warning:   ${crawls}:8484: "status" is none of ok, unavailable, unreachable, missing\n` +
      `robots audit report: 8,482 site lines, 6 crawlers, 2 crawls: ${html} and 6 TSV files in ${tsvDir}\n`);

    const shown = await open(html, path.join(dir, 'crawls.png'));
    expect(shown.requests).toEqual([pathToFileURL(html).href]);
    expect(shown.charts.map((c) => c.id)).toEqual(['status-chart', 'crawlers-chart', 'strata-chart', 'crawls-all-chart', 'crawls-part-chart', 'crawls-none-chart', 'operators-chart', 'operators-answers-chart', 'lines-chart', 'lines-crawls-chart']);
    expectTablesAreTsv(shown, tsvDir);

    // The charts of one crawl show the last (2026-ai-era); the strata: the sites in each top-k.
    const crawlers = readTsv(path.join(tsvDir, 'crawlers.tsv')).rows;
    expectBarsAreTsv(shown.charts[1], crawlers, (r) => r.crawler);
    expect(shown.charts[1].title).toMatch(/crawl 2026-ai-era, the last of 2/);
    const strata = readTsv(path.join(tsvDir, 'strata.tsv')).rows;
    expectBarsAreTsv(shown.charts[2], strata, (r) => `${r.crawler}, ${r.stratum}`);
    const ranked = (max: number) => [...rankOf.values()].filter((v) => v !== null && v <= max).length;
    const gpt = Object.fromEntries(strata.filter((r) => r.crawler === 'GPTBot').map((r) => [r.stratum, Number(r.sites)]));
    expect(gpt).toEqual({ 'top 1k': ranked(1_000), 'top 10k': ranked(10_000), 'top 100k': ranked(100_000), 'top 1M': ranked(1_000_000), 'beyond 1M': ranked(Infinity) - ranked(1_000_000), unranked: hosts.length - ranked(Infinity) });

    // The trend: per crawler a point per crawl, in the labels' order, each the crawls table's count.
    const table = readTsv(path.join(tsvDir, 'crawls.tsv')).rows;
    for (const [i, category] of ['all', 'part', 'none'].entries()) {
      const chart = shown.charts[3 + i];
      expect(chart.kind).toBe('trend');
      expect(chart.points.map((p) => [p.series, p.crawl, p.value, p.total])).toEqual(
        ['GPTBot', 'CCBot', 'Google-Extended', 'ClaudeBot', 'Googlebot', 'Bingbot'].flatMap((c) => ['2024-corpus', '2026-ai-era'].map((crawl) => {
          const row = table.find((t) => t.crawl === crawl && t.crawler === c)!;
          return [c, crawl, Number(row[category]), Number(row.sites)];
        })));
    }
    // The AI-era files block GPTBot on more sites than the corpus, which names it nowhere.
    const gptAll = (crawl: string) => Number(table.find((t) => t.crawl === crawl && t.crawler === 'GPTBot')!.all);
    expect(gptAll('2026-ai-era')).toBeGreaterThan(gptAll('2024-corpus'));
    const lines = readTsv(path.join(tsvDir, 'lines.tsv')).rows;
    expect(shown.charts[9].points.filter((p) => p.series === 'Content-Signal').map((p) => [p.crawl, p.value])).toEqual(lines.map((l) => [l.crawl, Number(l.content_signal)]));
    expect(Number(lines[0].content_signal)).toBe(0);
    expect(Number(lines[1].content_signal)).toBeGreaterThan(0);
  });
});
