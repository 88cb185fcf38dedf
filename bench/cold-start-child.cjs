// Child side of the cold-start workload, as CommonJS: cold-start-child.mjs's
// twin (the same clocks and parts), the library loaded with require().
//   node bench/cold-start-child.cjs ENGINE_ID AGENT [SPECIFIER]
const [id, agent, specifier] = process.argv.slice(2);
const engine = require('./cold-start-engines.cjs')[id];
const body = 'User-agent: *\nDisallow: /private/\nAllow: /private/public\nDisallow: /*.pdf$\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n';
(async () => {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const library = require(specifier ?? engine.specifier);
  const t1 = performance.now();
  const c1 = process.cpuUsage(c0);
  const verdict = await engine.firstVerdict(library, body, 'https://example.com/nogoogle/x', agent);
  const t2 = performance.now();
  const cpu = process.cpuUsage(c0);
  // The verdict is printed so that the check cannot be skipped.
  process.stdout.write(JSON.stringify({ ms: t2 - t0, importMs: t1 - t0, verdictMs: t2 - t1, cpuMs: (cpu.user + cpu.system) / 1000, importCpuMs: (c1.user + c1.system) / 1000, verdict: Boolean(verdict) }));
})();
