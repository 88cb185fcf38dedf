// End to end: the built `robots classify` command, in a child process, with 1 and
// 2 worker threads (issue 3's figures). Only this engine has the command, so only
// its google-profile row runs. The figure is the command's own URLs/s (its summary:
// reading, classifying and writing, process start-up excluded); the wall-clock
// rate, start-up included, is kept beside it. Thread counts alternate run by run so
// that the machine's noise falls on both alike. Not in the headline: there is no
// peer to take a ratio against.
import path from 'node:path';
import { SHARED } from '../corpus.mjs';
import { repeatedUrlFile, runClassify, urlListFile } from '../classify-cli.mjs';
import { formatFigure } from '../format.mjs';

export const CLASSIFY_HOST = 'www.linkedin.com';
const THREADS = [1, 2];
const urlCount = (quick) => (quick ? 1_000_000 : 10_000_000);
const repetitions = (quick) => (quick ? 1 : 3);
const ROBOTS_DIR = path.join(SHARED, 'corpus', 'robots');

function summarise(runs) {
  const own = runs.map((r) => r.own).sort((a, b) => a - b);
  const wall = runs.map((r) => r.wall).sort((a, b) => a - b);
  const mid = (xs) => xs[Math.floor(xs.length / 2)];
  return { median: mid(own), min: own[0], max: own[own.length - 1], samples: own.length, wall: mid(wall), urls: runs[0].urls };
}

/** Runs each thread count `repeat` times, alternating; one table row per thread count. */
function measureThreads(args, repeat) {
  const runs = new Map(THREADS.map((t) => [t, []]));
  for (let i = 0; i < repeat; i++) for (const t of THREADS) runs.get(t).push(runClassify(args, t));
  const variants = THREADS.map((t) => ({ label: `robots classify --threads ${t}`, threads: t, ...summarise(runs.get(t)) }));
  const one = variants[0].median;
  for (const v of variants) {
    v.note = `wall clock ${formatFigure(v.wall, 'URLs/s')} URLs/s with process start${v.threads > 1 ? `; ${(v.median / one).toFixed(2)}× one thread` : ''}`;
  }
  return { ...variants[0], variants };
}

const common = {
  kind: 'end-to-end',
  unit: 'URLs/s',
  needsCorpus: true,
  appliesTo: (adapter) => adapter.id === 'wasm-google',
};

/** 10M URLs (1M quick) on one real robots.txt: the corpus probe paths, repeated. */
export const classifyOne = {
  ...common,
  id: 'classify',
  title: 'robots classify, one robots.txt',
  describe: (ctx) => `\`robots classify --robots ${CLASSIFY_HOST} --profile google\` on ${urlCount(ctx.quick).toLocaleString('en')} URLs (the corpus probe paths on that host, repeated), output to /dev/null; ${repetitions(ctx.quick)} run(s) per thread count`,
  async run(ctx) {
    const paths = ctx.corpus().flatMap((h) => h.urls.map((u) => u.slice(h.origin.length) || '/'));
    const file = await repeatedUrlFile(CLASSIFY_HOST, paths, urlCount(ctx.quick));
    return measureThreads(['--robots', path.join(ROBOTS_DIR, CLASSIFY_HOST), '--agent', ctx.agent, '--profile', 'google', file], repetitions(ctx.quick));
  },
};

/** The corpus probes over --robots-dir: one robots.txt per host, each parsed and compiled once. */
export const classifyDir = {
  ...common,
  id: 'classify-dir',
  title: 'robots classify, one robots.txt per host',
  describe: (ctx) => `\`robots classify --robots-dir corpus/robots --profile google\` on the corpus probe URLs (${ctx.quick ? 'every 4th host' : '4,241 hosts'}), output to /dev/null; ${repetitions(ctx.quick)} run(s) per thread count`,
  async run(ctx) {
    const hosts = ctx.quick ? ctx.corpus().filter((_, i) => i % 4 === 0) : ctx.corpus();
    const file = urlListFile(ctx.quick ? 'probes-quick' : 'probes', hosts.flatMap((h) => h.urls));
    return measureThreads(['--robots-dir', ROBOTS_DIR, '--agent', ctx.agent, '--profile', 'google', file], repetitions(ctx.quick));
  },
};
