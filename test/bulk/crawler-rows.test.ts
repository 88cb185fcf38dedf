// TSV lines of a classification with crawlers (classify --crawlers, with and
// without --usage), which the core writes by the pattern of the verdicts of the
// distinct matchers (assembly/bulk/crawler-columns.ts: up to 8 that walk, each
// pattern's columns built once per call and copied; more matchers, crawler by
// crawler): held to each crawler's own Matcher.isAllowed and purpose code, line
// by line and in the counts, for any mix of shared matchers, no robots.txt and
// unreachable ones, many patterns in one call and a block larger than the
// output area.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineClassifier } from '../../src/bulk/classify/line-classifier.js';
import { UNREACHABLE, type CrawlerMatchers } from '../../src/bulk/classify/classification.js';
import { parse } from '../../src/index.js';
import type { Matcher } from '../../src/engine/match/matcher.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const WORDS = ['unknown', 'allowed', 'disallowed'];
const TOKENS = 12;

/** Matcher t disallows the paths holding `-t-`. */
const matchers: Matcher[] = Array.from({ length: TOKENS }, (_, t) => parse(`User-agent: *\nDisallow: /*-${t}-\n`).compile('FooBot'));

type Slot = number | null | typeof UNREACHABLE; // a matcher's index, no robots.txt, or unreachable
const matcherOf = (s: Slot) => (typeof s === 'number' ? matchers[s] : s);

/** The URL as classify echoes it: C0 controls as %XX. */
const echoed = (url: string) => url.replace(/[\x00-\x1f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

/** What the lines and counts must be, crawler by crawler. */
function expected(urls: string[], slots: Slot[], codes: number[], usage: boolean) {
  const allowedBy = slots.map(() => 0);
  const usageBy = slots.flatMap(() => [0, 0, 0, 0, 0, 0]);
  let text = '';
  for (const url of urls) {
    text += echoed(url);
    const verdicts = matchers.map((m) => m.isAllowed(url));
    slots.forEach((s, j) => {
      const ok = s === null ? true : s === UNREACHABLE ? false : verdicts[s];
      text += ok ? '\tallowed' : '\tdisallowed';
      if (ok) allowedBy[j]++;
      if (!usage) return;
      const code = ok ? codes[j] : 0;
      for (let p = 0; p < 3; p++) {
        const pref = (code >> (2 * p)) & 3;
        text += `\t${WORDS[pref]}`;
        if (pref !== 0) usageBy[6 * j + 2 * p + pref - 1]++;
      }
    });
    text += '\n';
  }
  return { text, allowedBy, ...(usage ? { usageBy } : {}) };
}

function classified(urls: string[], slots: Slot[], codes: number[], usage: boolean) {
  const names = slots.map((_, j) => `Bot${j}`);
  const source: CrawlerMatchers = { matchers: slots.map(matcherOf), ...(usage ? { usage: codes } : {}) };
  const r = new LineClassifier('tsv', names, undefined, usage).classify(encoder.encode(urls.join('\n') + '\n'), source);
  return { text: decoder.decode(r.output), allowedBy: r.allowedBy, ...(usage ? { usageBy: r.usageBy } : {}) };
}

/** A path of some of the tokens, maybe with a control octet. */
const url = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 0, max: TOKENS - 1 }), { maxLength: 5 }), fc.constantFrom('', '\t', '\x1b'))
  .map(([ts, control]) => `https://x.com/p${ts.map((t) => `-${t}-`).join('x')}${control}q`);
const code = fc.tuple(fc.nat(2), fc.nat(2), fc.nat(2)).map(([a, b, c]) => a | (b << 2) | (c << 4));

describe('classify --crawlers: TSV lines by verdict pattern', () => {
  it('every crawler its own verdict and purposes, and the counts, for any crawlers and matchers (up to 12 distinct: the patterns and beyond)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: TOKENS }),
        fc.array(fc.tuple(fc.nat(100), code), { minLength: 1, maxLength: 40 }),
        fc.array(url, { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        (d, crawlers, urls, usage) => {
          // Most crawlers share one of d matchers; a few have no robots.txt or an unreachable one.
          const slots: Slot[] = crawlers.map(([n]) => (n === 0 ? null : n === 1 ? UNREACHABLE : n % d));
          const codes = crawlers.map(([, c]) => c);
          expect(classified(urls, slots, codes, usage)).toEqual(expected(urls, slots, codes, usage));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('many patterns in one call (8 matchers: up to 256, 16 kept) and a block past the output area (4 MiB)', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) / 65536;
    const urls = Array.from({ length: 3000 }, (_, i) => `https://x.com/${i}${Array.from({ length: 8 }, (_, t) => (random() < 0.5 ? `-${t}-` : '')).join('/')}`);
    const slots: Slot[] = Array.from({ length: 200 }, (_, j) => j % 8);
    const codes = slots.map((_, j) => (j % 3) | ((j >> 2) % 3) << 2 | ((j >> 4) % 3) << 4);
    for (const usage of [true, false]) {
      const got = classified(urls, slots, codes, usage);
      const want = expected(urls, slots, codes, usage);
      expect(got.text.length).toBeGreaterThan(usage ? 4 << 20 : 1 << 20);
      // (The first line that differs, not a diff of megabytes.)
      const [gotLines, wantLines] = [got.text.split('\n'), want.text.split('\n')];
      const first = wantLines.findIndex((line, i) => gotLines[i] !== line);
      expect(first === -1 ? null : { line: first, got: gotLines[first] }).toEqual(first === -1 ? null : { line: first, got: wantLines[first] });
      expect(gotLines.length).toBe(wantLines.length);
      expect({ ...got, text: '' }).toEqual({ ...want, text: '' });
    }
  });
});
