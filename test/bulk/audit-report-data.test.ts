// robots audit report's counts (src/bulk/audit/report/), from hand-made site
// lines as audit writes them with --format jsonl, and as --ranks and --crawl add
// `rank` and `crawl` to them: per crawler, per stratum, per crawl, per operator
// and purpose, the lines' kinds; bad lines counted and left out whole; the page
// escaping what the lines say and fetching nothing; the line reader's bound.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { inputLines } from '../../src/bulk/audit/report/json-lines.js';
import { MAX_CRAWLERS, MAX_NAME_CHARS, ReportData, strataOf } from '../../src/bulk/audit/report/report-data.js';
import { reportSections, tableTsv, type Section } from '../../src/bulk/audit/report/report-tables.js';
import { reportPage } from '../../src/bulk/audit/report/report-html.js';

type Cat = 'all' | 'part' | 'none' | 'disallow-all' | 'allow-part' | 'allow-all' | null;
const UNKNOWN = { search: 'unknown', 'train-ai': 'unknown', 'ai-use': 'unknown' };

/** A site line as audit writes it: the crawlers' categories in order of `crawlers`. */
function site(name: string, cats: Record<string, Cat>, extra: Record<string, unknown> = {}): string {
  const status = Object.values(cats).every((c) => c === null) ? 'missing' : 'ok';
  return JSON.stringify({
    site: name,
    status,
    crawlers: Object.entries(cats).map(([crawler, category]) => ({ crawler, category, exact: true, named: 'star', purposes: UNKNOWN, purposesVary: false })),
    contentSignals: [],
    licenses: [],
    llmPolicies: [],
    ...extra,
  });
}

function dataOf(lines: (string | null)[]): ReportData {
  const d = new ReportData();
  lines.forEach((l, i) => d.add(l, `in:${i + 1}`));
  return d;
}

const table = (sections: Section[], id: string) => sections.find((s) => s.id === id)?.table;
/** A table's rows as objects by column key. */
const rowsOf = (sections: Section[], id: string) => {
  const t = table(sections, id)!;
  return t.rows.map((r) => Object.fromEntries(r.map((v, i) => [t.columns[i].key, v])));
};

