// Child side of the cold-start workload, as CommonJS: the library loaded with
// require() (cold-start-measure.cjs: the clocks and parts, cold-start-child.mjs's too).
//   node bench/cold-start-child.cjs ENGINE_ID AGENT [SPECIFIER]
const [id, agent, specifier] = process.argv.slice(2);
const engine = require('./cold-start-engines.cjs')[id];
const { measureColdStart } = require('./cold-start-measure.cjs');
measureColdStart(engine, agent, () => require(specifier ?? engine.specifier));
