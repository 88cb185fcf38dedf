// A version of the file as the page shows it: its lines in a view (each with
// its findings), its editor's marks, and its lint report. Linting and drawing
// 850 KB (docs.oracle.com) took about two CPU-seconds of the page, so they are
// done again only when what they depend on changed: the version's text and the
// profile. A run that changes only the URLs or the crawler keeps them, and only
// the marks of the last run (the deciding line, the lines that decide the
// purposes) go, so that none stays on a line that decides no URL now.
import { lint, type LintReport, type Profile } from '../src/index.js';
import type { Editor, LineMark } from './editor.js';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What a view shows: the text and profile it was drawn for, its report, its editor's marks and the text's octets. */
interface Drawn {
  text: string;
  profile: Profile;
  report: LintReport;
  marks: Map<number, LineMark>;
  octets: number;
}

export class FileView {
  private drawn: Drawn | null = null;
  /** How many times the view was drawn (its `data-renders`: tests read it). */
  private renders = 0;

  constructor(readonly list: HTMLOListElement, readonly editor: Editor) {}

  /** Shows a version (drawn again only when its text or the profile changed), without the last run's marks: its lint report and its size in octets. */
  show(text: string, profile: Profile): { report: LintReport; octets: number } {
    let d = this.drawn;
    if (d === null || d.text !== text || d.profile !== profile) {
      d = this.draw(text, profile);
      this.drawn = d;
    } else {
      this.markDecides(0, [], false);
    }
    // (The editor keeps its mirror when its text and these marks are the ones it drew: editor.ts.)
    this.editor.render(d.marks);
    return { report: d.report, octets: d.octets };
  }

  /** Marks line n (from 1) as deciding the URL picked, 0 for none, and the lines `uses`; brings it into view when `scroll`. */
  markDecides(n: number, uses: readonly number[], scroll = true): void {
    for (const li of this.list.querySelectorAll('.decides, .uses')) li.classList.remove('decides', 'uses');
    for (const u of uses) this.list.children[u - 1]?.classList.add('uses');
    const decides = n > 0 ? (this.list.children[n - 1] as HTMLElement | undefined) : undefined;
    decides?.classList.add('decides');
    const shown = decides ?? (uses.length > 0 ? this.list.children[uses[0] - 1] : undefined);
    if (scroll) shown?.scrollIntoView({ block: 'nearest' });
  }

  private draw(text: string, profile: Profile): Drawn {
    const lines = text.split(/\r\n|\r|\n/);
    if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    const report = lint(text, { profile });
    const byLine = new Map<number, LintReport['findings']>();
    for (const f of report.findings) byLine.set(f.line, [...(byLine.get(f.line) ?? []), f]);
    const marks = new Map<number, LineMark>();
    let html = '';
    for (let i = 0; i < lines.length; i++) {
      const found = byLine.get(i + 1) ?? [];
      const worst = found.some((f) => f.severity === 'error') ? 'error' : found.length > 0 ? 'warning' : '';
      if (worst) marks.set(i + 1, worst);
      html += `<li data-line="${i + 1}" class="${worst}" tabindex="-1"><span class="no">${i + 1}</span><span class="text">${escapeHtml(lines[i])}</span>`;
      for (const f of found) html += `<span class="diag ${f.severity}">${f.severity} ${escapeHtml(f.code)}: ${escapeHtml(f.message)}</span>`;
      html += '</li>';
    }
    this.list.innerHTML = html;
    this.list.dataset.renders = String(++this.renders);
    return { text, profile, report, marks, octets: new TextEncoder().encode(text).length };
  }
}