describe('audit report: the counts', () => {
  it('counts sites per crawler and category, statuses and lines; no strata or crawls without rank or crawl', () => {
    const d = dataOf([
      site('a.example', { GPTBot: 'all', CCBot: 'none' }, { contentSignals: ['search=yes, ai-train=no'] }),
      site('b.example', { GPTBot: 'part', CCBot: 'none' }, { licenses: ['https://x.example/l'] }),
      site('c.example', { GPTBot: 'part', CCBot: 'all' }),
      site('d.example', { GPTBot: null, CCBot: null }),
      JSON.stringify({ site: 'e.example', status: 'unreachable', http: 503, crawlers: [{ crawler: 'GPTBot', category: 'all', exact: true, named: null }, { crawler: 'CCBot', category: 'all', exact: true, named: null }], contentSignals: [], licenses: [], llmPolicies: [] }),
      '',
    ]);
    expect(d.badLines).toBe(0);
    expect([d.hasRank, d.hasCrawl, d.hasOperators]).toEqual([false, false, false]);
    const sections = reportSections(d);
    expect(sections.map((s) => s.id)).toEqual(['status', 'crawlers', 'lines']);
    expect(rowsOf(sections, 'crawlers')).toEqual([
      { crawler: 'GPTBot', sites: '5', all: '2', part: '2', none: '0', unknown: '1', all_pct: '40.00', part_pct: '40.00', none_pct: '0.00', unknown_pct: '20.00', inexact: '0' },
      { crawler: 'CCBot', sites: '5', all: '2', part: '0', none: '2', unknown: '1', all_pct: '40.00', part_pct: '0.00', none_pct: '40.00', unknown_pct: '20.00', inexact: '0' },
    ]);
    expect(rowsOf(sections, 'status')).toEqual([{ sites: '5', ok: '3', unavailable: '0', unreachable: '1', missing: '1', ok_pct: '60.00', unavailable_pct: '0.00', unreachable_pct: '20.00', missing_pct: '20.00' }]);
    expect(rowsOf(sections, 'lines')).toEqual([{ sites: '5', content_signal: '1', license: '1', llm_policy: '0', content_signal_pct: '20.00', license_pct: '20.00', llm_policy_pct: '0.00' }]);
    // The chart of the crawlers: a row per crawler, a segment per category, the table's counts.
    const chart = sections[1].charts[0];
    expect(chart.kind === 'stacked' && chart.rows.map((r) => [r.label, r.counts, r.total])).toEqual([['GPTBot', [2, 2, 0, 1], 5], ['CCBot', [2, 0, 2, 1], 5]]);
  });

  it('reads Common Crawl\'s labels as the categories they name, and counts audit\'s inexact ones', () => {
    const inexact = JSON.parse(site('b', { GPTBot: 'part' }));
    inexact.crawlers[0].exact = false;
    const d = dataOf([site('a', { GPTBot: 'disallow-all' }), JSON.stringify(inexact), site('c', { GPTBot: 'allow-all' }), site('d', { GPTBot: 'allow-part' })]);
    expect(d.badLines).toBe(0);
    expect(rowsOf(reportSections(d), 'crawlers')[0]).toMatchObject({ all: '1', part: '2', none: '1', inexact: '1' });
  });

  it('counts a ranked site in every top-k it falls in: beyond 1M and unranked apart', () => {
    expect(strataOf(1)).toEqual(['top 1k', 'top 10k', 'top 100k', 'top 1M']);
    expect(strataOf(1000)).toEqual(['top 1k', 'top 10k', 'top 100k', 'top 1M']);
    expect(strataOf(1001)).toEqual(['top 10k', 'top 100k', 'top 1M']);
    expect(strataOf(1_000_000)).toEqual(['top 1M']);
    expect(strataOf(1_000_001)).toEqual(['beyond 1M']);
    expect(strataOf(null)).toEqual(['unranked']);
    const d = dataOf([
      site('a', { GPTBot: 'all' }, { rank: 7 }),
      site('b', { GPTBot: 'none' }, { rank: 5000 }),
      site('c', { GPTBot: 'part' }, { rank: 250_000 }),
      site('d', { GPTBot: 'all' }, { rank: 3_000_000 }),
      site('e', { GPTBot: 'none' }, { rank: null }),
      site('f', { GPTBot: null }, { rank: null }),
    ]);
    expect(d.hasRank).toBe(true);
    const sections = reportSections(d);
    expect(sections.map((s) => s.id)).toEqual(['status', 'crawlers', 'strata', 'lines']);
    expect(rowsOf(sections, 'strata').map((r) => [r.stratum, r.sites, r.all, r.part, r.none, r.unknown, r.all_pct])).toEqual([
      ['top 1k', '1', '1', '0', '0', '0', '100.00'],
      ['top 10k', '2', '1', '0', '1', '0', '50.00'],
      ['top 100k', '2', '1', '0', '1', '0', '50.00'],
      ['top 1M', '3', '1', '1', '1', '0', '33.33'],
      ['beyond 1M', '1', '1', '0', '0', '0', '100.00'],
      ['unranked', '2', '0', '0', '1', '1', '0.00'],
    ]);
    const chart = sections[2].charts[0];
    expect(chart.kind === 'stacked' && chart.rows.map((r) => `${r.group} ${r.label}`)).toEqual(['GPTBot top 1k', 'GPTBot top 10k', 'GPTBot top 100k', 'GPTBot top 1M', 'GPTBot beyond 1M', 'GPTBot unranked']);
  });

  it('counts per crawl, the labels sorted; the charts of one crawl show the last', () => {
    const d = dataOf([
      site('a', { GPTBot: 'none', CCBot: 'part' }, { crawl: '2026-40', contentSignals: ['ai-train=no'] }),
      site('b', { GPTBot: 'all', CCBot: 'part' }, { crawl: '2026-40' }),
      site('a', { GPTBot: 'none', CCBot: 'part' }, { crawl: '2025-38' }),
      site('b', { GPTBot: 'none', CCBot: 'all' }, { crawl: '2025-38' }),
      site('c', { GPTBot: 'none', CCBot: 'all' }, { crawl: '2025-38' }),
    ]);
    expect(d.crawlLabels()).toEqual(['2025-38', '2026-40']);
    expect(d.latest()!.label).toBe('2026-40');
    const sections = reportSections(d);
    expect(sections.map((s) => s.id)).toEqual(['status', 'crawlers', 'crawls', 'lines']);
    expect(rowsOf(sections, 'crawls').map((r) => [r.crawl, r.crawler, r.sites, r.all, r.part, r.none])).toEqual([
      ['2025-38', 'GPTBot', '3', '0', '0', '3'],
      ['2025-38', 'CCBot', '3', '2', '1', '0'],
      ['2026-40', 'GPTBot', '2', '1', '0', '1'],
      ['2026-40', 'CCBot', '2', '0', '2', '0'],
    ]);
    // The crawlers' chart and table: the last crawl only.
    expect(rowsOf(sections, 'crawlers').map((r) => [r.crawler, r.sites, r.all])).toEqual([['GPTBot', '2', '1'], ['CCBot', '2', '0']]);
    expect(sections[1].charts[0].title).toMatch(/crawl 2026-40, the last of 2/);
    // The trend: a line per crawler, a point per crawl, the shares of the table.
    const allTrend = sections[2].charts.find((c) => c.id === 'crawls-all-chart')!;
    expect(allTrend.kind === 'trend' && allTrend.series.map((s) => [s.label, s.points])).toEqual([
      ['GPTBot', [{ count: 0, total: 3 }, { count: 1, total: 2 }]],
      ['CCBot', [{ count: 2, total: 3 }, { count: 0, total: 2 }]],
    ]);
    expect(rowsOf(sections, 'lines').map((r) => [r.crawl, r.sites, r.content_signal, r.content_signal_pct])).toEqual([['2025-38', '3', '0', '0.00'], ['2026-40', '2', '1', '50.00']]);
    expect(rowsOf(sections, 'status').map((r) => [r.crawl, r.sites])).toEqual([['2025-38', '3'], ['2026-40', '2']]);
  });

  it('counts per operator and purpose the category of its crawler and the answer', () => {
    const op = (train: Cat, answer: string) => ({ operator: 'openai', purposes: {
      search: { crawler: 'OAI-SearchBot', category: 'none', answer: 'yes' },
      'train-ai': { crawler: 'GPTBot', category: train, answer },
      'ai-use': { crawler: null, category: null, answer: 'unknown' },
    } });
    const d = dataOf([site('a', { GPTBot: 'all' }, { operators: [op('all', 'no')] }), site('b', { GPTBot: 'none' }, { operators: [op('none', 'yes')] }), site('c', { GPTBot: 'none' }, { operators: [op('none', 'unknown')] })]);
    const sections = reportSections(d);
    expect(sections.map((s) => s.id)).toEqual(['status', 'crawlers', 'operators', 'lines']);
    expect(rowsOf(sections, 'operators').map((r) => [r.operator, r.purpose, r.all, r.part, r.none, r.unknown, r.answer_yes, r.answer_no, r.answer_unknown])).toEqual([
      ['openai', 'search', '0', '0', '3', '0', '3', '0', '0'],
      ['openai', 'train-ai', '1', '0', '2', '0', '1', '1', '1'],
      ['openai', 'ai-use', '0', '0', '0', '3', '0', '0', '3'],
    ]);
  });

  it('counts a bad line, notes where and why, and leaves it out whole', () => {
    const good = site('a', { GPTBot: 'all', CCBot: 'none' });
    // Its first crawler is good, its second is not: the line counts nowhere.
    const halfBad = JSON.stringify({ ...JSON.parse(good), crawlers: [{ crawler: 'GPTBot', category: 'none' }, { crawler: 'CCBot', category: 'maybe' }] });
    const d = dataOf([
      'site\tstatus\thttp\tGPTBot',
      good,
      '{"site": "x", "status": "ok", "crawlers": [',
      '[1, 2]',
      JSON.stringify({ status: 'ok', crawlers: [] }),
      JSON.stringify({ site: 'x', status: 'fine', crawlers: [] }),
      halfBad,
      site('r', { GPTBot: 'all' }, { rank: 'first' }),
      site('r', { GPTBot: 'all' }, { rank: 0 }),
      site('r', { GPTBot: 'all' }, { crawl: 38 }),
      null,
      site('b', { GPTBot: 'none', CCBot: 'none' }),
    ]);
    expect(d.sites()).toBe(2);
    expect(d.badLines).toBe(10);
    expect(d.badNotes).toEqual([
      { where: 'in:1', why: 'a TSV header: the report reads audit\'s JSON lines (--format jsonl)' },
      { where: 'in:3', why: 'not JSON' },
      { where: 'in:4', why: 'not a JSON object' },
      { where: 'in:5', why: 'no "site"' },
      { where: 'in:6', why: '"status" is none of ok, unavailable, unreachable, missing' },
    ]);
    expect(rowsOf(reportSections(d), 'crawlers').map((r) => [r.crawler, r.all, r.none])).toEqual([['GPTBot', '1', '1'], ['CCBot', '0', '2']]);
    expect(d.hasRank || d.hasCrawl).toBe(false);
  });

  it('takes names of at most MAX_NAME_CHARS characters: a longer crawler, operator or crawl name is a bad line', () => {
    const long = 'x'.repeat(MAX_NAME_CHARS + 1);
    const op = { operator: long, purposes: Object.fromEntries(['search', 'train-ai', 'ai-use'].map((p) => [p, { crawler: null, category: null, answer: 'unknown' }])) };
    const d = dataOf([site('a', { [long]: 'all' }), site('b', { GPTBot: 'all' }, { crawl: long }), site('c', { GPTBot: 'all' }, { operators: [op] }), site('d', { ['y'.repeat(MAX_NAME_CHARS)]: 'none' })]);
    expect(d.badNotes.map((b) => b.why)).toEqual([`a crawler's name longer than ${MAX_NAME_CHARS} characters`, `a crawl label longer than ${MAX_NAME_CHARS} characters`, `an operator's id longer than ${MAX_NAME_CHARS} characters`]);
    expect(d.crawlerNames).toEqual(['y'.repeat(MAX_NAME_CHARS)]);
  });

  it('keeps at most MAX_CRAWLERS crawler names: a line naming more is a bad line', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_CRAWLERS }, (_, i) => [`Bot${i}`, 'none' as Cat]));
    const d = dataOf([site('a', many), site('b', { Other: 'all' }), site('c', { Bot3: 'all' })]);
    expect(d.crawlerNames.length).toBe(MAX_CRAWLERS);
    expect(d.badLines).toBe(1);
    expect(d.badNotes[0]).toEqual({ where: 'in:2', why: `more than ${MAX_CRAWLERS} crawler names` });
    expect(d.sites()).toBe(2);
  });
});

