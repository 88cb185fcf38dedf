// This engine against the native parsers, file size class by file size class:
// the bench's parse and first-verdict rows pool the whole corpus, whose octets are
// mostly in a few large files (the 33 over 100 KB hold 47% of them, 64% of the
// files are under 1 KB), so a ratio there says little about the small files a
// crawler mostly meets. Per class (under 1 KB, 1–10 KB, 10–100 KB, 100 KB and
// more): every corpus file of the class parsed (this engine: parse + compile for
// Googlebot, cold, as compile() does) and, apart, parsed and asked its first walked
// probe (the bench's first verdict), the class's files `copies` times over a pass
// (the drivers print a pass to the millisecond). Each engine runs in a process of
// its own (no in-process pass after a spawn: docs/benchmarks.md "The fork effect"),
// engines alternating round by round, each timing its passes in its thread's CPU
// time (this engine: bench/thread-clock.mjs; the drivers' -cpu builds,
// scripts/build-peers.mjs with bench/peers/thread-cpu-clock.cc), the first pass of a process a
// warm-up. Prints per class the median µs a file of each engine and the ratios.
//   node bench/tools/by-size.mjs [--rounds 5] [--copies 10] [--dist DIST]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { SHARED, loadCorpus } from '../corpus.mjs';
import { firstWalked } from '../workloads/parse-compile.mjs';
import { NATIVE_CPU_BIN, NZRSKY_CPU_BIN, HOW_TO_BUILD } from '../peers/paths.mjs';

const HERE = fileURLToPath(import.meta.url);
const AGENT = 'Googlebot';
/** The classes' lower bounds in octets, and their names. */
const CLASSES = [
  { name: 'under 1 KB', from: 0 },
  { name: '1–10 KB', from: 1024 },
  { name: '10–100 KB', from: 10240 },
  { name: '100 KB and more', from: 102400 },
];
const PASSES = 4; // (a process's passes of each class and phase; the first a warm-up)

/** The corpus files of class k. */
function classFiles(files, k) {
  const to = k + 1 < CLASSES.length ? CLASSES[k + 1].from : Infinity;
  return files.filter((f) => f.bytes.length >= CLASSES[k].from && f.bytes.length < to);
}

