// The report's charts as inline SVG: no script, no font or file fetched, the
// colours in the elements themselves (a chart copied out of the page keeps
// them). Each chart names itself (title, desc) for screen readers, each bar or
// point carries its numbers (a title shown on hover, data-* attributes), and
// its table follows it on the page.
import { thousands } from '../../base/numbers.js';
import { percent, type Series, type StackedChart, type TrendChart } from './report-tables.js';

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Colours a colour-blind reader tells apart (Okabe and Ito's palette), fixed for the words the report uses. */
const OKABE_ITO = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];
const COLOURS: Record<string, string> = {
  all: '#D55E00', part: '#E69F00', none: '#009E73', unknown: '#BBBBBB',
  ok: '#0072B2', unavailable: '#56B4E9', unreachable: '#D55E00', missing: '#BBBBBB',
  'answer-yes': '#009E73', 'answer-no': '#D55E00', 'answer-unknown': '#BBBBBB',
  with: '#0072B2', without: '#DDDDDD',
};
/** Fills that dark text reads on (the others take white). */
const LIGHT = new Set(['#E69F00', '#BBBBBB', '#56B4E9', '#DDDDDD', '#F0E442']);
/** Past the palette, lines are told apart by their dashes too. */
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

const colourOf = (s: Series, i: number) => COLOURS[s.key] ?? OKABE_ITO[i % OKABE_ITO.length];

const WIDTH = 760;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"';

/** A label cut to fit its column (the whole of it stays in the element's title). */
function fit(label: string, chars: number): string {
  return label.length <= chars ? label : `${label.slice(0, chars - 1)}…`;
}

function legend(series: { label: string; colour: string; dash?: string }[], y: number, line: boolean): { svg: string; height: number } {
  let x = 0;
  let row = 0;
  let svg = '';
  for (const s of series) {
    // (A generous width per character: a label never runs into the next item's mark.)
    const w = 36 + Math.min(s.label.length, 40) * 8;
    if (x > 0 && x + w > WIDTH) {
      x = 0;
      row++;
    }
    const top = y + row * 20;
    svg += line
      ? `<line x1="${x}" y1="${top + 7}" x2="${x + 18}" y2="${top + 7}" stroke="${s.colour}" stroke-width="3"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''}/>`
      : `<rect x="${x}" y="${top}" width="14" height="14" fill="${s.colour}"/>`;
    svg += `<text x="${x + 22}" y="${top + 11}" font-size="12">${escapeXml(fit(s.label, 40))}</text>`;
    x += w;
  }
  return { svg: `<g class="legend">${svg}</g>`, height: (row + 1) * 20 };
}

const LABEL_WIDTH = 190;
const TOTAL_WIDTH = 80;
const BAR_X = LABEL_WIDTH + 8;
const BAR_WIDTH = WIDTH - BAR_X - TOTAL_WIDTH;
const ROW = 24;
const BAR = 17;

/** Bars of 100 %: a row per thing, a segment per series; the site count at the right. */
export function stackedSvg(chart: StackedChart): string {
  const id = escapeXml(chart.id);
  const colours = chart.series.map(colourOf);
  const key = legend(chart.series.map((s, i) => ({ label: s.label, colour: colours[i] })), 0, false);
  let y = key.height + 10;
  let body = '';
  let group: string | undefined;
  for (const row of chart.rows) {
    if (row.group !== undefined && row.group !== group) {
      group = row.group;
      body += `<text x="0" y="${y + 14}" font-size="13" font-weight="600">${escapeXml(fit(group, 60))}</text>`;
      y += 20;
    }
    const name = row.group === undefined ? row.label : `${row.group}, ${row.label}`;
    const indent = row.group === undefined ? 0 : 12;
    body += `<g class="bar-row" data-row="${escapeXml(name)}" data-total="${row.total}">`;
    body += `<text x="${indent}" y="${y + 13}" font-size="12"><title>${escapeXml(name)}</title>${escapeXml(fit(row.label, Math.floor((LABEL_WIDTH - indent) / 7)))}</text>`;
    if (row.total === 0) body += `<rect x="${BAR_X}" y="${y}" width="${BAR_WIDTH}" height="${BAR}" fill="none" stroke="#BBBBBB"/>`;
    let x = BAR_X;
    row.counts.forEach((n, i) => {
      if (row.total === 0) return;
      const w = (BAR_WIDTH * n) / row.total;
      const share = percent(n, row.total);
      body += `<rect class="segment" x="${x.toFixed(2)}" y="${y}" width="${w.toFixed(2)}" height="${BAR}" fill="${colours[i]}" data-series="${escapeXml(chart.series[i].key)}" data-value="${n}" data-total="${row.total}">` +
        `<title>${escapeXml(name)}: ${escapeXml(chart.series[i].label)}, ${thousands(n)} of ${thousands(row.total)} sites (${share} %)</title></rect>`;
      if (w >= 44) {
        body += `<text x="${(x + w / 2).toFixed(2)}" y="${y + 13}" font-size="11" text-anchor="middle" fill="${LIGHT.has(colours[i]) ? '#111111' : '#FFFFFF'}" aria-hidden="true">${(100 * n / row.total).toFixed(1)} %</text>`;
      }
      x += w;
    });
    body += `<text x="${WIDTH}" y="${y + 13}" font-size="12" text-anchor="end">${thousands(row.total)}</text></g>`;
    y += ROW;
  }
  // The axis: 0 to 100 % of the sites of each row.
  let axis = `<text x="${WIDTH}" y="${key.height + 4}" font-size="11" text-anchor="end" fill="#555555">sites</text>`;
  for (const t of [0, 25, 50, 75, 100]) {
    const x = BAR_X + (BAR_WIDTH * t) / 100;
    axis += `<line x1="${x}" y1="${key.height + 6}" x2="${x}" y2="${y + 2}" stroke="#000000" stroke-opacity="${t === 0 ? 0.6 : 0.15}"/>`;
    axis += `<text x="${x}" y="${y + 16}" font-size="11" text-anchor="middle">${t} %</text>`;
  }
  axis += `<text x="${BAR_X + BAR_WIDTH / 2}" y="${y + 34}" font-size="12" text-anchor="middle">share of sites (%)</text>`;
  const height = y + 42;
  const desc = `Bars of 100 %, one per ${chart.rows.length === 1 ? 'row' : `row (${chart.rows.length})`}, split by ${chart.series.map((s) => s.label).join(', ')}; the table below holds the numbers.`;
  return svgOf(id, chart.title, desc, height, key.svg + axis + body, 'stacked');
}

