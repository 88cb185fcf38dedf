// The report as one self-contained HTML page: its style inline, its charts
// inline SVG, no script, nothing fetched (it opens from a disk, a mail or an
// archive as it is). Each section: a heading, what it shows, its charts, and
// the table of the numbers behind them (the same as its TSV file).
import { thousands } from '../../base/numbers.js';
import type { ReportData } from './report-data.js';
import { escapeXml as esc, stackedSvg, trendSvg } from './report-svg.js';
import { reportSections, type Section, type Table } from './report-tables.js';

export interface PageOptions {
  title: string;
  /** The inputs read, as the command was given them. */
  inputs: string[];
  /** What wrote it (robots-wasm and its version). */
  generator: string;
  /** The folder the TSV files were written to, if any. */
  tsvDir?: string;
}

const STYLE = `
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111; background: #fff; max-width: 1000px; margin: 2rem auto; padding: 0 1rem; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .25rem; }
h2 { font-size: 1.25rem; margin-top: 2.5rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
p.meta { color: #444; margin-top: 0; }
figure { margin: 1.25rem 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-weight: 600; margin-bottom: .4rem; }
table { border-collapse: collapse; font-size: .85rem; margin: .5rem 0 1rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { padding: .2rem .5rem; border-bottom: 1px solid #e4e4e4; text-align: left; }
th { white-space: nowrap; }
.scroll { overflow-x: auto; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
details { margin-bottom: 1rem; }
summary { cursor: pointer; color: #0b5394; }
.notes li { color: #7a3b00; }
@media print { details { display: block; } details > summary { display: none; } }
`;

function tableHtml(table: Table, heading: string): string {
  const head = table.columns.map((c) => `<th scope="col"${c.numeric ? ' class="n"' : ''}>${esc(c.label)}</th>`).join('');
  const rows = table.rows.map((r) => '<tr>' + r.map((v, i) => {
    const c = table.columns[i];
    // Counts with thousands separators; shares as the TSV writes them.
    const shown = c.numeric && /^\d+$/.test(v) ? thousands(Number(v)) : v;
    return i === 0 ? `<th scope="row">${esc(shown)}</th>` : `<td${c.numeric ? ' class="n"' : ''}>${esc(shown)}</td>`;
  }).join('') + '</tr>').join('\n');
  // (In a box of its own width that scrolls: a wide table on a phone scrolls, not the page.)
  return `<div class="scroll"><table data-tsv="${esc(table.id)}.tsv"><caption>${esc(heading)}: the numbers (${esc(table.id)}.tsv)</caption>\n<thead><tr>${head}</tr></thead>\n<tbody>\n${rows}\n</tbody></table></div>`;
}

function sectionHtml(s: Section): string {
  const charts = s.charts.map((c) => `<figure data-tsv="${esc(s.table.id)}.tsv"><figcaption>${esc(c.title)}</figcaption>${c.kind === 'stacked' ? stackedSvg(c) : trendSvg(c)}</figure>`).join('\n');
  // A long table is folded (a click opens it; printing shows it); a short one is shown.
  const table = tableHtml(s.table, s.heading);
  const folded = s.table.rows.length > 12 ? `<details><summary>The table (${s.table.rows.length} rows)</summary>\n${table}\n</details>` : table;
  return `<section id="${esc(s.id)}">\n<h2>${esc(s.heading)}</h2>\n<p>${esc(s.intro)}</p>\n${charts}\n${folded}\n</section>`;
}

/** The page, and the tables it shows (for the TSV files). */
export function reportPage(data: ReportData, o: PageOptions): { html: string; tables: Table[] } {
  const sections = reportSections(data);
  const labels = data.crawlLabels();
  const sites = data.sites();
  const facts = [
    `${thousands(sites)} site line${sites === 1 ? '' : 's'}`,
    `${data.crawlerNames.length} crawler${data.crawlerNames.length === 1 ? '' : 's'}`,
    ...(data.hasCrawl ? [`${labels.length} crawl${labels.length === 1 ? '' : 's'} (${labels.map((l) => (l === '' ? '(no label)' : l)).join(', ')})`] : []),
    ...(data.hasRank ? ['ranked'] : []),
  ];
  const notes: string[] = [];
  if (data.badLines > 0) {
    notes.push(`${thousands(data.badLines)} input line${data.badLines === 1 ? ' was' : 's were'} not a site line of robots audit and ${data.badLines === 1 ? 'is' : 'are'} left out` +
      (data.badNotes.length > 0 ? ` (${data.badNotes.map((b) => `${b.where}: ${b.why}`).join('; ')}${data.badLines > data.badNotes.length ? '; …' : ''})` : '') + '.');
  }
  const html = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${esc(o.title)}</h1>
<p class="meta">${esc(facts.join(' · '))}. From ${esc(o.inputs.join(', '))}, by ${esc(o.generator)}.${o.tsvDir === undefined ? '' : ` The tables as TSV: ${esc(o.tsvDir)}.`}</p>
${notes.length > 0 ? `<ul class="notes">${notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
<p>Categories, per crawler and site, from the rules of its robots.txt (exact, not from sample URLs): <b>all</b>, every path disallowed (<code>/robots.txt</code> aside); <b>part</b>, some paths disallowed; <b>none</b>, no path disallowed; <b>unknown</b>, no robots.txt known.</p>
<nav><ul>${sections.map((s) => `<li><a href="#${esc(s.id)}">${esc(s.heading)}</a></li>`).join('')}</ul></nav>
</header>
<main>
${sections.map(sectionHtml).join('\n')}
</main>
</body>
</html>
`;
  return { html, tables: sections.map((s) => s.table) };
}
