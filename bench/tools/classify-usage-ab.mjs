// A/B of `robots classify --robots-warc` with crawlers and purposes, builds and
// commands side by side on a shared, noisy machine: the corpus probes from a
// WARC of the corpus (as the classify-usage workload runs them: google, 1
// thread, TSV to /dev/null), runs alternating (the order reversed every other
// round), each row the median of the command's own URLs/s and of the CPU
// seconds it used (user + system), and its time against the first row's.
//   node bench/tools/classify-usage-ab.mjs [--rounds N] 'LABEL=DIST ARGS…' …
// e.g. 'one=/tmp/dist-a --agent Googlebot' 'ai=/tmp/dist-b --crawlers @ai --usage' 'ops=/tmp/dist-b --operators @ai'
// (DIST: a copy of dist/, with its cli.js.) The inputs are written once into the temp folder.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WARCRecord, WARCSerializer } from 'warcio';
import { loadCorpus, SHARED } from '../corpus.mjs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '5' } } });
if (positionals.length === 0) throw new Error("give runs as 'LABEL=DIST ARGS…'");
const probes = path.join(os.tmpdir(), 'robots-usage-ab-probes.txt');
const warc = path.join(os.tmpdir(), 'robots-usage-ab-corpus.warc.gz');
if (!existsSync(probes) || !existsSync(warc)) {
  writeFileSync(probes, loadCorpus().flatMap((h) => h.urls).join('\n') + '\n');
  const dir = path.join(SHARED, 'corpus', 'robots');
  const parts = [];
  for (const host of readdirSync(dir)) {
    const body = readFileSync(path.join(dir, host));
    const record = await WARCRecord.create(
      { url: `https://${host}/robots.txt`, date: '2024-01-01T00:00:00Z', type: 'response', httpHeaders: { 'Content-Type': 'text/plain' }, statusline: 'HTTP/1.1 200 OK' },
      (async function* () { yield body; })(),
    );
    parts.push(await WARCSerializer.serialize(record, { gzip: true }));
  }
  writeFileSync(warc, Buffer.concat(parts));
}
const runs = positionals.map((spec) => {
  const at = spec.indexOf('=');
  const [dist, ...args] = spec.slice(at + 1).split(' ').filter((a) => a !== '');
  return { label: spec.slice(0, at), dist, args, rates: /** @type {number[]} */ ([]), cpu: /** @type {number[]} */ ([]) };
});
const common = ['--robots-warc', warc, '--profile', 'google', '--max-octets', 'Infinity', probes, '--threads', '1', '--out', '/dev/null'];
for (let round = 0; round < Number(values.rounds); round++) {
  for (const r of round % 2 === 0 ? runs : [...runs].reverse()) {
    const p = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, path.join(r.dist, 'cli.js'), 'classify', ...r.args, ...common], { encoding: 'utf8' });
    const rate = /\(([\d,]+) URLs\/s\)/.exec(p.stderr);
    const cpu = /^cpu ([\d.]+) ([\d.]+)$/m.exec(p.stderr);
    if (p.status !== 0 || rate === null || cpu === null) throw new Error(`${r.label}: exit ${p.status}: ${p.stderr}`);
    r.rates.push(Number(rate[1].replaceAll(',', '')));
    r.cpu.push(Number(cpu[1]) + Number(cpu[2]));
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const r of runs) {
  console.log(`${r.label}: ${(median(r.rates) / 1e3).toFixed(0)}k URLs/s [${[...r.rates].sort((a, b) => a - b).map((x) => (x / 1e3).toFixed(0)).join(' ')}], ` +
    `CPU ${median(r.cpu).toFixed(2)} s; time ${(median(runs[0].rates) / median(r.rates)).toFixed(2)}× ${runs[0].label}'s`);
}
