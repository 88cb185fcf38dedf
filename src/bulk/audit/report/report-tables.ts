// The report's sections: per section a table (the numbers, written as TSV
// and shown under the charts) and the charts drawn from the same numbers, so
// that what a chart shows and what the table says cannot differ.
import { PURPOSES } from '../../../index.js';
import { ANSWERS, REPORT_CATEGORIES, SITE_STATUSES, STRATUM_NAMES, emptyCounts, type CategoryCounts, type CrawlCounts, type ReportData } from './report-data.js';

export interface Column {
  /** The TSV header's name. */
  key: string;
  /** What the page's table heads it with. */
  label: string;
  numeric: boolean;
}

export interface Table {
  /** Its TSV file is `<id>.tsv`. */
  id: string;
  columns: Column[];
  rows: string[][];
}

/** A series of a chart: its name, and its colour's class in the page's style. */
export interface Series {
  key: string;
  label: string;
}

/** Horizontal bars of 100 %: a row per thing counted, a segment per series. */
export interface StackedChart {
  kind: 'stacked';
  id: string;
  title: string;
  series: Series[];
  rows: { group?: string; label: string; counts: number[]; total: number }[];
}

/** Shares over crawls: a line per series, a point per crawl. */
export interface TrendChart {
  kind: 'trend';
  id: string;
  title: string;
  xLabels: string[];
  yLabel: string;
  series: { label: string; points: ({ count: number; total: number } | null)[] }[];
}

export type Chart = StackedChart | TrendChart;

export interface Section {
  id: string;
  heading: string;
  /** What it shows, in a sentence or two. */
  intro: string;
  charts: Chart[];
  table: Table;
}

export const CATEGORY_SERIES: Series[] = [
  { key: 'all', label: 'all disallowed' },
  { key: 'part', label: 'part disallowed' },
  { key: 'none', label: 'none disallowed' },
  { key: 'unknown', label: 'unknown (no robots.txt known)' },
];

/** A share as the tables write it: percent of the total, two decimals ('' of nothing). */
export function percent(count: number, total: number): string {
  return total === 0 ? '' : ((100 * count) / total).toFixed(2);
}

const text = (key: string, label = key): Column => ({ key, label, numeric: false });
const count = (key: string, label = key): Column => ({ key, label, numeric: true });
const share = (key: string, label: string): Column => ({ key: `${key}_pct`, label: `${label} %`, numeric: true });

const categoryColumns = (): Column[] => [count('sites'), ...REPORT_CATEGORIES.map((c) => count(c)), ...REPORT_CATEGORIES.map((c) => share(c, c))];
const total = (n: CategoryCounts) => REPORT_CATEGORIES.reduce((s, c) => s + n[c], 0);
const categoryCells = (n: CategoryCounts): string[] => {
  const t = total(n);
  return [String(t), ...REPORT_CATEGORIES.map((c) => String(n[c])), ...REPORT_CATEGORIES.map((c) => percent(n[c], t))];
};
const categoryRow = (n: CategoryCounts) => ({ counts: REPORT_CATEGORIES.map((c) => n[c]), total: total(n) });

/** The sections the data has: status and crawlers always; strata with ranks, crawls with labels, operators when present; the file's lines. */
export function reportSections(data: ReportData): Section[] {
  const latest = data.latest();
  if (latest === undefined) return [];
  const labels = data.crawlLabels();
  const of = data.hasCrawl ? ` (crawl ${latest.label === '' ? '(no label)' : latest.label}, the last of ${labels.length})` : '';
  const sections = [statusSection(data, labels), crawlerSection(data, latest.counts, of)];
  if (data.hasRank) sections.push(strataSection(data, latest.counts, of));
  if (data.hasCrawl) sections.push(crawlsSection(data, labels));
  if (data.hasOperators) sections.push(operatorsSection(data, latest.counts, of));
  sections.push(linesSection(data, labels, latest.counts, of));
  return sections;
}

