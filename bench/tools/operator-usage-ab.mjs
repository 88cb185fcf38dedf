// Builds side by side in one process on usage-cost.mjs's file of 1,000
// Content-Usage path rules (and its Disallow twin): operatorUsage(url,
// 'google') (with --headers, also with a page's Content-Signal header), usage()
// for Googlebot and for FooBot, and isAllowed() per URL,
// every build loaded at once (each its own core), their passes alternating (the
// order reversed every other pass), so that a busy machine's load falls on all
// of them alike. Per build and profile, each work's CPU microseconds a URL and
// its ratio to isAllowed()'s: the least of the passes with --least (on a shared
// machine the nearest to a quiet one's), else their median.
//   node bench/tools/operator-usage-ab.mjs [--passes N] [--least] [--headers] DIST…
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { passes: { type: 'string', default: '41' }, least: { type: 'boolean', default: false }, headers: { type: 'boolean', default: false } } });
if (positionals.length === 0) throw new Error('give one or more dist/ folders');
const PASSES = Number(values.passes);
const rules1000 = (/** @type {string} */ field) => 'User-agent: *\n' + Array.from({ length: 1000 }, (_, i) => `${field}: /d${i % 250}/${['', '*.pdf$', 'x/', '*/draft'][i >> 8]}${field === 'Content-Usage' ? ` train-ai=${i % 2 ? 'y' : 'n'}` : ''}\n`).join('');
const urls = Array.from({ length: 4000 }, (_, i) => `https://example.com/d${i % 300}/${['x/a.pdf', 'y/draft', 'x/y', 'page.html'][i % 4]}?i=${i}`);

/** @type {{ dist: string, profile: string, name: string, work: (url: string) => boolean, times: number[] }[]} */
const works = [];
for (const dist of positionals) {
  const { parse } = await import(pathToFileURL(path.join(path.resolve(dist), 'index.js')).href);
  for (const profile of ['google', 'rfc']) {
    const usage = parse(rules1000('Content-Usage'), { profile, maxOctets: Infinity });
    const rules = parse(rules1000('Disallow'), { profile, maxOctets: Infinity });
    const add = (/** @type {string} */ name, /** @type {(url: string) => boolean} */ work) => works.push({ dist, profile, name, work, times: [] });
    add('operatorUsage(google)', (x) => usage.operatorUsage(x, 'google').purposes['train-ai'].answer === 'no');
    const headers = { headers: { 'content-signal': 'search=yes' } };
    if (values.headers) add('operatorUsage(google, headers)', (x) => usage.operatorUsage(x, 'google', headers).purposes['train-ai'].answer === 'no');
    add('usage(Googlebot)', (x) => usage.usage(x, 'Googlebot').purposes['train-ai'] === 'disallowed');
    add('usage(FooBot)', (x) => usage.usage(x, 'FooBot').purposes['train-ai'] === 'disallowed');
    add('isAllowed', (x) => rules.isAllowed(x, 'FooBot'));
  }
}
let sink = 0;
// (Unmeasured passes first: the JIT's tiers, not the work, made the first ones slower.)
for (let k = 0; k < 3; k++) for (const w of works) for (const u of urls) sink += w.work(u) ? 1 : 0;
for (let pass = 0; pass < PASSES; pass++) {
  for (const w of pass % 2 === 0 ? works : [...works].reverse()) {
    const t = process.cpuUsage();
    for (const u of urls) sink += w.work(u) ? 1 : 0;
    const d = process.cpuUsage(t);
    w.times.push((d.user + d.system) / urls.length);
  }
}
if (sink < 0) throw new Error('unreachable');
const pick = (/** @type {number[]} */ xs) => [...xs].sort((a, b) => a - b)[values.least ? 0 : xs.length >> 1];
for (const dist of positionals) {
  for (const profile of ['google', 'rfc']) {
    const mine = works.filter((w) => w.dist === dist && w.profile === profile);
    const base = pick(mine[mine.length - 1].times);
    console.log(`${dist} ${profile}: ${mine.map((w) => `${w.name} ${pick(w.times).toFixed(3)} µs (${(pick(w.times) / base).toFixed(2)}×)`).join(', ')} (${values.least ? 'least' : 'median'} of ${PASSES} passes of ${urls.length} URLs)`);
  }
}
