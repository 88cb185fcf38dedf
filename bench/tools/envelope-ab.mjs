// A/B of library builds on the envelope workload (bench/workloads/envelope.mjs):
// each build in a process of its own, builds alternating round by round (in
// the order given, then reversed), each reporting its costs (CPU ms) of parse +
// compile + N checks with the default options, always-cold and always-hot.
//   node bench/tools/envelope-ab.mjs [--rounds 2] [--profile google] [--counts 1,1000] DIST [DIST…]
// DIST: a copy of dist/ (say /tmp/dist-a) with its index.js.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(import.meta.url);

if (process.env.ENVELOPE_AB_CHILD) {
  const { loadCorpus } = await import('../corpus.mjs');
  const { envelopeFiles, measureEnvelope } = await import('../workloads/envelope.mjs');
  const { parse } = await import(pathToFileURL(path.join(process.env.ENVELOPE_AB_CHILD, 'index.js')).href);
  const profile = process.env.ENVELOPE_AB_PROFILE;
  const adapter = {
    parse: (file, agent, how) => parse(file.bytes, { profile, maxBytes: Infinity }).compile(agent, how),
    isAllowed: (m, url) => m.isAllowed(url),
    release: (m) => m.dispose(),
  };
  const counts = (process.env.ENVELOPE_AB_COUNTS ?? '1,10,100,1000,10000').split(',').map(Number);
  // CPU time (user + system): less noisy than wall time when other processes take the cores.
  const clock = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
  const rows = measureEnvelope(adapter, envelopeFiles(loadCorpus()), 'Googlebot', { rounds: 3, minMs: 60, counts, clock });
  console.log(JSON.stringify(rows));
} else {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { rounds: { type: 'string', default: '2' }, profile: { type: 'string', default: 'google' }, counts: { type: 'string', default: '1,10,100,1000,10000' }, files: { type: 'boolean', default: false } },
  });
  if (positionals.length === 0) throw new Error('give one or more dist folders');
  for (const dist of positionals) if (!existsSync(path.join(dist, 'index.js'))) throw new Error(`${dist}: no index.js there`);
  /** @type {Map<string, any[]>} */
  const got = new Map(positionals.map((d) => [d, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? positionals : [...positionals].reverse();
    for (const dist of order) {
      const p = spawnSync(process.execPath, [HERE], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, ENVELOPE_AB_CHILD: path.resolve(dist), ENVELOPE_AB_PROFILE: values.profile, ENVELOPE_AB_COUNTS: values.counts } });
      if (p.status !== 0) throw new Error(`${dist}: exit ${p.status}: ${p.stderr}`);
      got.get(dist)?.push(JSON.parse(p.stdout));
    }
  }
  const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));
  for (const [dist, runs] of got) {
    console.log(`${dist} (${values.profile}), ms summed over the files [each round]:`);
    runs[0].forEach((row, i) => {
      const all = runs.map((r) => r[i]);
      const col = (k) => all.map((r) => f(r[k])).join('/');
      console.log(`  N=${String(row.n).padEnd(6)} default ${col('default')}  cold ${col('cold')}  hot ${col('hot')}  ratio ${all.map((r) => r.ratio.toFixed(2)).join('/')}`);
      if (values.files) for (const [j, file] of row.files.entries()) console.log(`      ${file.host.padEnd(28)} ${all.map((r) => `${f(r.files[j].default)}/${f(r.files[j].cold)}/${f(r.files[j].hot)} ${r.files[j].ratio.toFixed(2)}x`).join('  ')}`);
    });
  }
}
