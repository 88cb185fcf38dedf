// What a RobotsTxt keeps after it is parsed, counted in its heldBytes (what a
// cache weighs it by: RobotsCache's maxBytes): the operator answers it keeps
// (operatorUsage(), at most ANSWERS), and usage()'s entries per agent and per
// set of groups. Each is estimated by a constant per thing kept; the operator
// answers' estimate is checked against what the heap shows after a full
// collection (the answers grow the heap, nothing else does between the two
// measures: the URLs are made before, the code compiled by the same calls on
// another file, the matchers by a first call).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/index.js';
import { robotsInternals } from '../../src/internal.js';
import { ANSWERS } from '../../src/engine/usage/usage-answers.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Rules Content-Usage paths decide by: each of the URLs below is decided by its own, so each answer is another. */
const RULES = ANSWERS + 8;
const FILE = 'User-agent: *\nAllow: /\n' + Array.from({ length: RULES }, (_, i) => `Content-Usage: /p${i}/ train-ai=${i % 2 ? 'y' : 'n'}, search=y\n`).join('');
const urlOf = (i: number) => `https://example.com/p${i}/page`;

function heap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

describe('a RobotsTxt’s heldBytes counts what it keeps after parse', () => {
  // (An answer holds from some 0.7 KB, no signal, to some 1.5: the estimate is the costlier's, as these answers are.
  // What the heap shows of the same answers moved between 1,184 and 1,555 B an answer from run to run on a loaded
  // machine (what V8 keeps of its code and feedback between the two collections): the bound is one-sided in spirit.)
  it('each operator answer kept: the estimate covers what the heap holds, over by at most a half', () => {
    const urls = Array.from({ length: ANSWERS - 1 }, (_, i) => urlOf(i + 1));
    // (The same calls on another file first: the code they run is compiled before the heap is measured.)
    const warm = parse(FILE);
    for (const u of urls) warm.operatorUsage(u, 'google');
    warm.dispose();
    const robots = parse(FILE);
    const held = () => robotsInternals(robots).heldBytes;
    robots.operatorUsage(urlOf(0), 'google'); // (the matchers and the agents' entries, made once)
    const kept = robotsInternals(robots).usageAnswers.size.answers;
    const estimated0 = held();
    const heap0 = heap();
    for (const u of urls) robots.operatorUsage(u, 'google');
    const heap1 = heap();
    expect(robotsInternals(robots).usageAnswers.size.answers - kept).toBe(urls.length);
    const estimated = held() - estimated0;
    const real = heap1 - heap0;
    const per = (n: number) => `${(n / urls.length).toFixed(0)} B an answer`;
    console.log(`operator answers kept: estimated ${per(estimated)}, measured ${per(real)}`);
    expect(estimated / real, `estimated ${per(estimated)}, measured ${per(real)}`).toBeGreaterThan(0.9);
    expect(estimated / real, `estimated ${per(estimated)}, measured ${per(real)}`).toBeLessThan(1.5);
    // At ANSWERS, all are dropped (kept-answers.ts): the count falls with them.
    robots.operatorUsage(urlOf(ANSWERS), 'google');
    expect(robotsInternals(robots).usageAnswers.size.answers).toBe(1);
    expect(held()).toBeLessThan(estimated0 + estimated / 100);
  });

  it('answers kept by the page’s header values (up to 1,024 characters) count them: the estimate covers the heap, over by at most a half', () => {
    const file = 'User-agent: *\nContent-Usage: train-ai=n\nDisallow: /private\n';
    // A caller's ever new header values, each near the longest an answer is kept by.
    const headers = Array.from({ length: ANSWERS - 1 }, (_, i) => ({ 'content-usage': `search=y, x${i}=${'y'.repeat(1000)}`.slice(0, 1000) }));
    const warm = parse(file);
    for (const h of headers) warm.operatorUsage('/a', 'google', { headers: h });
    const robots = parse(file);
    const held = () => robotsInternals(robots).heldBytes;
    robots.operatorUsage('/a', 'google');
    const estimated0 = held();
    const heap0 = heap();
    for (const h of headers) robots.operatorUsage('/a', 'google', { headers: h });
    const heap1 = heap();
    expect(robotsInternals(robots).usageAnswers.size.answers).toBe(ANSWERS);
    const estimated = held() - estimated0;
    const real = heap1 - heap0;
    const per = (n: number) => `${(n / headers.length).toFixed(0)} B an answer`;
    console.log(`operator answers kept by 1,000 characters of headers: estimated ${per(estimated)}, measured ${per(real)}`);
    // (What a header's answer holds varies from run to run: 1,965 to 2,414 B measured against the 2,542
    // estimated. An estimate over the heap errs on the safe side: a cache evicts sooner, never holds more.)
    expect(estimated / real, `estimated ${per(estimated)}, measured ${per(real)}`).toBeGreaterThan(0.9);
    expect(estimated / real, `estimated ${per(estimated)}, measured ${per(real)}`).toBeLessThan(1.5);
  });

  it('a crawler’s usage lines read (a set of groups), estimated within 25% of what the heap holds', () => {
    // (Several files: one file's lines are a few hundred KB, and the heap's noise a few tens.)
    const files = Array.from({ length: 8 }, () => robotsInternals(parse(FILE)));
    const held = () => files.reduce((n, f) => n + f.heldBytes, 0);
    const estimated0 = held(); // (the records compacted, as a cache keeps them)
    const heap0 = heap();
    for (const f of files) f.crawlerUsage('FooBot');
    const heap1 = heap();
    const estimated = held() - estimated0;
    const real = heap1 - heap0;
    const per = (n: number) => `${(n / files.length / RULES).toFixed(0)} B a line`;
    console.log(`usage lines read: estimated ${per(estimated)}, measured ${per(real)}`);
    expect(estimated / real, `estimated ${per(estimated)}, measured ${per(real)}`).toBeGreaterThan(0.8);
    expect(estimated / real, `estimated ${per(estimated)}, measured ${per(real)}`).toBeLessThan(1.25);
  });

  it('usage()’s entries per agent and per set of groups count too', () => {
    const robots = parse('User-agent: a\nContent-Usage: train-ai=n\n\nUser-agent: b\nContent-Usage: /x/ search=n\n\nUser-agent: *\nDisallow: /private\n');
    const held = () => robotsInternals(robots).heldBytes;
    const before = held();
    robots.usage('https://example.com/x/1', 'a');
    const oneAgent = held();
    expect(oneAgent).toBeGreaterThan(before);
    robots.usage('https://example.com/x/1', 'b');
    expect(held()).toBeGreaterThan(oneAgent);
    // Another name of the `*` groups: an entry of its own, its set of groups read once.
    const third = held();
    robots.usage('https://example.com/x/1', 'c');
    robots.usage('https://example.com/x/1', 'd');
    expect(held()).toBeGreaterThan(third);
  });
});
