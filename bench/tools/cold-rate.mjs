// A/B of library builds on cold matchers (coldOctets: Infinity, the rule list
// walked, indexed once the reviews say so): the 20 corpus files with the most
// rules, each compiled once, their probe URLs checked pass after pass (the
// first passes untimed: the list indexed by then). Each build runs in a process
// of its own, builds alternating (in the order given, then reversed); each
// reports the median URLs per CPU second (user + system) of its passes.
//   node bench/tools/cold-rate.mjs [--rounds 2] DIST [DIST…]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(import.meta.url);

if (process.env.COLD_RATE_CHILD) {
  const { loadCorpus, mostRules } = await import('../corpus.mjs');
  const { parse } = await import(pathToFileURL(path.join(process.env.COLD_RATE_CHILD, 'index.js')).href);
  const files = mostRules(loadCorpus(), 20);
  const out = {};
  for (const profile of ['google', 'rfc']) {
    const ms = files.map((f) => parse(f.bytes, { profile, maxBytes: Infinity }).compile('Googlebot', { coldOctets: Infinity }));
    const urls = files.reduce((n, f) => n + f.urls.length, 0);
    let allowed = 0;
    const pass = () => {
      for (let i = 0; i < files.length; i++) for (const u of files[i].urls) allowed += ms[i].isAllowed(u) ? 1 : 0;
    };
    for (let i = 0; i < 5; i++) pass();
    const rates = [];
    for (let r = 0; r < 9; r++) {
      const c0 = process.cpuUsage();
      let n = 0;
      let cpu = 0;
      do {
        pass();
        n++;
        const c = process.cpuUsage(c0);
        cpu = (c.user + c.system) / 1e6;
      } while (cpu < 0.2);
      rates.push((n * urls) / cpu);
    }
    if (allowed < 0 || ms.some((m) => m.stats.mode !== 'cold')) throw new Error('a matcher left the cold walk');
    for (const m of ms) m.dispose();
    out[profile] = rates.sort((a, b) => a - b)[4];
  }
  console.log(JSON.stringify(out));
} else {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '2' } } });
  if (positionals.length === 0) throw new Error('give one or more dist folders');
  for (const dist of positionals) if (!existsSync(path.join(dist, 'index.js'))) throw new Error(`${dist}: no index.js there`);
  /** @type {Map<string, { google: number[], rfc: number[] }>} */
  const got = new Map(positionals.map((d) => [d, { google: /** @type {number[]} */ ([]), rfc: /** @type {number[]} */ ([]) }]));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const dist of round % 2 === 0 ? positionals : [...positionals].reverse()) {
      const p = spawnSync(process.execPath, [HERE], { encoding: 'utf8', env: { ...process.env, COLD_RATE_CHILD: path.resolve(dist) } });
      if (p.status !== 0) throw new Error(`${dist}: exit ${p.status}: ${p.stderr}`);
      const r = JSON.parse(p.stdout);
      got.get(dist)?.google.push(r.google);
      got.get(dist)?.rfc.push(r.rfc);
    }
  }
  const k = (x) => `${Math.round(x / 1000).toLocaleString('en')}k`;
  for (const [dist, r] of got) console.log(`${dist}: cold top20, URLs per CPU second: google ${r.google.map(k).join('/')}, rfc ${r.rfc.map(k).join('/')} (each round)`);
}
