// npm run bench [-- --quick] [-- --only corpus,top20] [-- --engines wasm-google,robots-parser]
//
// Runs every workload of workloads/index.mjs over every engine of adapters/, prints
// the tables, writes bench/results/<date>-<host>.json (…-quick.json for --quick)
// and, after a full run of everything, regenerates bench/REPORT.md and
// bench/report.svg from it. Quick and partial runs never overwrite the report:
// their timings are too short (or too few) to publish.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadAdapters } from './adapters/index.mjs';
import { WORKLOADS } from './workloads/index.mjs';
import { haveCorpus, loadCorpus, loadGoogleVerdicts, SHARED } from './corpus.mjs';
import { timingBudget } from './measure.mjs';
import { runWorkloads } from './harness.mjs';
import { renderResultsText } from './tables.mjs';
import { writeReport } from './report.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const list = (s) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : undefined);

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    engines: { type: 'string' },
    agent: { type: 'string', default: 'Googlebot' },
  },
});

const { adapters: all, skipped } = await loadAdapters();
const engines = list(args.engines);
const adapters = engines ? all.filter((a) => engines.includes(a.id)) : all;
for (const s of skipped) console.error(`bench: ${s.module} skipped (${s.reason})`);

const only = list(args.only);
let workloads = only ? WORKLOADS.filter((w) => only.includes(w.id)) : WORKLOADS;
const corpusPresent = haveCorpus();
if (!corpusPresent) {
  console.error(`bench: no corpus at ${SHARED}/corpus: the workloads that need it are skipped`);
  workloads = workloads.filter((w) => !w.needsCorpus);
}

let corpus;
let verdicts;
const ctx = {
  agent: args.agent,
  quick: args.quick,
  budget: timingBudget(args.quick),
  corpus: () => (corpus ??= loadCorpus()),
  verdicts: () => (verdicts ??= loadGoogleVerdicts()),
};

console.error(`bench: ${adapters.length} engines, ${workloads.length} workloads, ${args.quick ? 'quick' : 'full'} run ...`);
const results = await runWorkloads({ adapters, skipped, workloads, ctx, log: (l) => console.error(l) });
if (!corpusPresent) results.skippedWorkloads = WORKLOADS.filter((w) => w.needsCorpus).map((w) => w.id);

console.log(renderResultsText(results));

const day = results.date.slice(0, 10);
const name = `${day}-${results.machine.hostname}${args.quick ? '-quick' : ''}${only || engines ? '-partial' : ''}.json`;
mkdirSync(path.join(HERE, 'results'), { recursive: true });
const file = path.join(HERE, 'results', name);
writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
console.log(`\nresults: ${path.relative(process.cwd(), file)}`);
if (!args.quick && !only && !engines && corpusPresent) {
  writeReport(results, HERE, path.relative(HERE, file));
  console.log('report: bench/REPORT.md, bench/report.svg');
}
const m = results.machine;
console.log(`(${results.durationSeconds.toFixed(0)} s; node ${m.node}; ${m.cpu} x${m.cores})`);
