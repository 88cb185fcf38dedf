// Child side of the cold-start workload, as an ES module: from before the
// engine's library is imported to its first verdict, in a fresh node process;
// prints milliseconds, whole and in two parts: import (the library's modules,
// nothing of the bench's) and first verdict (parse, compile, one check: this
// engine's WASM core is compiled and instantiated there, on first use); and the
// process's CPU time over the same span (every thread: steadier than the clock
// on a loaded machine).
// Its twin cold-start-child.cjs does the same with require().
//   node bench/cold-start-child.mjs ENGINE_ID AGENT [SPECIFIER]
import { createRequire } from 'node:module';

const [id, agent, specifier] = process.argv.slice(2);
const engine = createRequire(import.meta.url)('./cold-start-engines.cjs')[id];
const body = 'User-agent: *\nDisallow: /private/\nAllow: /private/public\nDisallow: /*.pdf$\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n';
const c0 = process.cpuUsage();
const t0 = performance.now();
const library = await import(specifier ?? engine.specifier);
const t1 = performance.now();
const c1 = process.cpuUsage(c0);
const verdict = await engine.firstVerdict(library, body, 'https://example.com/nogoogle/x', agent);
const t2 = performance.now();
const cpu = process.cpuUsage(c0);
// The verdict is printed so that the check cannot be skipped.
process.stdout.write(JSON.stringify({ ms: t2 - t0, importMs: t1 - t0, verdictMs: t2 - t1, cpuMs: (cpu.user + cpu.system) / 1000, importCpuMs: (c1.user + c1.system) / 1000, verdict: Boolean(verdict) }));
