import { parse } from '../dist/index.js';
import { loadCorpus } from './corpus.mjs';
const hosts = loadCorpus();
const all = hosts.map((h) => ({ host: h.host, urls: h.urls, m: parse(h.body, { profile: 'google', maxBytes: Infinity }).compile('Googlebot') }));
for (const h of all) h.m.checkMany(h.urls);
const before = all.map((h) => ({ ...h.m.stats }));
for (const h of all) h.m.checkMany(h.urls);
all.forEach((h, i) => { const a = before[i], b = h.m.stats; if (a.states !== b.states || b.resets) console.log(h.host, a, b); });
let tot = 0; for (const h of all) tot += h.m.stats.bytes; console.log('total bytes', tot);
