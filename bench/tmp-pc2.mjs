import { parse } from '../dist/index.js';
import robotsParser from 'robots-parser';
import { loadCorpus } from './corpus.mjs';
const hosts = loadCorpus();
const total = hosts.reduce((n, h) => n + h.body.length, 0);
const best = {};
const t = (name, f) => { const s = performance.now(); f(); const mbs = total / (performance.now() - s) / 1e3; best[name] = Math.max(best[name] ?? 0, mbs); };
for (let k = 0; k < 8; k++) {
  t('parse', () => { for (const h of hosts) parse(h.body, { profile: 'google', maxBytes: Infinity }); });
  t('parse+compile', () => { for (const h of hosts) parse(h.body, { profile: 'google', maxBytes: Infinity }).compile('Googlebot').dispose(); });
  t('parse+compile+1st check', () => { for (const h of hosts) { const m = parse(h.body, { profile: 'google', maxBytes: Infinity }).compile('Googlebot'); m.isAllowed(h.urls[0]); m.dispose(); } });
  t('robots-parser', () => { for (const h of hosts) robotsParser(`${h.origin}/robots.txt`, h.text); });
}
console.log(Object.entries(best).map(([k, v]) => `${k} ${v.toFixed(1)} MB/s`).join(', '));