if (process.env.BY_SIZE_CHILD) {
  // This engine, in a process of its own: per class, the median thread CPU ms of a parse pass and of a first-verdict pass.
  const { threadCpuClock } = await import('../thread-clock.mjs');
  const { compile } = await import(pathToFileURL(path.join(process.env.BY_SIZE_CHILD, 'index.js')).href);
  const copies = Number(process.env.BY_SIZE_COPIES);
  const clock = threadCpuClock();
  const files = loadCorpus();
  const options = { profile: 'google', maxOctets: Infinity };
  let allowed = 0;
  const out = [];
  for (let k = 0; k < CLASSES.length; k++) {
    const list = classFiles(files, k);
    const probes = list.map(firstWalked);
    const median = (pass) => {
      const ms = [];
      for (let p = 0; p < PASSES; p++) {
        const t = clock.now();
        for (let c = 0; c < copies; c++) pass();
        ms.push(clock.now() - t);
      }
      return ms.slice(1).sort((a, b) => a - b)[(PASSES - 1) >> 1];
    };
    const parse = median(() => {
      for (const f of list) compile(f.bytes, AGENT, options).dispose();
    });
    const first = median(() => {
      for (let i = 0; i < list.length; i++) {
        const m = compile(list[i].bytes, AGENT, options);
        allowed += m.isAllowed(probes[i]) ? 1 : 0;
        m.dispose();
      }
    });
    out.push({ parse, first });
  }
  if (allowed < 0) throw new Error('unreachable'); // (keeps the verdicts from the optimiser)
  console.log(JSON.stringify({ clock: clock.kind, classes: out }));
} else {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, copies: { type: 'string', default: '10' }, dist: { type: 'string', default: path.join(HERE, '../../../dist') } } });
  const rounds = Number(values.rounds);
  const copies = Number(values.copies);
  if (!(rounds >= 1) || !(copies >= 1)) throw new Error('--rounds and --copies take a whole number, 1 or more');
  if (!existsSync(path.join(values.dist, 'index.js'))) throw new Error(`${values.dist}: no index.js there (npm run build)`);
  if (!existsSync(NZRSKY_CPU_BIN)) throw new Error(`${NZRSKY_CPU_BIN} ${HOW_TO_BUILD.nzrsky}`);
  if (!existsSync(NATIVE_CPU_BIN)) throw new Error(`${NATIVE_CPU_BIN} ${HOW_TO_BUILD.native}`);
  const files = loadCorpus();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'robots-by-size-'));
  try {
    // A probes file per class: its hosts' first walked probes, the whole list `copies` times over
    // (a driver reads a host again where it comes back after another: copies files a pass).
    const tsvs = CLASSES.map((_, k) => {
      const rows = classFiles(files, k).map((f) => `${f.host}\t${firstWalked(f)}\n`).join('');
      const file = path.join(dir, `class-${k}.tsv`);
      writeFileSync(file, rows.repeat(copies));
      return file;
    });
    const engines = [
      { name: 'this engine', run: () => ours(values.dist, copies) },
      { name: 'nzrsky (C++20)', run: () => driver(NZRSKY_CPU_BIN, tsvs) },
      { name: 'Google (C++)', run: () => driver(NATIVE_CPU_BIN, tsvs) },
    ];
    /** Per engine, class and phase, the rounds' figures (ms a pass). */
    const ms = engines.map(() => CLASSES.map(() => ({ parse: /** @type {number[]} */ ([]), first: /** @type {number[]} */ ([]) })));
    for (let round = 0; round < rounds; round++) {
      const order = engines.map((_, i) => (i + round) % engines.length);
      for (const i of order) {
        engines[i].run().forEach((c, k) => {
          ms[i][k].parse.push(c.parse);
          ms[i][k].first.push(c.first);
        });
      }
      process.stderr.write(`round ${round + 1} of ${rounds} done (load ${os.loadavg()[0].toFixed(1)})\n`);
    }
    const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
    const us = (i, k, phase) => (median(ms[i][k][phase]) * 1000) / (classFiles(files, k).length * copies);
    for (const phase of ['parse', 'first']) {
      console.log(`\n${phase === 'parse' ? 'parse (this engine: + compile)' : 'first verdict (parse, compile, one check)'}, µs a file (medians of ${rounds} rounds); × = the other's time / this engine's`);
      console.log('| class | files | octets | this engine | nzrsky | × nzrsky | Google | × Google |');
      console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
      CLASSES.forEach((c, k) => {
        const list = classFiles(files, k);
        const octets = list.reduce((n, f) => n + f.bytes.length, 0);
        const [a, b, g] = [0, 1, 2].map((i) => us(i, k, phase));
        console.log(`| ${c.name} | ${list.length.toLocaleString('en')} | ${octets.toLocaleString('en')} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(b / a).toFixed(2)}× | ${g.toFixed(2)} | ${(g / a).toFixed(2)}× |`);
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** This engine's figures from a process of its own: per class, { parse, first } ms a pass. */
function ours(dist, copies) {
  const r = spawnSync(process.execPath, [HERE], { env: { ...process.env, BY_SIZE_CHILD: dist, BY_SIZE_COPIES: String(copies) }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`this engine's process failed: ${r.stderr}`);
  const { clock, classes } = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}');
  if (clock !== 'thread') process.stderr.write('(this engine timed in the process\'s CPU time: no exact thread clock here)\n');
  return classes;
}

/** A driver's figures: per class, { parse, first } ms a pass (the medians of its repetitions past the first). */
function driver(bin, tsvs) {
  return tsvs.map((tsv) => {
    const r = spawnSync(bin, ['--bench', path.join(SHARED, 'corpus', 'robots'), tsv, AGENT, String(PASSES)], { encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${path.basename(bin)} failed: ${r.stderr}`);
    const phases = { parse: [], first: [] };
    for (const line of r.stderr.split('\n')) {
      if (!/^rep \d+:/.test(line)) continue;
      for (const [, name, s] of line.matchAll(/(\w+) ([\d.]+)s/g)) phases[name]?.push(Number(s) * 1000);
    }
    const median = (a) => a.slice(1).sort((x, y) => x - y)[(a.length - 1) >> 1];
    return { parse: median(phases.parse), first: median(phases.first) };
  });
}
