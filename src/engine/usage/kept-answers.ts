// Answers kept by what they are made of: a short list of numbers (an operator's
// answer: its crawlers' verdicts, the Content-Usage rules that decide, its
// control tokens' statements) and, when there are, a short text (the page's
// use-preference headers), so that an answer asked again with the same
// inputs, for the same URL or another, is found, not built (its objects were
// most of its cost). A key is looked up with nothing allocated: the numbers are
// hashed into one, and compared with those kept. The answers are frozen by their
// maker: a caller shares them. Bounded: once `limit` are kept, all are dropped
// (the next ones are kept again), so a RobotsTxt asked ever new questions holds
// no more.

interface Kept<T> {
  readonly codes: Float64Array;
  readonly text: string | undefined;
  readonly answer: T;
  /** Another key of the same hash. */
  readonly next: Kept<T> | undefined;
}

export class KeptAnswers<T> {
  private readonly byHash = new Map<number, Kept<T>>();
  private count = 0;
  private chars = 0;

  constructor(private readonly limit: number) {}

  /** Answers kept. */
  get size(): number {
    return this.count;
  }

  /** Characters of the texts kept (a caller's header values: up to its longest an answer), for what they hold. */
  get textLength(): number {
    return this.chars;
  }

  /** The answer kept for the first n codes and the text, or undefined. */
  get(codes: readonly number[], n: number, text?: string): T | undefined {
    for (let k = this.byHash.get(hashOf(codes, n, text)); k !== undefined; k = k.next) {
      if (k.text === text && sameCodes(k.codes, codes, n)) return k.answer;
    }
    return undefined;
  }

  /** Keeps the answer for the first n codes and the text (not kept already: get() said so). */
  set(codes: readonly number[], n: number, text: string | undefined, answer: T): void {
    if (this.count >= this.limit) {
      this.byHash.clear();
      this.count = 0;
      this.chars = 0;
    }
    const h = hashOf(codes, n, text);
    this.byHash.set(h, { codes: Float64Array.from(codes.slice(0, n)), text, answer, next: this.byHash.get(h) });
    this.count++;
    if (text !== undefined) this.chars += text.length;
  }
}

/** A verdict as one number: its line, and whether it allows (an answer's input). */
export function verdictCode(v: { allowed: boolean; line: number }): number {
  return v.line * 2 + (v.allowed ? 1 : 0);
}

/** The codes' hash, and the text's (its length and some of its characters: texts of the same codes, told apart). */
function hashOf(codes: readonly number[], n: number, text: string | undefined): number {
  let h = n;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ codes[i], 0x9e3779b1);
  if (text !== undefined) {
    h = Math.imul(h ^ text.length, 0x9e3779b1);
    const step = 1 + (text.length >>> 4);
    for (let i = 0; i < text.length; i += step) h = Math.imul(h ^ text.charCodeAt(i), 0x9e3779b1);
  }
  return h ^ (h >>> 15);
}

function sameCodes(kept: Float64Array, codes: readonly number[], n: number): boolean {
  if (kept.length !== n) return false;
  for (let i = 0; i < n; i++) if (kept[i] !== codes[i]) return false;
  return true;
}
