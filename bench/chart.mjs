// The report's chart: throughput per engine per workload, horizontal bars on a
// log scale (a median bar with a min–max whisker), as a standalone SVG string.
import { formatFigure } from './format.mjs';

const COLORS = ['#1f77b4', '#6baed6', '#2ca02c', '#98df8a', '#d62728', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
const LABEL_W = 250;
const PLOT_W = 560;
const VALUE_W = 90;
const BAR_H = 14;
const GROUP_GAP = 14;
const TITLE_H = 20;
const TOP = 40;

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function renderChart(results) {
  const groups = results.workloads.filter((w) => w.kind === 'throughput');
  const engines = results.engines;
  const values = groups.flatMap((w) => Object.values(w.results).flatMap((r) => (r.error ? [] : [r.min, r.max, r.median]))).filter((v) => v > 0);
  // The decades that hold every figure (at least one decade).
  const lo = Math.floor(Math.log10(values.length ? Math.min(...values) : 1));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(values.length ? Math.max(...values) : 10)));
  const x = (v) => LABEL_W + ((Math.log10(v) - lo) / (hi - lo)) * PLOT_W;
  const rowsOf = (w) => engines.filter((e) => w.results[e.id]);
  const height = TOP + groups.reduce((h, w) => h + TITLE_H + rowsOf(w).length * BAR_H + GROUP_GAP, 0) + 30;
  const width = LABEL_W + PLOT_W + VALUE_W;
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">Throughput per engine per workload (log scale; bar: median, whisker: min–max)</text>`,
    `<text x="10" y="32" fill="#555">${esc(`${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}, ${results.date.slice(0, 10)}`)}</text>`,
  ];
  // Decade grid lines, labelled at the bottom.
  for (let d = lo; d <= hi; d++) {
    const gx = x(10 ** d).toFixed(1);
    out.push(`<line x1="${gx}" y1="${TOP}" x2="${gx}" y2="${height - 24}" stroke="#ddd"/>`);
    out.push(`<text x="${gx}" y="${height - 10}" text-anchor="middle" fill="#555">${esc(formatFigure(10 ** d, ''))}</text>`);
  }
  let y = TOP;
  for (const w of groups) {
    out.push(`<text x="10" y="${y + 14}" font-weight="bold">${esc(`${w.title} (${w.unit})`)}</text>`);
    y += TITLE_H;
    for (const e of rowsOf(w)) {
      const r = w.results[e.id];
      const color = COLORS[engines.indexOf(e) % COLORS.length];
      out.push(`<text x="${LABEL_W - 6}" y="${y + BAR_H - 3}" text-anchor="end">${esc(e.label)}</text>`);
      if (r.error || !(r.median > 0)) {
        out.push(`<text x="${LABEL_W + 4}" y="${y + BAR_H - 3}" fill="#b00">${esc(r.error?.startsWith('timeout') ? 'timeout' : 'error')}</text>`);
      } else {
        const x0 = LABEL_W;
        out.push(`<rect x="${x0}" y="${y + 2}" width="${Math.max(1, x(r.median) - x0).toFixed(1)}" height="${BAR_H - 4}" fill="${color}"><title>${esc(`${e.label}: ${formatFigure(r.median, w.unit)} ${w.unit}`)}</title></rect>`);
        const cy = y + BAR_H / 2;
        out.push(`<line x1="${x(r.min).toFixed(1)}" y1="${cy}" x2="${x(r.max).toFixed(1)}" y2="${cy}" stroke="#222"/>`);
        out.push(`<text x="${LABEL_W + PLOT_W + 6}" y="${y + BAR_H - 3}">${esc(formatFigure(r.median, w.unit))}</text>`);
      }
      y += BAR_H;
    }
    y += GROUP_GAP;
  }
  out.push('</svg>');
  return out.join('\n') + '\n';
}
