// A robots.txt editor: a textarea over a mirror of its text (the backdrop),
// whose lines carry the marks a textarea cannot show: the line that decides the
// URL picked, the lines that decide its purposes (use preferences), and the
// lines with findings. Both wrap the same way (same font,
// box and wrapping) in the same grid cell: the mirror's text sets the cell's
// height (up to a maximum, CSS), so the field grows with its text without
// being measured (measuring a textarea of a large file took seconds of layout), and the
// mirror follows the field's scrolling.
import { DEFAULT_MAX_OCTETS } from '../src/index.js';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export type LineMark = 'decides' | 'uses' | 'warning' | 'error';

/** The characters mirrored: DEFAULT_MAX_OCTETS (octets are at least as many as characters). */
const MIRRORED = DEFAULT_MAX_OCTETS;
/** A file this short is mirrored again at each keystroke (a millisecond or so). */
const QUICK = 20_000;

export class Editor {
  private drawn = '';
  /** The text and the marks the mirror was drawn from (null once typing took its marks away). */
  private drawnText: string | null = null;
  private drawnMarks: Map<number, LineMark> | null = null;

  constructor(readonly field: HTMLTextAreaElement, readonly backdrop: HTMLElement) {
    field.addEventListener('scroll', () => this.follow());
    // While typing, the old marks would sit on the wrong lines: they go at once, and a short file's mirror
    // follows its text at once (the field grows as it is typed); the next check draws it again, marked.
    field.addEventListener('input', () => {
      if (field.value.length <= QUICK) this.render(new Map());
      else {
        for (const el of this.backdrop.querySelectorAll('.decides, .uses, .warning, .error')) el.className = '';
        this.drawn = '';
        this.drawnText = null;
      }
    });
  }

  /** Draws the mirror: the field's lines, each with its mark (line numbers from 1). */
  render(marks: Map<number, LineMark>): void {
    // The lines a parser reads (its 512,000 octets are at most as many characters) are the only ones with marks: a mirror of
    // them is enough, however much is pasted.
    const value = this.field.value;
    // The text and the marks it was drawn from (the file's view keeps its marks while the text stays): only the run's marks go,
    // without a string of the whole mirror made again to find it the same.
    if (value === this.drawnText && marks === this.drawnMarks) {
      this.decide(0);
      return;
    }
    this.drawnText = value;
    this.drawnMarks = marks;
    const lines = (value.length > MIRRORED ? value.slice(0, MIRRORED) : value).split(/\r\n|\r|\n/);
    let html = '';
    // An empty line still takes a line (a space: the mirror's text is transparent).
    for (let i = 0; i < lines.length; i++) html += `<div class="${marks.get(i + 1) ?? ''}">${lines[i] === '' ? ' ' : escapeHtml(lines[i])}</div>`;
    // (The same text and equal marks, as when only the profile changed and its findings did not: the mirror stands.)
    if (html !== this.drawn) {
      this.backdrop.innerHTML = html;
      this.drawn = html;
    } else {
      for (const el of this.backdrop.querySelectorAll('.decides, .uses')) el.classList.remove('decides', 'uses');
    }
  }

  /**
   * Marks line n (from 1) as the deciding one, 0 for none, and the lines `uses`
   * (those that decide the URL's purposes), and scrolls the field to the
   * deciding line (to the first of `uses` when no rule decides).
   */
  decide(n: number, uses: readonly number[] = []): void {
    for (const el of this.backdrop.querySelectorAll('.decides, .uses')) el.classList.remove('decides', 'uses');
    for (const u of uses) this.backdrop.children[u - 1]?.classList.add('uses');
    const decides = n > 0 ? (this.backdrop.children[n - 1] as HTMLElement | undefined) : undefined;
    decides?.classList.add('decides');
    const line = decides ?? (uses.length > 0 ? (this.backdrop.children[uses[0] - 1] as HTMLElement | undefined) : undefined);
    if (!line) return;
    const f = this.field;
    if (line.offsetTop < f.scrollTop || line.offsetTop + line.offsetHeight > f.scrollTop + f.clientHeight) {
      f.scrollTop = Math.max(0, line.offsetTop - f.clientHeight / 3);
    }
    this.follow();
  }

  private follow(): void {
    this.backdrop.scrollTop = this.field.scrollTop;
    this.backdrop.scrollLeft = this.field.scrollLeft;
  }
}
