// A/B of library builds on the crawler's shape of work, on a shared, noisy
// machine: each build runs in a process of its own (two builds loaded side by
// side in one process slow each other, the second more), processes alternate
// build by build, round by round, and each reports the median CPU time of its
// passes over the corpus (user + system: less noisy than wall time when
// another process takes a core), and each later build's ratio to the first
// round by round (paired: a round's processes ran at about the same load). Per
// profile, google and rfc:
//   first-verdict: every corpus file parsed, compiled, its first probe checked, disposed;
//   crawler-mix: the same with all of its probes (host after host);
//   parse-compile: the same without a check (the bench's parse row).
//   node bench/tools/crawler-ab.mjs [--rounds N] [--work first-verdict|crawler-mix|parse-compile] DIST [DIST…]
// DIST: a copy of dist/ (say /tmp/dist-a) with its index.js.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(import.meta.url);
const PASSES = 9;

if (process.env.CRAWLER_AB_CHILD) {
  // One build, in this process: the median CPU ms of its passes, per profile, as JSON.
  const { loadCorpus } = await import('../corpus.mjs');
  const { firstWalked } = await import('../workloads/parse-compile.mjs');
  const { parse } = await import(pathToFileURL(path.join(process.env.CRAWLER_AB_CHILD, 'index.js')).href);
  const files = loadCorpus();
  const all = process.env.CRAWLER_AB_WORK === 'crawler-mix';
  const check = process.env.CRAWLER_AB_WORK !== 'parse-compile';
  const out = {};
  for (const profile of ['google', 'rfc']) {
    const ms = [];
    for (let pass = 0; pass < PASSES; pass++) {
      const t = process.cpuUsage();
      let allowed = 0;
      for (const f of files) {
        const m = parse(f.bytes, { profile, maxBytes: Infinity }).compile('Googlebot');
        if (all) for (const u of f.urls) allowed += m.isAllowed(u) ? 1 : 0;
        else if (check) allowed += m.isAllowed(firstWalked(f)) ? 1 : 0;
        m.dispose();
      }
      const u = process.cpuUsage(t);
      if (allowed < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
      ms.push((u.user + u.system) / 1e3);
    }
    out[profile] = ms.slice(1).sort((a, b) => a - b)[(PASSES - 1) >> 1]; // (the first pass warms up)
  }
  console.log(JSON.stringify(out));
} else {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '3' }, work: { type: 'string', default: 'first-verdict' } },
  });
  if (positionals.length === 0 || !['first-verdict', 'crawler-mix', 'parse-compile'].includes(values.work)) {
    throw new Error('give --work first-verdict, crawler-mix or parse-compile, and one or more dist folders');
  }
  for (const dist of positionals) if (!existsSync(path.join(dist, 'index.js'))) throw new Error(`${dist}: no index.js there`);
  const runs = positionals.map((dist) => ({ dist, google: /** @type {number[]} */ ([]), rfc: /** @type {number[]} */ ([]) }));
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const r of runs) {
      const p = spawnSync(process.execPath, [HERE], { encoding: 'utf8', env: { ...process.env, CRAWLER_AB_CHILD: path.resolve(r.dist), CRAWLER_AB_WORK: values.work } });
      if (p.status !== 0) throw new Error(`${r.dist}: exit ${p.status}: ${p.stderr}`);
      const got = JSON.parse(p.stdout);
      r.google.push(got.google);
      r.rfc.push(got.rfc);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const list = (xs) => [...xs].sort((a, b) => a - b).map((x) => x.toFixed(1)).join(' ');
  for (const r of runs) {
    console.log(`${r.dist}, ${values.work}: google ${median(r.google).toFixed(1)} ms [${list(r.google)}], rfc ${median(r.rfc).toFixed(1)} ms [${list(r.rfc)}] of CPU a pass over the corpus`);
  }
  // Each later build against the first, round by round (the two processes of a round ran back to back,
  // at about the same load): the median of those ratios, and the rounds in which it took less CPU.
  for (const r of runs.slice(1)) {
    for (const profile of /** @type {const} */ (['google', 'rfc'])) {
      const ratios = r[profile].map((ms, i) => runs[0][profile][i] / ms);
      const faster = ratios.filter((x) => x > 1).length;
      console.log(`${r.dist} against ${runs[0].dist}, ${profile}: rounds' ratios' median ${median(ratios).toFixed(3)} (${faster} of ${ratios.length} rounds faster)`);
    }
  }
}