/** A top for a share axis of four steps, each a short number: the smallest at or above the largest share. */
function axisTop(max: number): number {
  for (const step of [0.25, 0.5, 1, 2, 2.5, 5, 10, 20, 25]) if (max <= 4 * step) return 4 * step;
  return 100;
}

/** Shares over crawls: a line per series, a point per crawl (a gap where a series has no sites). */
export function trendSvg(chart: TrendChart): string {
  const id = escapeXml(chart.id);
  const styles = chart.series.map((_, i) => ({ colour: OKABE_ITO[i % OKABE_ITO.length], dash: DASHES[Math.floor(i / OKABE_ITO.length) % DASHES.length] }));
  const key = legend(chart.series.map((s, i) => ({ label: s.label, ...styles[i] })), 0, true);
  const left = 72;
  const right = 24;
  const top = key.height + 14;
  const plotHeight = 220;
  const plotWidth = WIDTH - left - right;
  const n = chart.xLabels.length;
  const shares = chart.series.flatMap((s) => s.points.filter((p) => p !== null && p.total > 0).map((p) => (100 * p!.count) / p!.total));
  const yTop = axisTop(Math.max(0, ...shares));
  // The first and last points stand in from the plot's edges, so their crawls' labels fit under them.
  const inset = 48;
  const xOf = (i: number) => left + (n === 1 ? plotWidth / 2 : inset + ((plotWidth - 2 * inset) * i) / (n - 1));
  const yOf = (share: number) => top + plotHeight - (plotHeight * share) / yTop;
  let axis = '';
  for (let t = 0; t <= 4; t++) {
    const v = (yTop * t) / 4;
    const y = yOf(v);
    axis += `<line x1="${left}" y1="${y}" x2="${WIDTH - right}" y2="${y}" stroke="#000000" stroke-opacity="${t === 0 ? 0.6 : 0.15}"/>`;
    axis += `<text x="${left - 6}" y="${y + 4}" font-size="11" text-anchor="end">${v} %</text>`;
  }
  // Past 12 crawls every label would overlap: every k-th is written (each point's title names its crawl).
  const every = Math.ceil(n / 12);
  chart.xLabels.forEach((label, i) => {
    if (i % every !== 0 && i !== n - 1) return;
    axis += `<text x="${xOf(i)}" y="${top + plotHeight + 16}" font-size="11" text-anchor="middle">${escapeXml(fit(label === '' ? '(no label)' : label, 14))}</text>`;
  });
  axis += `<text x="${left + plotWidth / 2}" y="${top + plotHeight + 36}" font-size="12" text-anchor="middle">crawl</text>`;
  axis += `<text transform="translate(12 ${top + plotHeight / 2}) rotate(-90)" font-size="12" text-anchor="middle">${escapeXml(chart.yLabel)}</text>`;
  let body = '';
  chart.series.forEach((s, i) => {
    const { colour, dash } = styles[i];
    let d = '';
    let pen = 'M';
    s.points.forEach((p, j) => {
      if (p === null || p.total === 0) {
        pen = 'M';
        return;
      }
      d += `${pen}${xOf(j).toFixed(2)} ${yOf((100 * p.count) / p.total).toFixed(2)} `;
      pen = 'L';
    });
    body += `<g class="series" data-series="${escapeXml(s.label)}">`;
    if (d !== '') body += `<path d="${d.trim()}" fill="none" stroke="${colour}" stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`;
    s.points.forEach((p, j) => {
      if (p === null || p.total === 0) return;
      const label = chart.xLabels[j];
      body += `<circle class="point" cx="${xOf(j).toFixed(2)}" cy="${yOf((100 * p.count) / p.total).toFixed(2)}" r="4" fill="${colour}" data-crawl="${escapeXml(label)}" data-value="${p.count}" data-total="${p.total}">` +
        `<title>${escapeXml(s.label)}, crawl ${escapeXml(label)}: ${thousands(p.count)} of ${thousands(p.total)} sites (${percent(p.count, p.total)} %)</title></circle>`;
    });
    body += '</g>';
  });
  const height = top + plotHeight + 46;
  const desc = `Lines over ${n} crawl${n === 1 ? '' : 's'} (${chart.series.map((s) => s.label).join(', ')}), the share of sites from 0 to ${yTop} %; the table below holds the numbers.`;
  return svgOf(id, chart.title, desc, height, key.svg + axis + body, 'trend');
}

function svgOf(id: string, title: string, desc: string, height: number, content: string, kind: string): string {
  return `<svg class="chart ${kind}" id="${id}" viewBox="0 0 ${WIDTH} ${Math.ceil(height)}" width="${WIDTH}" height="${Math.ceil(height)}" role="img" aria-labelledby="${id}-title ${id}-desc" ${FONT} fill="#111111">` +
    `<title id="${id}-title">${escapeXml(title)}</title><desc id="${id}-desc">${escapeXml(desc)}</desc>${content}</svg>`;
}
