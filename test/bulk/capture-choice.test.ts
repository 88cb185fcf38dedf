// A URL's captures, offered in any order, speak as RobotsCache's policy over
// them in date order: what the choice keeps of them (the latest capture that is
// not unreachable, the unreachable ones after it) loses nothing the policy reads.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CaptureChoice, type PolicyCapture } from '../../src/bulk/sources/warc/capture-choice.js';
import { nextState, type EntryState } from '../../src/crawler/freshness-policy.js';
import { DAY } from '../../src/crawler/cache-options.js';

const KEY = 'http://a.example/robots.txt';
const POLICY = { ttlMs: DAY, minTtlMs: 60_000, retryMs: 60_000, maxRetryMs: 3_600_000, userAgentHeader: 'test' };

/** The cache's state over every capture in date order, and the capture whose rules it uses (the reference). */
function reference(captures: PolicyCapture[]): PolicyCapture {
  const sorted = [...captures].sort((a, b) => a.date - b.date);
  let state: EntryState | undefined;
  let copy: PolicyCapture | undefined;
  for (const c of sorted) {
    const status = c.status >= 200 && c.status < 400 ? 'ok' : c.status >= 400 && c.status < 500 && c.status !== 429 ? 'unavailable' : 'unreachable';
    state = nextState(KEY, { status, reason: `http ${c.status}`, httpStatus: c.status, finalUrl: KEY, redirects: 0, body: undefined, reachedLimit: false, headers: undefined, retryAfterMs: undefined }, state, c.date, POLICY);
    if (status === 'ok') copy = c;
  }
  const last = sorted[sorted.length - 1];
  if (state!.stale) return copy!;
  return state!.status === 'unavailable' && state!.unreachableSince !== undefined ? { ...last, unavailable: state!.reason } : last;
}

const capture = fc.record({
  day: fc.integer({ min: 0, max: 120 }),
  status: fc.constantFrom(200, 301, 404, 429, 500, 503),
});

describe('CaptureChoice', () => {
  it('in any order of offering, the capture the cache would use after fetching at each capture\'s date', () => {
    fc.assert(
      fc.property(fc.uniqueArray(capture, { minLength: 1, maxLength: 12, selector: (c) => c.day }), fc.infiniteStream(fc.nat()), (drawn, picks) => {
        const captures: PolicyCapture[] = drawn.map((c) => ({ date: Date.UTC(2024, 0, 1) + c.day * DAY, status: c.status, location: c.status === 301 ? 'https://b.example/robots.txt' : null }));
        const want = reference(captures);
        // The same captures in a shuffled order.
        const order = [...captures];
        const it = picks[Symbol.iterator]();
        for (let i = order.length - 1; i > 0; i--) {
          const j = it.next().value % (i + 1);
          [order[i], order[j]] = [order[j], order[i]];
        }
        const choice = new CaptureChoice<PolicyCapture>();
        for (const c of order) choice.offer(KEY, c);
        expect(choice.chosen(KEY)).toStrictEqual(want);
        expect(choice.settle().get(KEY)).toStrictEqual(want);
      }),
    );
  });

  it('an undated capture is older than every dated one, whatever the order (and never crashes the policy)', () => {
    const undated = (status: number) => ({ date: Number.NaN, status, location: null });
    const dated = (status: number, month: number) => ({ date: Date.UTC(2024, month, 1), status, location: null });
    const cases: [PolicyCapture[], number, boolean][] = [
      // (captures, the status chosen, taken as unavailable)
      [[undated(200), dated(503, 1)], 200, false], // the undated file is the copy
      [[undated(200), dated(404, 1)], 404, false],
      [[undated(503), dated(200, 1)], 200, false],
      [[undated(503), dated(503, 1)], 503, true], // unreachable since before every date
      [[undated(200), undated(503)], 200, false], // (of equal dates, the one read later is the later fetch: it keeps the file)
    ];
    for (const [captures, status, unavailable] of cases) {
      for (const order of [captures, [...captures].reverse()]) {
        if (order !== captures && Number.isNaN(captures[1].date)) continue; // (equal dates: the order read decides)
        const choice = new CaptureChoice<PolicyCapture>();
        for (const c of order) choice.offer(KEY, c);
        const got = choice.chosen(KEY)!;
        expect([got.status, got.unavailable !== undefined], JSON.stringify(order.map((c) => [c.date, c.status]))).toEqual([status, unavailable]);
      }
    }
  });
});
