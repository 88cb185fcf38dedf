import { parse } from '../dist/index.js';
import { loadCorpus } from './corpus.mjs';
const hosts = loadCorpus();
const all = hosts.map((h) => ({ urls: h.urls, m: parse(h.body, { profile: 'google', maxBytes: Infinity }).compile('Googlebot') }));
for (const h of all) h.m.checkMany(h.urls);
const total = all.reduce((n, h) => n + h.urls.length, 0);
for (let k = 0; k < 10; k++) {
  let s = performance.now();
  for (const h of all) h.m.checkMany(h.urls);
  const a = performance.now() - s; s = performance.now();
  let x = 0; for (const h of all) for (const u of h.urls) x += h.m.isAllowed(u) ? 1 : 0;
  const b = performance.now() - s;
  console.log(`checkMany ${(a * 1e6 / total).toFixed(0)} ns/URL, isAllowed ${(b * 1e6 / total).toFixed(0)} ns/URL`);
}
