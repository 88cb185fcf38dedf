import { parse } from '../dist/index.js';
import { loadCorpus } from './corpus.mjs';
const hosts = loadCorpus();
const parsed = hosts.map((h) => [h.host, parse(h.body, { profile: 'google', maxBytes: Infinity })]);
for (let k = 0; k < 3; k++) for (const [, r] of parsed) r.compile('Googlebot').dispose();
const times = [];
let rules = 0;
for (const [host, r] of parsed) {
  const s = performance.now();
  const m = r.compile('Googlebot');
  times.push([performance.now() - s, host, m.stats.rules]);
  rules += m.stats.rules;
  m.dispose();
}
times.sort((a, b) => b[0] - a[0]);
console.log('total ms', times.reduce((a, b) => a + b[0], 0).toFixed(1), 'rules', rules);
console.log(times.slice(0, 8).map((t) => `${t[0].toFixed(2)}ms ${t[1]} ${t[2]}`).join('\n'));
console.log('median', times[times.length >> 1][0].toFixed(4));
