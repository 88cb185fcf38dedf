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

const ENVELOPE_COLORS = { default: '#d62728', cold: '#1f77b4', hot: '#2ca02c' };

/**
 * The envelope workload's chart: per profile, the cost (ms, summed over its
 * files) of parse + compile + N checks against N, log-log, a line each for the
 * default options, always-cold and always-hot: the default should hug the lower
 * of the other two. Undefined when the results have no envelope curve.
 */
export function renderEnvelopeChart(results) {
  const w = results.workloads.find((x) => x.kind === 'envelope');
  const runs = w ? results.engines.filter((e) => w.results[e.id]?.curve).map((e) => ({ label: e.label, curve: w.results[e.id].curve })) : [];
  if (runs.length === 0) return undefined;
  const PW = 380, PH = 240, L = 60, T = 50, GAP = 50;
  const width = L + runs.length * (PW + GAP) + 20;
  const height = T + PH + 70;
  const costs = runs.flatMap((r) => r.curve.flatMap((p) => [p.default, p.cold, p.hot])).filter((v) => v > 0);
  const lo = Math.floor(Math.log10(Math.min(...costs)));
  const hi = Math.max(lo + 1, Math.ceil(Math.log10(Math.max(...costs))));
  const ns = runs[0].curve.map((p) => p.n);
  const nlo = Math.log10(ns[0]), nhi = Math.max(nlo + 1, Math.log10(ns[ns.length - 1]));
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">Parse + compile + N checks: default options against always-cold and always-hot (ms, log-log)</text>`,
    `<text x="10" y="32" fill="#555">${esc(`${w.description.split(';')[0]}; ${results.machine.cpu}, ${results.machine.cores} cores, ${results.date.slice(0, 10)}`).slice(0, 200)}</text>`,
  ];
  runs.forEach((run, k) => {
    const x0 = L + k * (PW + GAP);
    const x = (n) => x0 + ((Math.log10(n) - nlo) / (nhi - nlo)) * PW;
    const y = (v) => T + PH - ((Math.log10(v) - lo) / (hi - lo)) * PH;
    out.push(`<text x="${x0}" y="${T - 6}" font-weight="bold">${esc(run.label)}</text>`);
    out.push(`<rect x="${x0}" y="${T}" width="${PW}" height="${PH}" fill="none" stroke="#999"/>`);
    for (let d = lo; d <= hi; d++) {
      out.push(`<line x1="${x0}" y1="${y(10 ** d).toFixed(1)}" x2="${x0 + PW}" y2="${y(10 ** d).toFixed(1)}" stroke="#eee"/>`);
      out.push(`<text x="${x0 - 4}" y="${(y(10 ** d) + 4).toFixed(1)}" text-anchor="end" fill="#555">${esc(formatFigure(10 ** d, 'ms'))}</text>`);
    }
    for (const p of run.curve) {
      out.push(`<text x="${x(p.n).toFixed(1)}" y="${T + PH + 14}" text-anchor="middle" fill="#555">${esc(p.n.toLocaleString('en'))}</text>`);
      out.push(`<text x="${x(p.n).toFixed(1)}" y="${T + PH + 28}" text-anchor="middle" fill="${p.ratio > 1.25 ? '#b00' : '#555'}">${p.ratio.toFixed(2)}×</text>`);
    }
    for (const option of ['cold', 'hot', 'default']) {
      const pts = run.curve.map((p) => `${x(p.n).toFixed(1)},${y(p[option]).toFixed(1)}`).join(' ');
      out.push(`<polyline points="${pts}" fill="none" stroke="${ENVELOPE_COLORS[option]}" stroke-width="${option === 'default' ? 2.5 : 1.5}"${option === 'default' ? '' : ' stroke-dasharray="5,3"'}/>`);
    }
    out.push(`<text x="${x0 + PW / 2}" y="${T + PH + 44}" text-anchor="middle">N (checks per file); below: default / min(cold, hot)</text>`);
  });
  const lx = L;
  ['default', 'cold', 'hot'].forEach((o, i) => {
    out.push(`<line x1="${lx + i * 110}" y1="${height - 10}" x2="${lx + i * 110 + 24}" y2="${height - 10}" stroke="${ENVELOPE_COLORS[o]}" stroke-width="2"/>`);
    out.push(`<text x="${lx + i * 110 + 28}" y="${height - 6}">${o === 'default' ? 'default' : o === 'cold' ? 'always cold' : 'always hot'}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
