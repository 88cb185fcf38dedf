// A/B of library builds on the envelope workload (bench/workloads/envelope.mjs):
// each build in a process of its own, builds alternating round by round (in
// the order given, then reversed), each reporting its costs (CPU ms) of parse +
// compile + N checks with the default options, always-cold and always-hot.
//   node bench/tools/envelope-ab.mjs [--rounds 2] [--profile google] [--counts 1,1000] [--files]
//     [--hosts quora,generated] [--turns] DIST [DIST…]
// DIST: a copy of dist/ (say /tmp/dist-a) with its index.js. --files: each
// file's costs too; --hosts: only the files whose host has one of these in
// it (a file's A/B with less noise from the others); --turns: where the
// default options change mode on each file (the URL at which, out of the
// timing), over the largest count's URLs.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const HERE = fileURLToPath(import.meta.url);

if (process.env.ENVELOPE_AB_CHILD) {
  const { loadCorpus } = await import('../corpus.mjs');
  const { envelopeFiles, measureEnvelope, urlsOf } = await import('../workloads/envelope.mjs');
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
  const hosts = process.env.ENVELOPE_AB_HOSTS ? process.env.ENVELOPE_AB_HOSTS.split(',') : null;
  const files = envelopeFiles(loadCorpus()).filter((f) => hosts === null || hosts.some((h) => f.host.includes(h)));
  if (files.length === 0) throw new Error(`no envelope file's host has any of ${hosts}`);
  const rows = measureEnvelope(adapter, files, 'Googlebot', { rounds: 3, minMs: 60, counts, clock });
  /** Per file: the default options' modes, each from the URL (index) where it began. */
  const turns = files.map((file) => {
    const m = adapter.parse(file, 'Googlebot', undefined);
    const modes = [];
    for (const [k, url] of urlsOf(file, Math.max(...counts)).entries()) {
      m.isAllowed(url);
      const mode = m.stats.mode;
      if (modes.at(-1)?.mode !== mode) modes.push({ mode, at: k });
    }
    adapter.release(m);
    return { host: file.host, modes };
  });
  console.log(JSON.stringify({ rows, turns }));
} else {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      rounds: { type: 'string', default: '2' }, profile: { type: 'string', default: 'google' }, counts: { type: 'string', default: '1,10,100,1000,10000' },
      files: { type: 'boolean', default: false }, hosts: { type: 'string', default: '' }, turns: { type: 'boolean', default: false },
    },
  });
  if (positionals.length === 0) throw new Error('give one or more dist folders');
  for (const dist of positionals) if (!existsSync(path.join(dist, 'index.js'))) throw new Error(`${dist}: no index.js there`);
  /** @type {Map<string, any[]>} */
  const got = new Map(positionals.map((d) => [d, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const order = round % 2 === 0 ? positionals : [...positionals].reverse();
    for (const dist of order) {
      const p = spawnSync(process.execPath, [HERE], { encoding: 'utf8', maxBuffer: 1 << 26, env: { ...process.env, ENVELOPE_AB_CHILD: path.resolve(dist), ENVELOPE_AB_PROFILE: values.profile, ENVELOPE_AB_COUNTS: values.counts, ENVELOPE_AB_HOSTS: values.hosts } });
      if (p.status !== 0) throw new Error(`${dist}: exit ${p.status}: ${p.stderr}`);
      got.get(dist)?.push(JSON.parse(p.stdout));
    }
  }
  const f = (x) => (x >= 100 ? x.toFixed(0) : x.toFixed(2));
  for (const [dist, got_] of got) {
    const runs = got_.map((r) => r.rows);
    console.log(`${dist} (${values.profile}), ms summed over the files [each round]:`);
    if (values.turns) for (const t of got_[0].turns) console.log(`  ${t.host.padEnd(28)} ${t.modes.map((m) => `${m.mode} from URL ${m.at}`).join(', ')}`);
    runs[0].forEach((row, i) => {
      const all = runs.map((r) => r[i]);
      const col = (k) => all.map((r) => f(r[k])).join('/');
      console.log(`  N=${String(row.n).padEnd(6)} default ${col('default')}  cold ${col('cold')}  hot ${col('hot')}  ratio ${all.map((r) => r.ratio.toFixed(2)).join('/')}`);
      if (values.files) for (const [j, file] of row.files.entries()) console.log(`      ${file.host.padEnd(28)} ${all.map((r) => `${f(r.files[j].default)}/${f(r.files[j].cold)}/${f(r.files[j].hot)} ${r.files[j].ratio.toFixed(2)}x`).join('  ')}`);
    });
  }
}
