// A robots.txt editor: a textarea over a mirror of its text (the backdrop),
// whose lines carry the marks a textarea cannot show: the line that decides the
// URL picked, and the lines with findings. Both wrap the same way (same font,
// box and wrapping); the field grows with its text up to a height (CSS) and the
// mirror follows its scrolling.
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export type LineMark = 'decides' | 'warning' | 'error';

export class Editor {
  private drawn = '';

  constructor(readonly field: HTMLTextAreaElement, readonly backdrop: HTMLElement) {
    field.addEventListener('scroll', () => this.follow());
    // While typing, the old marks would sit on the wrong lines: they go at once (the next check draws the mirror again, marked).
    field.addEventListener('input', () => {
      for (const el of this.backdrop.querySelectorAll('.decides, .warning, .error')) el.className = '';
      this.drawn = '';
      this.grow();
    });
    // A new width wraps the text anew: the height follows (only then: growing changes the height, not the width).
    let width = 0;
    new ResizeObserver(() => {
      if (field.clientWidth !== width) {
        width = field.clientWidth;
        this.grow();
      }
    }).observe(field);
  }

  /** Draws the mirror: the field's lines, each with its mark (line numbers from 1). */
  render(marks: Map<number, LineMark>): void {
    const lines = this.field.value.split(/\r\n|\r|\n/);
    let html = '';
    // An empty line still takes a line (a space: the mirror's text is transparent).
    for (let i = 0; i < lines.length; i++) html += `<div class="${marks.get(i + 1) ?? ''}">${lines[i] === '' ? ' ' : escapeHtml(lines[i])}</div>`;
    // (The same text and marks, as when only the URLs changed: the mirror stands.)
    if (html !== this.drawn) {
      this.backdrop.innerHTML = html;
      this.drawn = html;
    } else {
      for (const el of this.backdrop.querySelectorAll('.decides')) el.classList.remove('decides');
    }
    this.grow();
  }

  /** Marks line n (from 1) as the deciding one, 0 for none, and scrolls the field to it. */
  decide(n: number): void {
    for (const el of this.backdrop.querySelectorAll('.decides')) el.classList.remove('decides');
    const line = n > 0 ? (this.backdrop.children[n - 1] as HTMLElement | undefined) : undefined;
    if (!line) return;
    line.classList.add('decides');
    const f = this.field;
    if (line.offsetTop < f.scrollTop || line.offsetTop + line.offsetHeight > f.scrollTop + f.clientHeight) {
      f.scrollTop = Math.max(0, line.offsetTop - f.clientHeight / 3);
    }
    this.follow();
  }

  /** The field's height: its text's, within the CSS's min-height and max-height. */
  grow(): void {
    const f = this.field;
    f.style.height = 'auto';
    f.style.height = `${f.scrollHeight + f.offsetHeight - f.clientHeight}px`;
    this.follow();
  }

  private follow(): void {
    this.backdrop.scrollTop = this.field.scrollTop;
    this.backdrop.scrollLeft = this.field.scrollLeft;
  }
}