function statusSection(data: ReportData, labels: string[]): Section {
  const columns = [...(data.hasCrawl ? [text('crawl')] : []), count('sites'), ...SITE_STATUSES.map((s) => count(s)), ...SITE_STATUSES.map((s) => share(s, s))];
  const rows: string[][] = [];
  const chartRows: StackedChart['rows'] = [];
  for (const label of labels) {
    const c = data.crawls.get(label)!;
    rows.push([...(data.hasCrawl ? [label] : []), String(c.sites), ...SITE_STATUSES.map((s) => String(c.status[s])), ...SITE_STATUSES.map((s) => percent(c.status[s], c.sites))]);
    chartRows.push({ label: data.hasCrawl ? label : 'all sites', counts: SITE_STATUSES.map((s) => c.status[s]), total: c.sites });
  }
  return {
    id: 'status',
    heading: 'Sites by robots.txt status',
    intro: 'ok: a 2xx robots.txt (its rules decide); unavailable: a 4xx (all allowed, RFC 9309); unreachable: a 5xx, 429 or failure (all disallowed); missing: no capture (unknown).',
    charts: [{
      kind: 'stacked', id: 'status-chart', title: data.hasCrawl ? 'Sites by robots.txt status, per crawl' : 'Sites by robots.txt status',
      series: SITE_STATUSES.map((s) => ({ key: s, label: s })), rows: chartRows,
    }],
    table: { id: 'status', columns, rows },
  };
}

function crawlerSection(data: ReportData, crawl: CrawlCounts, of: string): Section {
  const rows: string[][] = [];
  const chartRows: StackedChart['rows'] = [];
  for (const name of data.crawlerNames) {
    const n = crawl.crawlers.get(name);
    if (n === undefined) continue;
    rows.push([name, ...categoryCells(n), String(crawl.inexact.get(name) ?? 0)]);
    chartRows.push({ label: name, ...categoryRow(n) });
  }
  return {
    id: 'crawlers',
    heading: 'Per crawler',
    intro: `The share of sites whose robots.txt disallows every path to the crawler (all), some (part) or none${of}. Exact, from the rules; inexact: a hostile file's walk met its bound.`,
    charts: [{ kind: 'stacked', id: 'crawlers-chart', title: `Share of sites per category, per crawler${of}`, series: CATEGORY_SERIES, rows: chartRows }],
    table: { id: 'crawlers', columns: [text('crawler'), ...categoryColumns(), count('inexact')], rows },
  };
}

function strataSection(data: ReportData, crawl: CrawlCounts, of: string): Section {
  const rows: string[][] = [];
  const chartRows: StackedChart['rows'] = [];
  for (const name of data.crawlerNames) {
    const byStratum = crawl.strata.get(name);
    if (byStratum === undefined) continue;
    for (const stratum of STRATUM_NAMES) {
      const n = byStratum.get(stratum);
      if (n === undefined) continue;
      rows.push([name, stratum, ...categoryCells(n)]);
      chartRows.push({ group: name, label: stratum, ...categoryRow(n) });
    }
  }
  return {
    id: 'strata',
    heading: 'Per rank stratum',
    intro: `The same shares within the top 1k, 10k, 100k and 1M sites of the ranked list${of}: a site of rank 500 counts in each top-k; ranks past 1M are "beyond 1M", sites the list does not hold "unranked".`,
    charts: [{ kind: 'stacked', id: 'strata-chart', title: `Share of sites per category, per crawler and rank stratum${of}`, series: CATEGORY_SERIES, rows: chartRows }],
    table: { id: 'strata', columns: [text('crawler'), text('stratum'), ...categoryColumns()], rows },
  };
}

function crawlsSection(data: ReportData, labels: string[]): Section {
  const rows: string[][] = [];
  for (const label of labels) {
    const crawl = data.crawls.get(label)!;
    for (const name of data.crawlerNames) {
      const n = crawl.crawlers.get(name);
      if (n !== undefined) rows.push([label, name, ...categoryCells(n)]);
    }
  }
  const charts: TrendChart[] = REPORT_CATEGORIES.filter((c) => c !== 'unknown').map((category) => ({
    kind: 'trend',
    id: `crawls-${category}-chart`,
    title: `Share of sites where the crawler is ${CATEGORY_SERIES.find((s) => s.key === category)!.label}, per crawl`,
    xLabels: labels,
    yLabel: `sites, ${category} disallowed (%)`,
    series: data.crawlerNames.map((name) => ({
      label: name,
      points: labels.map((label) => {
        const n = data.crawls.get(label)!.crawlers.get(name);
        return n === undefined ? null : { count: n[category], total: total(n) };
      }),
    })),
  }));
  return {
    id: 'crawls',
    heading: 'Across crawls',
    intro: 'Per crawler, the share of sites in each category in each crawl, the crawls in the sorted order of their labels.',
    charts,
    table: { id: 'crawls', columns: [text('crawl'), text('crawler'), ...categoryColumns()], rows },
  };
}

