import { parse } from '../dist/index.js';
import { loadCorpus } from './corpus.mjs';
const hosts = loadCorpus();
const parsed = hosts.map((h) => parse(h.body, { profile: 'google', maxBytes: Infinity }));
for (let k = 0; k < 8; k++) {
  let s = performance.now();
  const ms = parsed.map((r) => r.compile('Googlebot'));
  const c = performance.now() - s; s = performance.now();
  ms.forEach((m) => m.dispose());
  const d = performance.now() - s;
  console.log(`compile ${c.toFixed(0)} ms, dispose ${d.toFixed(0)} ms for ${hosts.length}`);
}