describe('audit report: the page and its TSV', () => {
  const hostile = '<script>alert(1)</script>"&\'';
  const d = dataOf([
    site('a', { [hostile]: 'all', GPTBot: 'part' }, { crawl: `c<b>${hostile}`, rank: 3 }),
    site('b', { [hostile]: 'none', GPTBot: 'part' }, { crawl: 'c2', rank: null }),
    'junk <img src=x>',
  ]);
  const { html, tables } = reportPage(d, { title: 'T <i>', inputs: ['in<1>.jsonl'], generator: 'robots-wasm test' });

  it('escapes whatever the lines say: no element of theirs, no script at all', () => {
    expect(html).not.toMatch(/<script|<img|c<b>|T <i>/i);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#39;');
    expect(html).toContain('1 input line was not a site line of robots audit and is left out (in:3: not JSON).');
  });

  it('refers to nothing outside the page: no URL, no src, links only to its own sections', () => {
    expect(html).not.toMatch(/https?:|\/\/|\bsrc=|url\(|@import/i);
    for (const [, target] of html.matchAll(/href="([^"]*)"/g)) expect(target).toMatch(/^#[a-z]+$/);
  });

  it('writes each table as TSV: its header the column keys, a tab or line end in a cell a space', () => {
    const crawlers = tables.find((t) => t.id === 'crawlers')!;
    const tsv = tableTsv(crawlers).split('\n');
    expect(tsv[0]).toBe('crawler\tsites\tall\tpart\tnone\tunknown\tall_pct\tpart_pct\tnone_pct\tunknown_pct\tinexact');
    // ('c<b>…' sorts after 'c2': the last crawl, where the hostile crawler is `all`.)
    expect(tsv[1]).toBe(`${hostile}\t1\t1\t0\t0\t0\t100.00\t0.00\t0.00\t0.00\t0`);
    expect(tableTsv({ id: 'x', columns: [{ key: 'a', label: 'a', numeric: false }], rows: [['1\t2\n3']] })).toBe('a\n1 2 3\n');
    expect(tables.map((t) => t.id)).toEqual(['status', 'crawlers', 'strata', 'crawls', 'lines']);
  });
});

describe('audit report: reading lines', () => {
  const read = async (chunks: (string | Buffer)[], max: number) => {
    const out: (string | null)[] = [];
    for await (const l of inputLines(Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c))), max)) out.push(l.text);
    return out;
  };

  it('splits lines across chunks, drops CR, skips a line past the bound unread, and reads a last line without LF', async () => {
    expect(await read(['a', 'b\r\nc', 'd\n\nxy', 'z'], 100)).toEqual(['ab', 'cd', '', 'xyz']);
    expect(await read(['short\n', 'x'.repeat(5), 'x'.repeat(6), 'x\nok\n'], 10)).toEqual(['short', null, 'ok']);
    expect(await read(['x'.repeat(11)], 10)).toEqual([null]);
    // A character split between chunks is read whole.
    expect(await read([Buffer.from([0xc3]), Buffer.from([0xa9, 10])], 10)).toEqual(['é']);
  });
});
