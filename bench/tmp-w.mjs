import { parse } from '../dist/index.js';
import { loadCorpus } from './corpus.mjs';
const hosts = loadCorpus();
for (const name of ['www.linkedin.com', 'github.com', 'www.etsy.com', 'www.google.com', 'archive.org']) {
  const h = hosts.find((x) => x.host === name); if (!h) continue;
  const m = parse(h.body, { profile: 'google', maxBytes: Infinity }).compile('Googlebot');
  m.checkMany(h.urls);
  const N = 2000;
  let s = performance.now();
  for (let k = 0; k < N; k++) m.checkMany(h.urls);
  const a = (performance.now() - s) * 1e6 / (N * h.urls.length);
  s = performance.now();
  let x = 0;
  for (let k = 0; k < N; k++) for (const u of h.urls) x += m.isAllowed(u) ? 1 : 0;
  const b = (performance.now() - s) * 1e6 / (N * h.urls.length);
  const avg = h.urls.reduce((n, u) => n + u.length, 0) / h.urls.length;
  console.log(`${name}: ${h.urls.length} urls avg ${avg.toFixed(0)} chars, ${JSON.stringify(m.stats)} checkMany ${a.toFixed(0)} ns, isAllowed ${b.toFixed(0)} ns`);
}
