// The core finds a matcher's builder (its LazyDfa, which builds the states the
// walk asks for) by the slot its header holds (core.ts register): with many
// matchers live and walking in turn, some disposed and their slots taken by
// new ones, each walk must reach its own matcher's builder, never another's.
import { describe, expect, it } from 'vitest';
import { parse, type Matcher } from '../../../src/internal.js';

/** Files whose verdicts differ, so that a walk given another matcher's states answers wrongly. */
function body(i: number): string {
  return [`User-agent: *`, `Disallow: /f${i}/`, `Allow: /f${i}/open`, `Disallow: /*.x${i % 7}$`, `Disallow: /s${i % 3}*/deep`].join('\n');
}

function urls(i: number): string[] {
  return [`/f${i}/a`, `/f${i}/open/b`, `/f${i + 1}/a`, `/a.x${i % 7}`, `/a.x${(i + 1) % 7}`, `/s${i % 3}q/deep`, `/s${(i + 1) % 3}q/deep`, '/'].map((p) => `https://example.com${p}`);
}

/** What a matcher of file i answers when it is the only one walking. */
function alone(i: number): boolean[] {
  const m = parse(body(i), { profile: 'google' }).compile('Googlebot', { coldOctets: 0 });
  const got = urls(i).map((u) => m.isAllowed(u));
  m.dispose();
  return got;
}

describe("each walk reaches its own matcher's builder", () => {
  it('40 hot matchers walking in turn, half disposed and compiled again, answer as each alone', () => {
    const expected = Array.from({ length: 60 }, (_, i) => alone(i));
    const live = new Map<number, Matcher>();
    const open = (i: number) => live.set(i, parse(body(i), { profile: 'google' }).compile('Googlebot', { coldOctets: 0 }));
    for (let i = 0; i < 40; i++) open(i);
    for (let round = 0; round < 3; round++) {
      // URL k of every live matcher, then URL k + 1: each step asks a different matcher's builder.
      for (let k = 0; k < 8; k++) {
        for (const [i, m] of live) expect(m.isAllowed(urls(i)[k])).toBe(expected[i][k]);
      }
      // Every other one disposed (its slot free), and as many new ones made (taking those slots).
      const gone = [...live.keys()].filter((_, j) => j % 2 === round % 2);
      for (const i of gone) {
        live.get(i)!.dispose();
        live.delete(i);
      }
      for (let j = 0; j < gone.length; j++) open((gone[j] + 20) % 60);
    }
    for (const m of live.values()) m.dispose();
  });
});
