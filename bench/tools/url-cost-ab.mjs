// A/B of builds on the cost of a verdict alone (matchers compiled and warm, no
// parse in the timed part), CPU ns a URL, per profile. Each build runs in a
// process of its own; processes alternate, the order reversed every round, and
// each round's pair is compared (the two ran back to back, under the same load).
//   batch: one matcher (www.linkedin.com's file), checkMany over 100,000 corpus
//          probe paths under one host, again and again (little JavaScript per URL);
//   hosts: every corpus file's matcher, isAllowed and checkMany over its probes.
//   node bench/tools/url-cost-ab.mjs [--rounds N] [--work batch|hosts] [--dots] DIST DIST…
// --dots puts "/x/../" in front of every path (the cost of a dot segment).
// DIST: a copy of dist/ (say /tmp/dist-a) with its index.js.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(import.meta.url);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.env.URL_AB_CHILD) {
  const { loadCorpus } = await import('../corpus.mjs');
  const { parse } = await import(pathToFileURL(path.join(process.env.URL_AB_CHILD, 'index.js')).href);
  const dots = process.env.URL_AB_DOTS === '1';
  const files = loadCorpus();
  const withDots = (u) => (dots ? u.replace(/^(https?:\/\/[^/?#]*)\/?/, '$1/x/../') : u);
  /** CPU ns per URL of fn over n URLs: the median of passes, after warm-up passes. */
  const time = (fn, n, passes) => {
    for (let w = 0; w < 2; w++) fn();
    const t = [];
    for (let p = 0; p < passes; p++) {
      const c = process.cpuUsage();
      fn();
      const d = process.cpuUsage(c);
      t.push(((d.user + d.system) * 1e3) / n);
    }
    return median(t);
  };
  const out = {};
  for (const profile of ['google', 'rfc']) {
    if (process.env.URL_AB_WORK === 'batch') {
      const paths = files.flatMap((f) => f.urls).map((u) => u.replace(/^https?:\/\/[^/?#]*/, '')).filter((p) => !/\/\./.test(p));
      const batch = paths.slice(0, 100_000).map((p) => withDots('https://www.example.com' + p));
      const f = files.find((x) => x.host === 'www.linkedin.com') ?? files[0];
      const m = parse(f.bytes, { profile, maxBytes: Infinity }).compile('Googlebot');
      out[`${profile} checkMany`] = time(() => m.checkMany(batch), batch.length, 15);
      m.dispose();
    } else {
      const hosts = files.map((f) => ({ m: parse(f.bytes, { profile, maxBytes: Infinity }).compile('Googlebot'), urls: f.urls.map(withDots) }));
      const n = hosts.reduce((a, h) => a + h.urls.length, 0);
      let allowed = 0;
      out[`${profile} isAllowed`] = time(() => { for (const h of hosts) for (const u of h.urls) allowed += h.m.isAllowed(u) ? 1 : 0; }, n, 7);
      out[`${profile} checkMany`] = time(() => { for (const h of hosts) allowed += h.m.checkMany(h.urls)[0]; }, n, 7);
      if (allowed < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
      for (const h of hosts) h.m.dispose();
    }
  }
  console.log(JSON.stringify(out));
} else {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '8' }, work: { type: 'string', default: 'batch' }, dots: { type: 'boolean', default: false } },
  });
  if (positionals.length < 2 || !['batch', 'hosts'].includes(values.work)) throw new Error('give --work batch or hosts, and two or more dist folders');
  for (const dist of positionals) if (!existsSync(path.join(dist, 'index.js'))) throw new Error(`${dist}: no index.js there`);
  const runs = positionals.map(() => ({}));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = positionals.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    for (const i of order) {
      const env = { ...process.env, URL_AB_CHILD: path.resolve(positionals[i]), URL_AB_WORK: values.work, URL_AB_DOTS: values.dots ? '1' : '' };
      const p = spawnSync(process.execPath, [HERE], { encoding: 'utf8', env });
      if (p.status !== 0) throw new Error(`${positionals[i]}: exit ${p.status}: ${p.stderr}`);
      for (const [k, v] of Object.entries(JSON.parse(p.stdout))) (runs[i][k] ??= []).push(v);
    }
  }
  positionals.forEach((dist, i) => {
    console.log(`${dist}, ${values.work}${values.dots ? ' --dots' : ''}: ${Object.entries(runs[i]).map(([k, v]) => `${k} ${median(v).toFixed(1)} ns (min ${Math.min(...v).toFixed(1)})`).join(', ')} of CPU a URL`);
  });
  for (let j = 1; j < positionals.length; j++) {
    for (const k of Object.keys(runs[0])) {
      const ratios = runs[0][k].map((a, r) => runs[j][k][r] / a);
      console.log(`  ${k}: ${positionals[j]} / ${positionals[0]}, median of ${ratios.length} paired rounds ${median(ratios).toFixed(3)} [${[...ratios].sort((a, b) => a - b).map((x) => x.toFixed(2)).join(' ')}]`);
    }
  }
}
