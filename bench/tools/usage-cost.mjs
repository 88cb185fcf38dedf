// usage() against isAllowed() per URL, on Content-Usage path patterns: issue
// 42's hostile file (30 patterns of 8,000 `*a`) and a file of 1,000 path
// rules, each beside its twin of Disallow rules with the same patterns (what
// isAllowed walks), and the 1,000 rules with the same patterns as Allow rules
// in the same group (rules-1000-same-file: both on that file); for the 1,000 rules (and the hostile file with --operator),
// usage() for Googlebot (Google-Extended's verdict added) and
// operatorUsage(url, 'google') (three purposes, one crawler's usage(), the
// control token's and the user fetcher's verdicts). Steady: CPU time per URL
// after the first call (user + system, the median of its passes: less noisy
// than wall time on a shared machine). First call (the 1,000 rules, or --first):
// parse, compile and the first answer of a fresh RobotsTxt, the median of
// --files. One build per run:
//   node bench/tools/usage-cost.mjs DIST [--urls N] [--passes N] [--files N] [--only NAME] [--operator] [--first]
// DIST: a dist/ (its index.js); a slow build is measured on fewer URLs (--urls).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { urls: { type: 'string', default: '2000' }, passes: { type: 'string', default: '5' }, only: { type: 'string' }, operator: { type: 'boolean', default: false }, first: { type: 'boolean', default: false }, files: { type: 'string', default: '21' } } });
const { parse } = await import(pathToFileURL(path.join(path.resolve(positionals[0] ?? 'dist'), 'index.js')).href);
const URLS = Number(values.urls);
const PASSES = Number(values.passes);
const FILES = Number(values.files);

const rules1000 = (field) => 'User-agent: *\n' + Array.from({ length: 1000 }, (_, i) => `${field}: /d${i % 250}/${['', '*.pdf$', 'x/', '*/draft'][i >> 8]}${field === 'Content-Usage' ? ` train-ai=${i % 2 ? 'y' : 'n'}` : ''}\n`).join('');
const files = {
  hostile: (field) => 'User-agent: *\n' + Array.from({ length: 30 }, (_, i) => `${field}: /${'*a'.repeat(8000)}${i}${field === 'Content-Usage' ? ' train-ai=n' : ''}\n`).join(''),
  'rules-1000': rules1000,
  // One file for both: the 1,000 Content-Usage rules and the same patterns as Allow rules (a verdict walks
  // them, then usage() walks the patterns): usage() and isAllowed() on the same file.
  'rules-1000-same-file': () => rules1000('Content-Usage') + rules1000('Allow').slice('User-agent: *\n'.length),
};
const urlsOf = {
  // Half of 16,000 octets and more (the patterns match), half of some 200.
  hostile: (n) => Array.from({ length: n }, (_, i) => `https://example.com/${'a'.repeat(i % 2 ? 16_000 + (i % 50) : 200 + (i % 50))}${i % 37}`),
  'rules-1000-same-file': (n) => urlsOf['rules-1000'](n),
  'rules-1000': (n) => Array.from({ length: n }, (_, i) => `https://example.com/d${i % 300}/${['x/a.pdf', 'y/draft', 'x/y', 'page.html'][i % 4]}?i=${i}`),
};

/** Median CPU microseconds per URL of each work(url) over urls, their passes alternating (the machine's load falls on both). */
function perUrl(urls, ...works) {
  const runs = works.map(() => /** @type {number[]} */ ([]));
  let sink = 0;
  // (A pass of each unmeasured first: the JIT's tiers, not the work, made the first measured one slower.)
  for (const work of works) for (const u of urls) sink += work(u) ? 1 : 0;
  for (let pass = 0; pass < PASSES; pass++) {
    works.forEach((work, w) => {
      const t = process.cpuUsage();
      for (const u of urls) sink += work(u) ? 1 : 0;
      const d = process.cpuUsage(t);
      runs[w].push((d.user + d.system) / urls.length);
    });
  }
  if (sink < 0) throw new Error('unreachable');
  return runs.map((r) => r.sort((a, b) => a - b)[r.length >> 1]);
}

/** Median CPU microseconds of each first(url) (a fresh RobotsTxt's parse, compile and first answer), FILES times, alternating. */
function firstCall(urls, ...firsts) {
  const runs = firsts.map(() => /** @type {number[]} */ ([]));
  let sink = 0;
  for (let i = 0; i < FILES; i++) {
    firsts.forEach((first, w) => {
      const t = process.cpuUsage();
      sink += first(urls[i % urls.length]) ? 1 : 0;
      const d = process.cpuUsage(t);
      runs[w].push(d.user + d.system);
    });
  }
  if (sink < 0) throw new Error('unreachable');
  return runs.map((r) => r.sort((a, b) => a - b)[r.length >> 1]);
}

for (const name of Object.keys(files)) {
  if (values.only && values.only !== name) continue;
  for (const profile of ['google', 'rfc']) {
    const usage = parse(files[name]('Content-Usage'), { profile, maxOctets: Infinity });
    const rules = parse(files[name]('Disallow'), { profile, maxOctets: Infinity });
    const urls = urlsOf[name](URLS);
    for (const x of urls) usage.usage(x, 'FooBot'); // (compiled and walked once, outside the passes)
    for (const x of urls) rules.isAllowed(x, 'FooBot');
    const [u, a] = perUrl(urls, (x) => usage.usage(x, 'FooBot').purposes['train-ai'] === 'disallowed', (x) => rules.isAllowed(x, 'FooBot'));
    console.log(`${name} ${profile}: usage() ${u.toFixed(2)} µs/URL, isAllowed() ${name === 'rules-1000-same-file' ? 'on the same file' : 'on the Disallow twin'} ${a.toFixed(2)} µs/URL: ${(u / a).toFixed(2)}× (${URLS} URLs, median of ${PASSES}, alternating)`);
    if (values.operator || name === 'rules-1000') {
    for (const x of urls) usage.operatorUsage(x, 'google');
    const [g, o, b] = perUrl(urls, (x) => usage.usage(x, 'Googlebot').purposes['train-ai'] === 'disallowed', (x) => usage.operatorUsage(x, 'google').purposes['train-ai'].answer === 'no', (x) => rules.isAllowed(x, 'FooBot'));
    console.log(`${name} ${profile}: usage(Googlebot) ${g.toFixed(2)} µs/URL (${(g / b).toFixed(2)}×), operatorUsage(google) ${o.toFixed(2)} µs/URL (${(o / b).toFixed(2)}×) of isAllowed() ${b.toFixed(2)} µs/URL`);
    }
    if (values.first || name === 'rules-1000') {
      const options = { profile, maxOctets: Infinity };
      const usageBody = files[name]('Content-Usage');
      const rulesBody = files[name]('Disallow');
      const [fu, fo, fa] = firstCall(urls, (x) => parse(usageBody, options).usage(x, 'FooBot').allowed, (x) => parse(usageBody, options).operatorUsage(x, 'google').purposes.search.answer === 'yes', (x) => parse(rulesBody, options).isAllowed(x, 'FooBot'));
      console.log(`${name} ${profile}: first call (parse, compile, answer): usage() ${(fu / 1000).toFixed(2)} ms (${(fu / fa).toFixed(2)}×), operatorUsage(google) ${(fo / 1000).toFixed(2)} ms (${(fo / fa).toFixed(2)}×) of isAllowed() ${(fa / 1000).toFixed(2)} ms (median of ${FILES} files, alternating)`);
    }
  }
}
