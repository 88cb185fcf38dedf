// Child side of the cold-start workload, as an ES module: from before the
// engine's library is imported to its first verdict, in a fresh node process
// (cold-start-measure.cjs: milliseconds, whole and in two parts, import (the
// library's modules, nothing of the bench's) and first verdict (parse, compile,
// one check: this engine's WASM core is compiled and instantiated there, on
// first use); and the process's CPU time over the same span).
// Its twin cold-start-child.cjs does the same with require().
//   node bench/cold-start-child.mjs ENGINE_ID AGENT [SPECIFIER]
import { createRequire } from 'node:module';

const requireHere = createRequire(import.meta.url);
const [id, agent, specifier] = process.argv.slice(2);
const engine = requireHere('./cold-start-engines.cjs')[id];
const { measureColdStart } = requireHere('./cold-start-measure.cjs');
await measureColdStart(engine, agent, () => import(specifier ?? engine.specifier));
