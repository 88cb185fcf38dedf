// The output a writer keeps (OutputWriter.keep): a classification thread whose
// turn to write has not come keeps a block's output in the core and classifies
// its next block meanwhile. The kept output must stay intact until released.
import { describe, expect, it } from 'vitest';
import { LineClassifier } from '../../src/bulk/classify/line-classifier.js';
import { parse } from '../../src/index.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const lines = (prefix: string, n: number) => encoder.encode(Array.from({ length: n }, (_, i) => `https://x.com/${prefix}/${i}`).join('\n') + '\n');

describe('LineClassifier: output kept by its writer', () => {
  const matcher = parse('User-agent: *\nDisallow: /private\n').compile('FooBot');
  /** What a writer that never keeps is handed for the block. */
  const plainly = (block: Uint8Array) => {
    const out: string[] = [];
    new LineClassifier('tsv').classify(block, matcher, { write: (o) => void out.push(decoder.decode(o)) });
    return out.join('');
  };

  it('stays intact while more blocks are classified (the memory growing meanwhile), until released', () => {
    const first = lines('private', 2000);
    const second = lines('public', 2000);
    const big = lines('big', 200_000); // a bigger input area: the core's memory grows
    const c = new LineClassifier('tsv');
    const written: string[] = [];
    const offered: number[] = [];
    // Keeps a block's output when none is kept (as a thread does when its turn has not come).
    const writer = {
      write: (o: Uint8Array) => void written.push(decoder.decode(o)),
      keep: (o: Uint8Array) => c.kept.length === 0 && offered.push(o.length) > 0,
    };

    c.classify(first, matcher, writer);
    expect(written).toEqual([]);
    expect(decoder.decode(c.kept)).toBe(plainly(first));

    // One block kept at a time: the next ones are written, in their own area.
    c.classify(second, matcher, writer);
    c.classify(big, matcher, writer);
    expect(offered.length).toBe(1);
    expect(written.join('')).toBe(plainly(second) + plainly(big));
    expect(decoder.decode(c.kept)).toBe(plainly(first));

    c.releaseKept();
    expect(c.kept.length).toBe(0);
    c.classify(second, matcher, writer);
    expect(offered.length).toBe(2);
    expect(decoder.decode(c.kept)).toBe(plainly(second));
  });

  it('a writer must release the output it kept before keeping another', () => {
    const c = new LineClassifier('tsv');
    const writer = { write: () => {}, keep: () => true };
    c.classify(lines('a', 10), matcher, writer);
    expect(() => c.classify(lines('b', 10), matcher, writer)).toThrow(/not released/);
  });

  it('a writer that declines gets the piece written', () => {
    const c = new LineClassifier('tsv');
    const written: string[] = [];
    c.classify(lines('a', 10), matcher, { write: (o) => void written.push(decoder.decode(o)), keep: () => false });
    expect(written.join('')).toBe(plainly(lines('a', 10)));
    expect(c.kept.length).toBe(0);
  });
});
