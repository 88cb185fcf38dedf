// Whether first-verdict's rounds (../rounds.mjs) favour an engine: runs the workload as
// npm run bench does, with a twin of this engine (wasm-google again) and a twin of Google's
// native driver (a second adapter on the same binary), and prints per run the ratios
// wasm-google / google-native, wasm-google / its twin and google-native / its twin. An
// unbiased scheme gives twins ~1.0 and the first ratio a small spread across runs.
//   node --expose-gc bench/tools/rounds-check.mjs [--runs 3]
import os from 'node:os';
import { parseArgs } from 'node:util';
import { load as loadWasm } from '../adapters/robots-wasm.mjs';
import { load as loadNative } from '../adapters/google-native.mjs';
import { loadCorpus } from '../corpus.mjs';
import { runWorkloads } from '../harness.mjs';
import { timingBudget } from '../measure.mjs';
import { firstVerdict } from '../workloads/crawler.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const wasm = (await loadWasm()).find((a) => a.id === 'wasm-google');
if (!wasm) throw new Error('no wasm-google adapter');
const [native] = await loadNative();
const [nativeTwin] = await loadNative();
const adapters = [wasm, { ...wasm, id: 'wasm-google-twin', label: 'robots-wasm google (twin)' }, native, { ...nativeTwin, id: 'google-native-twin', label: 'Google native (twin)' }];
const corpus = loadCorpus();
const ctx = { agent: 'Googlebot', quick: false, budget: timingBudget(false), corpus: () => corpus, verdicts: () => [] };
const rows = [];
for (let run = 1; run <= Number(values.runs); run++) {
  const load = os.loadavg()[0];
  const results = await runWorkloads({ adapters, workloads: [firstVerdict], ctx });
  const m = (/** @type {string} */ id) => /** @type {any} */ (results.workloads[0]).results[id].median;
  const row = { run, load: load.toFixed(1), 'wasm/native': (m('wasm-google') / m('google-native')).toFixed(2), 'wasm/wasm twin': (m('wasm-google') / m('wasm-google-twin')).toFixed(2), 'native/native twin': (m('google-native') / m('google-native-twin')).toFixed(2) };
  rows.push(row);
  console.log(JSON.stringify(row));
}
for (const key of ['wasm/native', 'wasm/wasm twin', 'native/native twin']) {
  const v = rows.map((r) => Number(r[key]));
  console.log(`${key}: ${Math.min(...v).toFixed(2)}-${Math.max(...v).toFixed(2)} over ${v.length} runs`);
}
