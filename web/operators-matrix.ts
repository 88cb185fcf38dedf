// What each operator may do with the URL picked (issue 40, item 6): a matrix,
// rows the operators (every one of src/data/operators.ts, in its order: the
// same rows for every file and URL, so answers are found where they were),
// columns fetch and the three purposes. A cell is one word and the lines
// behind it: in its title on hover, and under the matrix on a click or tap (a
// title alone cannot be read on a phone). The answers are the library's
// (RobotsTxt.operatorUsage; docs/library.md#control-tokens-and-operators).
import { OPERATORS, type CrawlerFetch, type OperatorUsage, type Purpose, type RobotsTxt, type UsageSignal, PURPOSES } from '../src/index.js';

/** A column: fetch, or a purpose. */
export type MatrixColumn = 'fetch' | Purpose;
export const MATRIX_COLUMNS: readonly MatrixColumn[] = ['fetch', ...PURPOSES];

/** fetch's word: may the operator's crawlers for the purposes fetch the URL (all: yes, none: no, some of them: some; none listed: unknown). */
export type FetchWord = 'yes' | 'no' | 'some' | 'unknown';

/** One cell: its word and the lines behind it, in words. */
export interface MatrixCell {
  word: string;
  /** The robots.txt lines named (deciding rules and use lines), in file order; 0 (no rule matched) left out. */
  lines: number[];
  says: string[];
}

const FIELD: Record<UsageSignal['field'], string> = { 'content-usage': 'Content-Usage', 'content-signal': 'Content-Signal', 'control-token': 'control token' };

function fetchText(f: CrawlerFetch): string {
  return `${f.crawler} ${f.allowed ? 'may fetch it' : 'may not fetch it'}: ${f.line === 0 ? 'no rule matched' : `line ${f.line}`}`;
}

function signalText(s: UsageSignal): string {
  const what = s.field === 'control-token' ? `${s.value}'s verdict` : `${s.path === undefined ? '' : `${s.path} `}${s.value}`;
  return `line ${s.line}: ${FIELD[s.field]} ${what} (${s.purpose} ${s.preference})`;
}

const sorted = (lines: Iterable<number>): number[] => [...new Set(lines)].filter((n) => n > 0).sort((a, b) => a - b);

/** The operator's fetch cell: the verdicts of its crawlers for the purposes, each once; then those that fetch when a person asks. */
export function fetchCell(a: OperatorUsage): MatrixCell {
  const crawlers = new Map<string, CrawlerFetch>();
  for (const p of PURPOSES) {
    const f = a.purposes[p].fetch;
    if (f !== undefined && !crawlers.has(f.crawler)) crawlers.set(f.crawler, f);
  }
  const fetches = [...crawlers.values()];
  const allowed = fetches.filter((f) => f.allowed).length;
  const word: FetchWord = fetches.length === 0 ? 'unknown' : allowed === fetches.length ? 'yes' : allowed === 0 ? 'no' : 'some';
  const says = fetches.length === 0 ? [`no crawler of ${a.operator.name} fetches for search, train-ai or ai-use`] : fetches.map(fetchText);
  for (const u of a.user) says.push(`when a person asks: ${fetchText(u)} (robots.txt: ${u.respectsRobots})`);
  return { word, lines: sorted([...fetches, ...a.user].map((f) => f.line)), says };
}

/** A purpose's cell: its word, its crawler's verdict, and the statements behind the site's preference. */
export function purposeCell(a: OperatorUsage, p: Purpose): MatrixCell {
  const q = a.purposes[p];
  const says = [q.fetch === undefined ? `no crawler of ${a.operator.name} fetches for ${p}` : fetchText(q.fetch), `the site's preference: ${q.preference}`];
  for (const s of q.signals) says.push(signalText(s));
  return { word: q.answer, lines: sorted([q.fetch?.line ?? 0, ...q.signals.map((s) => s.line)]), says };
}

/** The matrix for url, as a <details> (open unless the reader closed it), or a note when the library refuses the URL. */
export function operatorsDetails(open: boolean, robots: RobotsTxt, url: string): HTMLDetailsElement {
  const details = document.createElement('details');
  details.id = 'operators';
  details.open = open;
  details.append(Object.assign(document.createElement('summary'), { textContent: `What each AI operator may do with this URL (${OPERATORS.length} operators)` }));
  let answers: OperatorUsage[];
  try {
    answers = OPERATORS.map((o) => robots.operatorUsage(url, o));
  } catch (e) {
    details.append(Object.assign(document.createElement('p'), { className: 'note', textContent: e instanceof Error ? e.message : String(e) }));
    return details;
  }
  details.append(Object.assign(document.createElement('p'), {
    className: 'muted',
    textContent: 'yes: the operator\'s crawler for that use may fetch the URL and the site does not disallow the use; no: it may not, or the site disallows it; unknown: no crawler of the operator fetches for it. Tap a cell for the lines behind it.',
  }));
  const table = document.createElement('table');
  table.className = 'matrix';
  const head = table.createTHead().insertRow();
  head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: 'Operator' }));
  for (const c of MATRIX_COLUMNS) head.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: c }));
  const body = table.createTBody();
  const shown = Object.assign(document.createElement('div'), { className: 'matrix-lines' });
  shown.setAttribute('aria-live', 'polite');
  for (const a of answers) {
    const row = body.insertRow();
    row.dataset.operator = a.operator.id;
    row.append(Object.assign(document.createElement('th'), { scope: 'row', textContent: a.operator.name }));
    for (const c of MATRIX_COLUMNS) {
      const cell = c === 'fetch' ? fetchCell(a) : purposeCell(a, c);
      const td = row.insertCell();
      td.dataset.column = c;
      td.dataset.answer = cell.word;
      td.dataset.lines = cell.lines.join(' ');
      const button = Object.assign(document.createElement('button'), { type: 'button', className: `answer ${cell.word}`, textContent: cell.word, title: cell.says.join('\n') });
      button.setAttribute('aria-label', `${a.operator.name}, ${c}: ${cell.word}`);
      button.setAttribute('aria-pressed', 'false');
      button.addEventListener('click', () => {
        for (const b of table.querySelectorAll('button[aria-pressed=true]')) b.setAttribute('aria-pressed', 'false');
        button.setAttribute('aria-pressed', 'true');
        const ul = document.createElement('ul');
        for (const s of cell.says) ul.append(Object.assign(document.createElement('li'), { textContent: s }));
        shown.replaceChildren(Object.assign(document.createElement('p'), { textContent: `${a.operator.name}, ${c}: ${cell.word}` }), ul);
        shown.dataset.operator = a.operator.id;
        shown.dataset.column = c;
      });
      td.append(button);
    }
  }
  details.append(table, shown);
  return details;
}
