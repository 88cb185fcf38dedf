// checkMany against one isAllowed call per URL, in one process, alternating pass by
// pass (CPU time of the process, medians):
//   --work crawler-mix   every corpus host parsed and compiled (default options, cold
//                        first), its ~40 probes asked in one checkMany or one by one,
//                        released; ns a URL over a pass that only parses and compiles
//   --work synthetic     the bench's 20,000-rule file compiled hot, 100,000 URLs asked in
//                        calls of --batch URLs (default 1024) or one by one; URLs/s
//   node bench/tools/check-many-vs-one.mjs [--work crawler-mix|synthetic] [--batch N] [--profile google|rfc] [DIST]
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../corpus.mjs';
import { largeSynthetic } from '../synthetic.mjs';

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { work: { type: 'string', default: 'crawler-mix' }, batch: { type: 'string', default: '1024' }, profile: { type: 'string', default: 'google' } } });
const { parse } = await import(pathToFileURL(path.join(path.resolve(positionals[0] ?? 'dist'), 'index.js')).href);
const profile = /** @type {'google' | 'rfc'} */ (args.profile);
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
let sink = 0;

/** @type {Record<string, () => void>} */
let ways;
let urls;
if (args.work === 'crawler-mix') {
  const files = loadCorpus();
  urls = files.reduce((n, f) => n + f.urls.length, 0);
  const compile = (f) => parse(f.bytes, { profile, maxBytes: Infinity }).compile('Googlebot');
  ways = {
    'parse + compile only': () => { for (const f of files) compile(f).dispose(); },
    isAllowed: () => { for (const f of files) { const m = compile(f); for (const u of f.urls) sink += m.isAllowed(u) ? 1 : 0; m.dispose(); } },
    checkMany: () => { for (const f of files) { const m = compile(f); sink += m.checkMany(f.urls)[0]; m.dispose(); } },
  };
} else {
  const { file, urls: list } = largeSynthetic({ rules: 20_000, count: 100_000 });
  urls = list.length;
  const batch = Number(args.batch);
  const calls = [];
  for (let i = 0; i < list.length; i += batch) calls.push(list.slice(i, i + batch));
  const m = parse(file.bytes, { profile, maxBytes: Infinity }).compile('Googlebot', { coldOctets: 0 });
  ways = {
    isAllowed: () => { for (const u of list) sink += m.isAllowed(u) ? 1 : 0; },
    [`checkMany, ${batch} URLs a call`]: () => { for (const c of calls) sink += m.checkMany(c)[0]; },
  };
}
const names = Object.keys(ways);
for (let r = 0; r < 3; r++) for (const n of names) ways[n]();
/** @type {Record<string, number[]>} */
const ms = Object.fromEntries(names.map((n) => [n, []]));
const load = [os.loadavg()[0]];
for (let r = 0; r < 9; r++) {
  for (const n of r % 2 ? [...names].reverse() : names) {
    const c0 = cpuMs();
    ways[n]();
    ms[n].push(cpuMs() - c0);
  }
}
load.push(os.loadavg()[0]);
if (sink < 0) throw new Error('unreachable');
console.log(`${args.work}, profile ${profile}: ${urls.toLocaleString('en')} URLs a pass, medians of 9 passes each, alternating; load average ${load.map((l) => l.toFixed(1)).join(' → ')}`);
const base = ms['parse + compile only'] ? median(ms['parse + compile only']) : 0;
for (const n of names) {
  const m = median(ms[n]);
  console.log(`  ${n.padEnd(28)} ${m.toFixed(1).padStart(8)} ms a pass${base && m !== base ? `, ${(((m - base) * 1e6) / urls).toFixed(0)} ns a URL beyond parse + compile` : ''}${base ? '' : `, ${Math.round((urls / m) * 1000).toLocaleString('en')} URLs/s`}`);
}