function operatorsSection(data: ReportData, crawl: CrawlCounts, of: string): Section {
  const rows: string[][] = [];
  const categoryRows: StackedChart['rows'] = [];
  const answerRows: StackedChart['rows'] = [];
  for (const op of data.operatorNames) {
    const byPurpose = crawl.operators.get(op);
    if (byPurpose === undefined) continue;
    for (const p of PURPOSES) {
      const n = byPurpose.get(p) ?? { ...emptyCounts(), answers: { yes: 0, no: 0, unknown: 0 } };
      rows.push([op, p, ...categoryCells(n), ...ANSWERS.map((a) => String(n.answers[a]))]);
      categoryRows.push({ group: op, label: p, ...categoryRow(n) });
      answerRows.push({ group: op, label: p, counts: ANSWERS.map((a) => n.answers[a]), total: ANSWERS.reduce((s, a) => s + n.answers[a], 0) });
    }
  }
  return {
    id: 'operators',
    heading: 'Per operator and purpose',
    intro: `For each operator and purpose, the category of the crawler that fetches for it (unknown: the operator lists none, or no robots.txt is known), and whether the operator may use the site for it at / (yes, no, unknown)${of}.`,
    charts: [
      { kind: 'stacked', id: 'operators-chart', title: `Category of the operator's crawler, per operator and purpose${of}`, series: CATEGORY_SERIES, rows: categoryRows },
      { kind: 'stacked', id: 'operators-answers-chart', title: `May the operator use the site for the purpose, at /${of}`, series: ANSWERS.map((a) => ({ key: `answer-${a}`, label: a })), rows: answerRows },
    ],
    table: { id: 'operators', columns: [text('operator'), text('purpose'), ...categoryColumns(), ...ANSWERS.map((a) => count(`answer_${a}`, `answer ${a}`))], rows },
  };
}

const LINE_KINDS = [
  { key: 'content_signal', label: 'Content-Signal', of: (c: CrawlCounts) => c.withContentSignal },
  { key: 'license', label: 'License', of: (c: CrawlCounts) => c.withLicense },
  { key: 'llm_policy', label: 'LLM-Policy', of: (c: CrawlCounts) => c.withLlmPolicy },
];

function linesSection(data: ReportData, labels: string[], latest: CrawlCounts, of: string): Section {
  const columns = [...(data.hasCrawl ? [text('crawl')] : []), count('sites'), ...LINE_KINDS.map((k) => count(k.key, k.label)), ...LINE_KINDS.map((k) => share(k.key, k.label))];
  const rows = labels.map((label) => {
    const c = data.crawls.get(label)!;
    return [...(data.hasCrawl ? [label] : []), String(c.sites), ...LINE_KINDS.map((k) => String(k.of(c))), ...LINE_KINDS.map((k) => percent(k.of(c), c.sites))];
  });
  const charts: Chart[] = [{
    kind: 'stacked', id: 'lines-chart', title: `Sites whose robots.txt has the line${of}`,
    series: [{ key: 'with', label: 'with the line' }, { key: 'without', label: 'without' }],
    rows: LINE_KINDS.map((k) => ({ label: k.label, counts: [k.of(latest), latest.sites - k.of(latest)], total: latest.sites })),
  }];
  if (data.hasCrawl) {
    charts.push({
      kind: 'trend', id: 'lines-crawls-chart', title: 'Share of sites whose robots.txt has the line, per crawl', xLabels: labels, yLabel: 'sites with the line (%)',
      series: LINE_KINDS.map((k) => ({ label: k.label, points: labels.map((label) => ({ count: k.of(data.crawls.get(label)!), total: data.crawls.get(label)!.sites })) })),
    });
  }
  return {
    id: 'lines',
    heading: 'Content-Signal, License and LLM-Policy lines',
    intro: 'The share of sites whose robots.txt carries each kind of line (any value).',
    charts,
    table: { id: 'lines', columns, rows },
  };
}

/** A table as TSV: its header, then its rows (cells with a tab or line end have it replaced by a space). */
export function tableTsv(table: Table): string {
  const cell = (s: string) => s.replace(/[\t\r\n]/g, ' ');
  return [table.columns.map((c) => c.key), ...table.rows].map((r) => r.map(cell).join('\t')).join('\n') + '\n';
}
