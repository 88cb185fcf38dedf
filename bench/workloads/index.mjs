// The registry of named workloads, in the order they run. A workload is
//
//   { id, title, kind: 'throughput' | 'memory' | 'latency' | 'agreement' | 'end-to-end', unit,
//     needsCorpus, appliesTo?(adapter), describe(ctx) → string, prepare?(ctx, adapters),
//     run(ctx, adapter) → figures, done?() }
//
// run() measures one engine and returns { median, min, max, samples, ... } in
// `unit` (min and max: the smallest and largest figure of its passes or runs), or
// { error } when it could not measure; `variants` (each such figures with a label)
// make a table row each. appliesTo() leaves engines out (the
// checkMany variants where only parsing counts: they share it). ctx is { adapters, agent,
// quick, budget, corpus(), verdicts() } (see run.mjs). Throughput workloads are the
// ones charted; ratios are against robots-parser in the same run. The 'envelope'
// kind (this engine's options against each other) has a chart of its own (chart.mjs); the
// 'self' kind (this engine's paths against each other) has its table only.
import parse from './parse-compile.mjs';
import corpus from './corpus-matching.mjs';
import top20 from './top20-matching.mjs';
import synthetic from './large-synthetic.mjs';
import pathological from './pathological.mjs';
import agreement from './agreement.mjs';
import memory from './memory.mjs';
import coldStart from './cold-start.mjs';
import envelope from './envelope.mjs';
import rowsCache from './rows-cache.mjs';
import { firstVerdict, crawlerMix } from './crawler.mjs';
import { classifyOne, classifyDir, classifyWarc, classifyUsage } from './classify.mjs';
import forkEffect from './fork-effect.mjs';

export const WORKLOADS = [
  // Parsing first, while the heap holds nothing else.
  parse,
  firstVerdict,
  crawlerMix,
  corpus,
  top20,
  synthetic,
  pathological,
  agreement,
  memory,
  coldStart,
  // This engine against itself: the mode policy's cost over N (not in the headline; its own chart).
  envelope,
  // This engine against itself: matcher rows out of the CPU caches (not in the headline).
  rowsCache,
  // End to end: the `robots` command (this engine only; not in the headline).
  classifyOne,
  classifyDir,
  classifyWarc,
  classifyUsage,
  // This engine after a child process (not in the headline): last, as it forks this process.
  forkEffect,
];
