// The tables of a results object (the headline, then one per workload), as plain
// rows, and their rendering for the terminal and for Markdown.
import { formatFigure } from './format.mjs';
import { CAUSES as CAUSE_ORDER } from './agreement-causes.mjs';

const HEADLINE_KINDS = { throughput: '× speed', memory: '× bytes', latency: '× ms' };

/** What a workload's ratios are taken against: robots-parser, unless the
 * workload names another engine (pathological: robots-parser never returns there). */
function baselineOf(results, workload) {
  return workload.results[workload.baseline?.id ?? results.baseline];
}

const baselineName = (workload) => workload.baseline?.name ?? 'robots-parser';

function ratio(results, workload, id) {
  const base = baselineOf(results, workload);
  const r = workload.results[id];
  if (!base || base.error || !r || r.error || !(base.median > 0)) return undefined;
  return r.median / base.median;
}

/**
 * A variant's ratio to the baseline's variant of the same label (e.g. the same timing order);
 * to the baseline's one figure when it has no variants (top20: robots-parser has one way to match).
 */
function variantRatio(results, workload, v) {
  const baseline = baselineOf(results, workload);
  const base = baseline?.variants ? baseline.variants.find((b) => b.label === v.label) : baseline;
  if (!base || base.error || v.error || !(base.median > 0)) return undefined;
  return v.median / base.median;
}

export function formatRatio(x) {
  if (x === undefined) return '—';
  return `${x >= 100 ? Math.round(x) : x >= 10 ? x.toFixed(1) : x.toFixed(2)}×`;
}

/**
 * The headline: one row per engine; for throughput, memory and latency workloads
 * the ratio of its median to robots-parser's in the same run, then the agreement.
 */
export function headlineTable(results) {
  const columns = results.workloads.filter((w) => w.kind in HEADLINE_KINDS || w.kind === 'agreement');
  const headers = ['engine', ...columns.map((w) => (w.kind === 'agreement' ? 'agrees with Google' : `${w.id} (${HEADLINE_KINDS[w.kind]}${w.baseline ? ` vs ${w.baseline.name}` : ''})`))];
  const rows = results.engines.map((e) => [
    e.label,
    ...columns.map((w) => {
      const r = w.results[e.id];
      if (!r) return '';
      if (r.error) return r.error.startsWith('timeout') ? 'timeout' : 'error';
      return w.kind === 'agreement' ? formatFigure(r.median, '%') : formatRatio(ratio(results, w, e.id));
    }),
  ]);
  return { headers, rows };
}

function notes(r) {
  const n = [];
  if (r.error) n.push(r.error);
  if (r.warmed !== undefined && r.warmed < 1) n.push(`warm pass over ${(r.warmed * 100).toPrecision(2)}% first`);
  if (r.coverage !== undefined && r.coverage < 1) n.push(`passes went over ${(r.coverage * 100).toPrecision(2)}% of the work`);
  if (r.parseErrors) n.push(`threw on ${r.parseErrors} file(s)`);
  if (r.filesPerSecond) n.push(`${formatFigure(r.filesPerSecond.median, 'files/s')} files/s`);
  if (r.compiledPerHost !== undefined) n.push(`${formatFigure(r.compiledPerHost, 'bytes/host')} before the checks`);
  if (r.coldStartParts !== undefined) {
    const { importMs, instantiateMs, verdictMs } = r.coldStartParts;
    // (instantiate: results of runs before the cold start imported the package itself, through an adapter)
    const instantiate = instantiateMs === undefined ? '' : `, instantiate ${formatFigure(instantiateMs, 'ms')}`;
    n.push(`import ${formatFigure(importMs, 'ms')}${instantiate}, first verdict ${formatFigure(verdictMs, 'ms')} ms (medians)`);
  }
  if (r.processWallMs !== undefined) n.push(`process wall ${formatFigure(r.processWallMs, 'ms')} ms`);
  if (r.agree !== undefined) n.push(`${r.agree.toLocaleString('en')} of ${r.total.toLocaleString('en')}`);
  if (r.conformance) n.push(`conformance vectors: ${r.conformance.agree.toLocaleString('en')} of ${r.conformance.total.toLocaleString('en')}`);
  if (r.lineTotal) n.push(`verdict and matching line: ${formatFigure((100 * r.lineAgree) / r.lineTotal, '%')} (${r.lineAgree.toLocaleString('en')})`);
  if (r.note) n.push(r.note);
  return n.join('; ');
}

/** One workload: median, min and max (in its unit), the ratio to robots-parser (or the workload's baseline), notes. */
export function workloadTable(results, workload) {
  const headers = ['engine', `median ${workload.unit}`, 'min', 'max', 'passes', `× ${baselineName(workload)}`, 'notes'];
  const row = (label, r, x) => {
    const f = (v) => (r.error ? '—' : formatFigure(v, workload.unit));
    return [label, f(r.median), f(r.min), f(r.max), r.samples === undefined ? '—' : String(r.samples), formatRatio(x), notes(r)];
  };
  // A result with variants (e.g. thread counts of the CLI) is a row per variant.
  const rows = results.engines
    .filter((e) => workload.results[e.id])
    .flatMap((e) => {
      const r = workload.results[e.id];
      if (r.variants) return r.variants.map((v) => row(`${e.label}: ${v.label}`, v, variantRatio(results, workload, v)));
      return [row(e.label, r, ratio(results, workload, e.id))];
    });
  return { headers, rows };
}

const NUMERIC = /^[\d.,—×%kMGiBms -]+$/;

export function renderText({ headers, rows }) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i > 0 && NUMERIC.test(c) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function renderMarkdown({ headers, rows }) {
  const esc = (c) => c.replace(/\|/g, '\\|');
  const align = headers.map((_, i) => (i === 0 || headers[i] === 'notes' || headers[i] === 'example' ? '---' : '---:'));
  return [`| ${headers.map(esc).join(' | ')} |`, `| ${align.join(' | ')} |`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

/**
 * Per engine, where it differs from Google (the agreement workload's causes): a table of
 * cause, probes and one example each; engines that agree on everything are listed as such.
 */
export function causeTables(results) {
  const w = results.workloads.find((x) => x.kind === 'agreement');
  if (!w) return [];
  return results.engines.filter((e) => w.results[e.id]?.causes).map((e) => {
    const r = w.results[e.id];
    const rows = CAUSE_ORDER.filter((c) => r.causes[c]).map((c) => [c, r.causes[c].count.toLocaleString('en'), (r.causes[c].lineOnly ?? 0).toLocaleString('en'), r.causes[c].example]);
    return { engine: e.label, agreesEverywhere: rows.length === 0, table: { headers: ['cause', 'verdict differs', 'only the line differs', 'example'], rows } };
  });
}

/** Everything for the terminal: the headline, then each workload's table. */
export function renderResultsText(results) {
  const parts = [`Ratios against ${results.baseline}, same run (higher speed, lower bytes and ms are better):`, renderText(headlineTable(results))];
  for (const w of results.workloads) parts.push('', `${w.title} [${w.id}]: ${w.description}`, renderText(workloadTable(results, w)));
  return parts.join('\n');
}
